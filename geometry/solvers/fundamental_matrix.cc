#include "geometry/solvers/fundamental_matrix.h"

#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>
#include <Eigen/SVD>

#include "geometry/solvers/normalization.h"
#include "geometry/solvers/null_space.h"
#include "geometry/solvers/polynomial.h"

namespace proj {
namespace {

using RowMajor3d = Eigen::Matrix<double, 3, 3, Eigen::RowMajor>;

// Row r of the epipolar system A f = 0 with f = F in row-major order: x2^T F x1 = kron(x2, x1).f
Eigen::Matrix<double, 9, 1> EpipolarRow(const Eigen::Vector3d& x1, const Eigen::Vector3d& x2) {
  Eigen::Matrix<double, 9, 1> row;
  row << x2(0) * x1, x2(1) * x1, x2(2) * x1;
  return row;
}

// Smallest right singular vector of the (implicit) n x 9 epipolar system, through its 9x9 normal
// matrix: the data are normalized first, so squaring the condition number is harmless.
template <typename Container>
bool SolveNormalizedLinear(const Container& points1, const Container& points2,
                           Eigen::Matrix3d* f_out) {
  const size_t n = points1.size();
  if (n < 8 || points2.size() != n) return false;
  const Eigen::Matrix3d t1 = IsotropicNormalization(points1);
  const Eigen::Matrix3d t2 = IsotropicNormalization(points2);
  Eigen::Matrix<double, 9, 9> normal = Eigen::Matrix<double, 9, 9>::Zero();
  for (size_t i = 0; i < n; ++i) {
    const Eigen::Matrix<double, 9, 1> row =
        EpipolarRow(ApplyNormalization(t1, points1[i]).homogeneous(),
                    ApplyNormalization(t2, points2[i]).homogeneous());
    AddOuterProductLower(row, &normal);
  }
  // The solver reads only the lower triangle filled by rankUpdate.
  Eigen::SelfAdjointEigenSolver<Eigen::Matrix<double, 9, 9>> eigen(normal);
  if (eigen.info() != Eigen::Success) return false;
  // A second (near-)zero eigenvalue means the solution is not unique: degenerate data.
  if (!(eigen.eigenvalues()(1) > 1e-12 * eigen.eigenvalues()(8))) return false;
  const Eigen::Matrix<double, 9, 1> v = eigen.eigenvectors().col(0);
  const Eigen::Matrix3d f_normalized = Eigen::Map<const RowMajor3d>(v.data());
  // Enforce rank 2 in the normalized frame, where the Frobenius metric is meaningful.
  Eigen::JacobiSVD<Eigen::Matrix3d> svd(f_normalized, Eigen::ComputeFullU | Eigen::ComputeFullV);
  Eigen::Vector3d sigma = svd.singularValues();
  if (!(sigma(1) > 0.0)) return false;
  sigma(2) = 0.0;
  const Eigen::Matrix3d f_rank2 = svd.matrixU() * sigma.asDiagonal() * svd.matrixV().transpose();
  const Eigen::Matrix3d f = t2.transpose() * f_rank2 * t1;
  const double norm = f.norm();
  if (!(norm > 0.0) || !f.allFinite()) return false;
  *f_out = f / norm;
  return true;
}

}  // namespace

void SolveFundamentalSevenPoint(const std::array<Eigen::Vector2d, 7>& points1,
                                const std::array<Eigen::Vector2d, 7>& points2,
                                std::vector<Eigen::Matrix3d>* solutions) {
  const Eigen::Matrix3d t1 = IsotropicNormalization(points1);
  const Eigen::Matrix3d t2 = IsotropicNormalization(points2);
  // The epipolar rows written entry by entry: assembled from partial vector stores, as
  // EpipolarRow's comma initializer compiles, they stall on store forwarding when read back.
  Eigen::Matrix<double, 9, 7> a_transpose;
  for (int i = 0; i < 7; ++i) {
    const Eigen::Vector2d p = ApplyNormalization(t1, points1[i]);
    const Eigen::Vector2d q = ApplyNormalization(t2, points2[i]);
    double* column = a_transpose.col(i).data();
    column[0] = q.x() * p.x();
    column[1] = q.x() * p.y();
    column[2] = q.x();
    column[3] = q.y() * p.x();
    column[4] = q.y() * p.y();
    column[5] = q.y();
    column[6] = p.x();
    column[7] = p.y();
    column[8] = 1.0;
  }
  const Eigen::Matrix<double, 9, 2> null_space = NullSpaceOfTransposed(a_transpose);
  const Eigen::Matrix<double, 9, 1> v1 = null_space.col(0), v2 = null_space.col(1);
  const Eigen::Matrix3d f1 = Eigen::Map<const RowMajor3d>(v1.data());
  const Eigen::Matrix3d f2 = Eigen::Map<const RowMajor3d>(v2.data());
  // det(f1 + lambda (f2 - f1)) = 0 covers every member of the pencil except f2 - f1 itself.
  const Eigen::Matrix3d df = f2 - f1;
  const Eigen::Vector4d c = DeterminantPencilCoefficients(f1, df);
  double roots[3];
  const int num_roots = SolveCubicReal(c(3), c(2), c(1), c(0), roots);
  for (int i = 0; i < num_roots; ++i) {
    const Eigen::Matrix3d f = t2.transpose() * (f1 + roots[i] * df) * t1;
    const double norm = f.norm();
    if (norm > 0.0 && f.allFinite()) solutions->push_back(f * (1.0 / norm));
  }
}

bool SatisfiesOrientedEpipolarConstraint(const Eigen::Matrix3d& f, const Eigen::Vector2d* points1,
                                         const Eigen::Vector2d* points2, int count) {
  // The epipole is orthogonal to the columns of F (rank 2): the largest of their cross products.
  Eigen::Vector3d epipole = f.col(0).cross(f.col(1));
  for (const Eigen::Vector3d& candidate : {Eigen::Vector3d(f.col(0).cross(f.col(2))),
                                           Eigen::Vector3d(f.col(1).cross(f.col(2)))}) {
    if (candidate.squaredNorm() > epipole.squaredNorm()) epipole = candidate;
  }
  bool positive = false, negative = false;
  for (int i = 0; i < count; ++i) {
    const Eigen::Vector3d line = epipole.cross(points2[i].homogeneous());
    const double side = line.dot(f * points1[i].homogeneous());
    positive = positive || side > 0.0;
    negative = negative || side < 0.0;
  }
  return !(positive && negative);
}

bool SolveFundamentalEightPoint(const std::vector<Eigen::Vector2d>& points1,
                                const std::vector<Eigen::Vector2d>& points2, Eigen::Matrix3d* f) {
  return SolveNormalizedLinear(points1, points2, f);
}

bool SolveEssentialEightPoint(const std::vector<Eigen::Vector2d>& points1_normalized,
                              const std::vector<Eigen::Vector2d>& points2_normalized,
                              Eigen::Matrix3d* e) {
  Eigen::Matrix3d f;
  if (!SolveNormalizedLinear(points1_normalized, points2_normalized, &f)) return false;
  *e = ProjectToEssentialManifold(f);
  return e->allFinite();
}

Eigen::Matrix3d ProjectToEssentialManifold(const Eigen::Matrix3d& m) {
  Eigen::JacobiSVD<Eigen::Matrix3d> svd(m, Eigen::ComputeFullU | Eigen::ComputeFullV);
  // Singular values (1, 1, 0) scaled to unit Frobenius norm.
  const double s = std::sqrt(0.5);
  return svd.matrixU() * Eigen::Vector3d(s, s, 0.0).asDiagonal() * svd.matrixV().transpose();
}

}  // namespace proj
