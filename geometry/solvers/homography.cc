#include "geometry/solvers/homography.h"

#include <cmath>

#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>
#include <Eigen/LU>

#include "geometry/solvers/normalization.h"
#include "geometry/solvers/null_space.h"

namespace proj {
namespace {

using RowMajor3d = Eigen::Matrix<double, 3, 3, Eigen::RowMajor>;
using Row9 = Eigen::Matrix<double, 9, 1>;

// The two DLT rows of one correspondence (x1 -> x2) for h = H in row-major order.
void DltRows(const Eigen::Vector2d& x1, const Eigen::Vector2d& x2, Row9* r1, Row9* r2) {
  const Eigen::Vector3d p = x1.homogeneous();
  *r1 << Eigen::Vector3d::Zero(), -p, x2.y() * p;
  *r2 << p, Eigen::Vector3d::Zero(), -x2.x() * p;
}

bool Finish(const Row9& v, const Eigen::Matrix3d& t1, const Eigen::Matrix3d& t2,
            Eigen::Matrix3d* h_out) {
  const Eigen::Matrix3d h_normalized = Eigen::Map<const RowMajor3d>(v.data());
  const Eigen::Matrix3d h = t2.inverse() * h_normalized * t1;
  const double norm = h.norm();
  if (!(norm > 0.0) || !h.allFinite()) return false;
  *h_out = h / norm;
  return true;
}

template <typename Container>
bool HasCollinearTriple(const Container& points, const Eigen::Matrix3d& t) {
  for (int i = 0; i < 4; ++i) {
    const Eigen::Vector2d a = ApplyNormalization(t, points[(i + 1) % 4]);
    const Eigen::Vector2d b = ApplyNormalization(t, points[(i + 2) % 4]);
    const Eigen::Vector2d c = ApplyNormalization(t, points[(i + 3) % 4]);
    const Eigen::Vector2d ab = b - a, ac = c - a;
    // Normalized points have mean distance sqrt(2) from their centroid, so an absolute
    // threshold on the doubled triangle area is scale-free.
    if (std::abs(ab.x() * ac.y() - ab.y() * ac.x()) < 1e-8) return true;
  }
  return false;
}

}  // namespace

bool SolveHomographyFourPoint(const std::array<Eigen::Vector2d, 4>& points1,
                              const std::array<Eigen::Vector2d, 4>& points2, Eigen::Matrix3d* h) {
  const Eigen::Matrix3d t1 = IsotropicNormalization(points1);
  const Eigen::Matrix3d t2 = IsotropicNormalization(points2);
  if (HasCollinearTriple(points1, t1) || HasCollinearTriple(points2, t2)) return false;
  Eigen::Matrix<double, 9, 8> a_transpose;
  for (int i = 0; i < 4; ++i) {
    Row9 r1, r2;
    DltRows(ApplyNormalization(t1, points1[i]), ApplyNormalization(t2, points2[i]), &r1, &r2);
    a_transpose.col(2 * i) = r1;
    a_transpose.col(2 * i + 1) = r2;
  }
  return Finish(NullSpaceOfTransposed(a_transpose), t1, t2, h);
}

bool SolveHomographyDlt(const std::vector<Eigen::Vector2d>& points1,
                        const std::vector<Eigen::Vector2d>& points2, Eigen::Matrix3d* h) {
  const size_t n = points1.size();
  if (n < 4 || points2.size() != n) return false;
  const Eigen::Matrix3d t1 = IsotropicNormalization(points1);
  const Eigen::Matrix3d t2 = IsotropicNormalization(points2);
  Eigen::Matrix<double, 9, 9> normal = Eigen::Matrix<double, 9, 9>::Zero();
  for (size_t i = 0; i < n; ++i) {
    Row9 r1, r2;
    DltRows(ApplyNormalization(t1, points1[i]), ApplyNormalization(t2, points2[i]), &r1, &r2);
    AddOuterProductLower(r1, &normal);
    AddOuterProductLower(r2, &normal);
  }
  // The solver reads only the lower triangle filled by rankUpdate.
  Eigen::SelfAdjointEigenSolver<Eigen::Matrix<double, 9, 9>> eigen(normal);
  if (eigen.info() != Eigen::Success) return false;
  // A second (near-)zero eigenvalue means the solution is not unique: degenerate data.
  if (!(eigen.eigenvalues()(1) > 1e-12 * eigen.eigenvalues()(8))) return false;
  return Finish(eigen.eigenvectors().col(0), t1, t2, h);
}

}  // namespace proj
