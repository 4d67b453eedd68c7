// Estimator adapters (STYLE P6) for EstimateEssentialMatrix, EstimateFundamentalMatrix and
// EstimateHomography. Each adapter is created per call and owns scratch arrays for its
// least-squares refit, so the inner loops do not allocate after warm-up.
#include "geometry/ransac/estimate_two_view.h"

#include <algorithm>
#include <array>

#include <Eigen/Geometry>

#include "core/check.h"
#include "geometry/ransac/ransac.h"
#include "geometry/solvers/epipolar_residuals.h"
#include "geometry/solvers/essential_decomposition.h"
#include "geometry/solvers/essential_five_point.h"
#include "geometry/solvers/fundamental_matrix.h"
#include "geometry/solvers/homography.h"
#include "geometry/solvers/relative_pose_refinement.h"

namespace proj {
namespace {

struct PointPair {
  Eigen::Vector2d x1;
  Eigen::Vector2d x2;
};

std::vector<PointPair> MakePairs(const char* function, const std::vector<Eigen::Vector2d>& x1,
                                 const std::vector<Eigen::Vector2d>& x2) {
  PROJ_REQUIRE(x1.size() == x2.size(), function << ": " << x1.size() << " points in image 1 but "
                                                << x2.size() << " in image 2");
  std::vector<PointPair> pairs(x1.size());
  for (size_t i = 0; i < x1.size(); ++i) pairs[i] = {x1[i], x2[i]};
  return pairs;
}

// Scratch coordinate arrays for the least-squares solvers, which take separate arrays.
struct RefitScratch {
  mutable std::vector<Eigen::Vector2d> x1, x2;
  void Split(const std::vector<PointPair>& pairs) const {
    x1.clear();
    x2.clear();
    for (const PointPair& pair : pairs) {
      x1.push_back(pair.x1);
      x2.push_back(pair.x2);
    }
  }
};

// Errors of `count` consecutive data in one loop that the compiler vectorizes: the model is
// copied into a local so that stores to `errors` cannot alias it.
template <typename ErrorFunction>
void BatchErrors(const PointPair* data, int count, const Eigen::Matrix3d& model,
                 ErrorFunction error, double* errors) {
  const Eigen::Matrix3d local = model;
  for (int k = 0; k < count; ++k) errors[k] = error(local, data[k].x1, data[k].x2);
}

// The residuals as function objects, so that BatchErrors is instantiated (and inlined) per
// residual.
constexpr auto kSampson = [](const Eigen::Matrix3d& m, const Eigen::Vector2d& x1,
                             const Eigen::Vector2d& x2) { return SampsonSquaredError(m, x1, x2); };
constexpr auto kTransfer = [](const Eigen::Matrix3d& m, const Eigen::Vector2d& x1,
                              const Eigen::Vector2d& x2) {
  return HomographyTransferSquaredError(m, x1, x2);
};

// Splits a minimal sample into the two coordinate arrays the minimal solvers take.
template <size_t N>
void SplitSample(const std::array<PointPair, N>& sample, std::array<Eigen::Vector2d, N>* x1,
                 std::array<Eigen::Vector2d, N>* x2) {
  for (size_t i = 0; i < N; ++i) {
    (*x1)[i] = sample[i].x1;
    (*x2)[i] = sample[i].x2;
  }
}

struct EssentialEstimator {
  using Datum = PointPair;
  using Model = Eigen::Matrix3d;
  static constexpr int kSampleSize = 5;
  static constexpr double kFitCostInErrorEvaluations = 2000.0;  // ~10 us vs ~5 ns (SPRT)

  void Fit(const std::array<Datum, kSampleSize>& sample, std::vector<Model>* models) const {
    std::array<Eigen::Vector3d, kSampleSize> b1, b2;
    for (int i = 0; i < kSampleSize; ++i) {
      b1[i] = sample[i].x1.homogeneous();
      b2[i] = sample[i].x2.homogeneous();
    }
    SolveEssentialFivePoint(b1, b2, models);
  }
  double SquaredError(const Datum& datum, const Model& e) const {
    return SampsonSquaredError(e, datum.x1, datum.x2);
  }
  void SquaredErrors(const Datum* data, int count, const Model& e, double* errors) const {
    BatchErrors(data, count, e, kSampson, errors);
  }
  // Non-linear Sampson refinement of the pose decomposed from `initial`: unlike the
  // eight-point algorithm it minimizes a geometric error and keeps the essential constraints.
  // Of the four decompositions the one with most of up to kPoseVotes inliers in front wins:
  // a vote that thousands of inliers would only confirm.
  bool Refit(const std::vector<Datum>& inliers, const Model& initial, Model* refined) const {
    constexpr size_t kPoseVotes = 100;
    scratch.Split(inliers);
    const size_t stride = (inliers.size() + kPoseVotes - 1) / kPoseVotes;
    voters.assign(inliers.size(), 0);
    for (size_t i = 0; i < inliers.size(); i += stride) voters[i] = 1;
    Rigid3d cam2_from_cam1;
    if (RecoverPoseFromEssential(initial, scratch.x1, scratch.x2, &voters, &cam2_from_cam1) == 0) {
      return false;
    }
    RelativePoseRefinementOptions options;
    options.max_iterations = 10;
    // Converged for RANSAC's purposes (the inlier set of a 4 px threshold) long before the
    // default tolerance: further steps cost a pass over the inliers each.
    options.function_tolerance = 1e-6;
    if (!RefineRelativePose(options, scratch.x1, scratch.x2, &cam2_from_cam1).success) {
      return false;
    }
    const Eigen::Matrix3d e = EssentialMatrixFromPose(cam2_from_cam1);
    *refined = e / e.norm();
    return refined->allFinite();
  }
  RefitScratch scratch;
  mutable std::vector<char> voters;
};

struct FundamentalEstimator {
  using Datum = PointPair;
  using Model = Eigen::Matrix3d;
  static constexpr int kSampleSize = 7;
  static constexpr double kFitCostInErrorEvaluations = 500.0;

  void Fit(const std::array<Datum, kSampleSize>& sample, std::vector<Model>* models) const {
    std::array<Eigen::Vector2d, kSampleSize> x1, x2;
    SplitSample(sample, &x1, &x2);
    SolveFundamentalSevenPoint(x1, x2, models);
    // Solutions that put the sample's own points behind a camera are not scored (about half
    // of those of samples with outliers).
    models->erase(std::remove_if(models->begin(), models->end(),
                                 [&](const Model& f) {
                                   return !SatisfiesOrientedEpipolarConstraint(
                                       f, x1.data(), x2.data(), kSampleSize);
                                 }),
                  models->end());
  }
  double SquaredError(const Datum& datum, const Model& f) const {
    return SampsonSquaredError(f, datum.x1, datum.x2);
  }
  void SquaredErrors(const Datum* data, int count, const Model& f, double* errors) const {
    BatchErrors(data, count, f, kSampson, errors);
  }
  bool Refit(const std::vector<Datum>& inliers, const Model& /*initial*/, Model* refined) const {
    scratch.Split(inliers);
    return SolveFundamentalEightPoint(scratch.x1, scratch.x2, refined);
  }
  RefitScratch scratch;
};

struct HomographyEstimator {
  using Datum = PointPair;
  using Model = Eigen::Matrix3d;
  static constexpr int kSampleSize = 4;
  static constexpr double kFitCostInErrorEvaluations = 500.0;

  void Fit(const std::array<Datum, kSampleSize>& sample, std::vector<Model>* models) const {
    std::array<Eigen::Vector2d, kSampleSize> x1, x2;
    SplitSample(sample, &x1, &x2);
    Eigen::Matrix3d h;
    if (SolveHomographyFourPoint(x1, x2, &h)) models->push_back(h);
  }
  double SquaredError(const Datum& datum, const Model& h) const {
    return HomographyTransferSquaredError(h, datum.x1, datum.x2);
  }
  void SquaredErrors(const Datum* data, int count, const Model& h, double* errors) const {
    BatchErrors(data, count, h, kTransfer, errors);
  }
  bool Refit(const std::vector<Datum>& inliers, const Model& /*initial*/, Model* refined) const {
    scratch.Split(inliers);
    return SolveHomographyDlt(scratch.x1, scratch.x2, refined);
  }
  RefitScratch scratch;
};

}  // namespace

RansacReport<Eigen::Matrix3d> EstimateEssentialMatrix(
    const RansacOptions& options, const std::vector<Eigen::Vector2d>& points1_normalized,
    const std::vector<Eigen::Vector2d>& points2_normalized, const std::vector<char>* sample_pool) {
  // A pixel threshold passed by mistake (the default 4.0 is one) would accept everything.
  PROJ_REQUIRE(options.max_error <= 0.5,
               "EstimateEssentialMatrix: RansacOptions.max_error is in normalized image units "
               "(pixels / focal length), got "
                   << options.max_error);
  return Ransac(options, EssentialEstimator{},
                MakePairs("EstimateEssentialMatrix", points1_normalized, points2_normalized),
                sample_pool);
}

RansacReport<Eigen::Matrix3d> EstimateFundamentalMatrix(
    const RansacOptions& options, const std::vector<Eigen::Vector2d>& pixels1,
    const std::vector<Eigen::Vector2d>& pixels2) {
  return Ransac(options, FundamentalEstimator{},
                MakePairs("EstimateFundamentalMatrix", pixels1, pixels2));
}

RansacReport<Eigen::Matrix3d> EstimateHomography(const RansacOptions& options,
                                                 const std::vector<Eigen::Vector2d>& pixels1,
                                                 const std::vector<Eigen::Vector2d>& pixels2,
                                                 const std::vector<char>* sample_pool) {
  return Ransac(options, HomographyEstimator{}, MakePairs("EstimateHomography", pixels1, pixels2),
                sample_pool);
}

}  // namespace proj
