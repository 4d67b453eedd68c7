#include "sfm/mapper/focal_calibration.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <ceres/ceres.h>

#include "core/check.h"

namespace proj {

void FocalCalibrationOptions::Check() const {
  PROJ_REQUIRE(min_focal_ratio > 0 && min_focal_ratio < 1 && max_focal_ratio > 1,
               "focal calibration range must contain 1 (min_focal_ratio < 1 < max_focal_ratio)");
  PROJ_REQUIRE(robust_scale > 0, "focal calibration robust_scale must be > 0");
  PROJ_REQUIRE(min_num_pairs >= 1, "focal calibration min_num_pairs must be >= 1");
  PROJ_REQUIRE(min_sharpness >= 0, "focal calibration min_sharpness must be >= 0");
  PROJ_REQUIRE(max_sweeps >= 1, "focal calibration max_sweeps must be >= 1");
}

namespace {

constexpr double kGridStep = 1.01;         // log grid of focal ratios: 1% apart
constexpr double kSharpnessFactor = 1.25;  // see FocalCalibrationOptions::min_sharpness
constexpr double kConverged = 1e-3;        // sweeps stop when no ratio moves more (relative)

// A pair's fundamental matrix under its cameras' calibration matrices: G = K2^T F K1. Scaling
// the focal lengths by r1, r2 gives E = diag(r2, r2, 1) G diag(r1, r1, 1).
struct PairTerm {
  int camera1 = 0, camera2 = 0;
  Eigen::Matrix3d g = Eigen::Matrix3d::Zero();
};

// (2 E E^T E - tr(E E^T) E) / |E|^3: zero exactly when E is an essential matrix (two equal
// singular values, one zero); for singular values s1 >= s2, 0 its norm is
// (s1^2 - s2^2) / (s1^2 + s2^2), about twice the gap (s1 - s2) / (s1 + s2) of Mendonca and
// Cipolla, but smooth and signed, so a least-squares solver can use it.
template <typename T>
void EssentialResidual(const Eigen::Matrix3d& g, const T& r1, const T& r2, T* residuals) {
  Eigen::Matrix<T, 3, 3> e;
  const T d1[3] = {r1, r1, T(1)}, d2[3] = {r2, r2, T(1)};
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) e(i, j) = d2[i] * T(g(i, j)) * d1[j];
  }
  const Eigen::Matrix<T, 3, 3> eet = e * e.transpose();
  const T norm2 = eet.trace();
  const T scale = norm2 * sqrt(norm2);
  const Eigen::Matrix<T, 3, 3> r = (T(2) * eet * e - norm2 * e) / scale;
  for (int k = 0; k < 9; ++k) residuals[k] = r(k / 3, k % 3);
}

// Ceres costs over log focal ratios: of two cameras, or of one camera for both images.
struct TwoCameraCost {
  explicit TwoCameraCost(const Eigen::Matrix3d& g) : g(g) {}
  template <typename T>
  bool operator()(const T* log_ratio1, const T* log_ratio2, T* residuals) const {
    EssentialResidual(g, exp(log_ratio1[0]), exp(log_ratio2[0]), residuals);
    return true;
  }
  Eigen::Matrix3d g;
};

struct OneCameraCost {
  explicit OneCameraCost(const Eigen::Matrix3d& g) : g(g) {}
  template <typename T>
  bool operator()(const T* log_ratio, T* residuals) const {
    const T ratio = exp(log_ratio[0]);
    EssentialResidual(g, ratio, ratio, residuals);
    return true;
  }
  Eigen::Matrix3d g;
};

class Calibrator {
 public:
  Calibrator(const FocalCalibrationOptions& options, int num_cameras, std::vector<PairTerm> terms)
      : options_(options), terms_(std::move(terms)), log_ratio_(num_cameras, 0.0), terms_of_(num_cameras) {
    for (size_t t = 0; t < terms_.size(); ++t) {
      terms_of_[terms_[t].camera1].push_back(static_cast<int>(t));
      if (terms_[t].camera2 != terms_[t].camera1) terms_of_[terms_[t].camera2].push_back(static_cast<int>(t));
    }
  }

  int NumPairs(int camera) const { return static_cast<int>(terms_of_[camera].size()); }
  double ratio(int camera) const { return std::exp(log_ratio_[camera]); }
  void reset(int camera) { log_ratio_[camera] = 0; }

  // Robust cost of the camera's pairs with its log focal ratio at `log_ratio`, the others at
  // theirs: the Cauchy loss of the residual's norm at twice the robust scale (the norm is
  // about twice the singular value gap).
  double CameraCost(int camera, double log_ratio) const {
    const double scale = 2 * options_.robust_scale;
    double cost = 0;
    for (int t : terms_of_[camera]) {
      const PairTerm& term = terms_[t];
      const double r1 = std::exp(term.camera1 == camera ? log_ratio : log_ratio_[term.camera1]);
      const double r2 = std::exp(term.camera2 == camera ? log_ratio : log_ratio_[term.camera2]);
      double residuals[9];
      EssentialResidual(term.g, r1, r2, residuals);
      const double squared = Eigen::Map<const Eigen::Matrix<double, 9, 1>>(residuals).squaredNorm();
      cost += std::log1p(squared / (scale * scale));
    }
    return cost;
  }

  // Sets the camera's ratio to the best of the log grid over the range; false when that is at
  // an end of the range (no minimum inside).
  bool GridSearch(int camera) {
    const double log_min = std::log(options_.min_focal_ratio), log_max = std::log(options_.max_focal_ratio);
    const double step = std::log(kGridStep);
    const int n = static_cast<int>(std::ceil((log_max - log_min) / step)) + 1;
    int best = 0;
    double best_cost = std::numeric_limits<double>::infinity();
    for (int i = 0; i < n; ++i) {
      const double cost = CameraCost(camera, std::min(log_max, log_min + i * step));
      if (cost < best_cost) {
        best_cost = cost;
        best = i;
      }
    }
    log_ratio_[camera] = std::min(log_max, log_min + best * step);
    return best > 0 && best < n - 1;
  }

  // All active cameras' ratios at once (Levenberg-Marquardt; coordinate descent alone
  // crawls along the valleys that pairs of different cameras leave).
  void RefineJointly(const std::vector<char>& active) {
    ceres::Problem::Options problem_options;
    problem_options.loss_function_ownership = ceres::DO_NOT_TAKE_OWNERSHIP;
    ceres::Problem problem(problem_options);
    const double scale = 2 * options_.robust_scale;
    ceres::CauchyLoss loss(scale);
    for (const PairTerm& term : terms_) {
      if (!active[term.camera1] && !active[term.camera2]) continue;
      if (term.camera1 == term.camera2) {
        problem.AddResidualBlock(new ceres::AutoDiffCostFunction<OneCameraCost, 9, 1>(new OneCameraCost(term.g)),
                                 &loss, &log_ratio_[term.camera1]);
      } else {
        problem.AddResidualBlock(
            new ceres::AutoDiffCostFunction<TwoCameraCost, 9, 1, 1>(new TwoCameraCost(term.g)), &loss,
            &log_ratio_[term.camera1], &log_ratio_[term.camera2]);
      }
    }
    for (size_t c = 0; c < active.size(); ++c) {
      if (problem.HasParameterBlock(&log_ratio_[c]) && !active[c]) problem.SetParameterBlockConstant(&log_ratio_[c]);
    }
    ceres::Solver::Options solver;
    solver.linear_solver_type = ceres::DENSE_QR;
    solver.max_num_iterations = 100;
    solver.function_tolerance = 1e-12;
    solver.parameter_tolerance = 1e-10;
    solver.logging_type = ceres::SILENT;
    ceres::Solver::Summary summary;
    ceres::Solve(solver, &problem, &summary);
  }

  // How much the cost rises 25% away from the camera's ratio, relative to the cost there.
  double Sharpness(int camera) const {
    const double at = CameraCost(camera, log_ratio_[camera]);
    const double away = std::min(CameraCost(camera, log_ratio_[camera] + std::log(kSharpnessFactor)),
                                 CameraCost(camera, log_ratio_[camera] - std::log(kSharpnessFactor)));
    // The floor keeps a flat zero cost (pure translation: every focal length gives an
    // essential matrix) from counting as sharp.
    return std::max(0.0, away - at) / std::max(at, 1e-6);
  }

 private:
  const FocalCalibrationOptions& options_;
  std::vector<PairTerm> terms_;
  std::vector<double> log_ratio_;
  std::vector<std::vector<int>> terms_of_;
};

}  // namespace

std::vector<CameraFocalCalibration> CalibrateFocalLengths(const FocalCalibrationOptions& options,
                                                          const Scene& scene,
                                                          const std::vector<VerifiedPair>& pairs,
                                                          int min_pair_inliers) {
  options.Check();
  std::vector<PairTerm> terms;
  for (const VerifiedPair& pair : pairs) {
    const TwoViewGeometry& geometry = pair.geometry;
    const bool epipolar = geometry.configuration == TwoViewConfiguration::kCalibrated ||
                          geometry.configuration == TwoViewConfiguration::kUncalibrated;
    if (!epipolar || geometry.F.isZero(0) ||
        static_cast<int>(geometry.inlier_matches.size()) < min_pair_inliers) {
      continue;
    }
    const int camera1 = scene.images[pair.pair.image1].camera_id;
    const int camera2 = scene.images[pair.pair.image2].camera_id;
    terms.push_back({camera1, camera2,
                     scene.cameras[camera2].CalibrationMatrix().transpose() * geometry.F *
                         scene.cameras[camera1].CalibrationMatrix()});
  }
  const int num_cameras = static_cast<int>(scene.cameras.size());
  Calibrator calibrator(options, num_cameras, std::move(terms));
  std::vector<CameraFocalCalibration> result(num_cameras);
  std::vector<char> active(num_cameras, 0);
  for (int c = 0; c < num_cameras; ++c) {
    CameraFocalCalibration& camera = result[c];
    camera.camera_id = c;
    camera.num_pairs = calibrator.NumPairs(c);
    camera.prior_px = camera.focal_px = scene.cameras[c].MeanFocal();
    camera.from_exif = scene.focal_priors_px.count(c) > 0;
    active[c] = !camera.from_exif && camera.num_pairs >= options.min_num_pairs;
  }
  // Grid search per camera (coordinate descent) into the basin of the minimum, then all
  // together. A camera whose minimum is not inside the range or not well defined returns to
  // its prior and leaves the set, and the rest are calibrated again with it fixed.
  bool changed_set = true;
  while (changed_set) {
    changed_set = false;
    std::vector<char> interior(num_cameras, 1);
    for (int sweep = 0; sweep < options.max_sweeps; ++sweep) {
      double largest_move = 0;
      for (int c = 0; c < num_cameras; ++c) {
        if (!active[c]) continue;
        const double before = std::log(calibrator.ratio(c));
        interior[c] = calibrator.GridSearch(c);
        largest_move = std::max(largest_move, std::abs(std::log(calibrator.ratio(c)) - before));
      }
      if (largest_move < kConverged) break;
    }
    calibrator.RefineJointly(active);
    for (int c = 0; c < num_cameras; ++c) {
      if (!active[c]) continue;
      result[c].sharpness = calibrator.Sharpness(c);
      const bool in_range = calibrator.ratio(c) > options.min_focal_ratio && calibrator.ratio(c) < options.max_focal_ratio;
      if (!interior[c] || !in_range || result[c].sharpness < options.min_sharpness) {
        active[c] = 0;
        calibrator.reset(c);
        changed_set = true;
      }
    }
  }
  for (int c = 0; c < num_cameras; ++c) {
    result[c].calibrated = active[c];
    if (active[c]) result[c].focal_px = result[c].prior_px * calibrator.ratio(c);
  }
  return result;
}

}  // namespace proj
