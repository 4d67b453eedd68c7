#include "sfm/global/prior_start.h"

#include <algorithm>
#include <cmath>
#include <array>

#include <Eigen/SVD>

#include "core/check.h"
#include "core/statistics.h"
#include "geometry/ransac/ransac.h"

namespace proj {

void PriorStartOptions::Check() const {
  PROJ_REQUIRE(min_baseline_sigmas > 0, "prior start min_baseline_sigmas must be > 0");
  PROJ_REQUIRE(min_pairs >= 2, "prior start min_pairs must be >= 2");
  PROJ_REQUIRE(max_direction_error_deg > 0, "prior start max_direction_error_deg must be > 0");
  PROJ_REQUIRE(ransac_iterations > 0, "prior start ransac_iterations must be > 0");
}

namespace {

constexpr double kDegrees = 180 / M_PI;

// The rotation R minimising sum |R from_k - to_k|^2 (Kabsch); nullopt when `from` spans less
// than a plane.
std::optional<Eigen::Matrix3d> TurnBetween(const std::vector<Eigen::Vector3d>& from,
                                           const std::vector<Eigen::Vector3d>& to) {
  Eigen::Matrix3d covariance = Eigen::Matrix3d::Zero();
  for (size_t k = 0; k < from.size(); ++k) covariance += to[k] * from[k].transpose();
  const Eigen::JacobiSVD<Eigen::Matrix3d> svd(covariance, Eigen::ComputeFullU | Eigen::ComputeFullV);
  if (svd.singularValues()(1) < 1e-3 * svd.singularValues()(0)) return std::nullopt;
  Eigen::Matrix3d sign = Eigen::Matrix3d::Identity();
  sign(2, 2) = (svd.matrixU() * svd.matrixV().transpose()).determinant() < 0 ? -1 : 1;
  return svd.matrixU() * sign * svd.matrixV().transpose();
}

double AngleDeg(const Eigen::Vector3d& a, const Eigen::Vector3d& b) {
  return std::atan2(a.cross(b).norm(), a.dot(b)) * kDegrees;
}

// A baseline direction in the rotations' frame and the same pair's in the priors' frame.
struct DirectionPair {
  Eigen::Vector3d model;
  Eigen::Vector3d prior;
};

// The turn between the two frames for Ransac (geometry/ransac/ransac.h): from two pairs, and
// refitted on many (Kabsch); the error is the squared chord between the turned and the prior
// direction.
struct TurnEstimator {
  using Datum = DirectionPair;
  using Model = Eigen::Matrix3d;
  static constexpr int kSampleSize = 2;

  void Fit(const std::array<Datum, kSampleSize>& sample, std::vector<Model>* models) const {
    if (auto turn = TurnBetween({sample[0].model, sample[1].model}, {sample[0].prior, sample[1].prior})) {
      models->push_back(*turn);
    }
  }
  double SquaredError(const Datum& datum, const Model& turn) const {
    return (turn * datum.model - datum.prior).squaredNorm();
  }
  bool Refit(const std::vector<Datum>& inliers, const Model& /*initial*/, Model* refined) const {
    std::vector<Eigen::Vector3d> from, to;
    for (const Datum& datum : inliers) {
      from.push_back(datum.model);
      to.push_back(datum.prior);
    }
    const std::optional<Eigen::Matrix3d> turn = TurnBetween(from, to);
    if (turn) *refined = *turn;
    return turn.has_value();
  }
};

}  // namespace

std::optional<PriorStart> StartFromPriors(const PriorStartOptions& options, const std::vector<VerifiedPair>& pairs,
                                          const std::vector<Eigen::Quaterniond>& rotations,
                                          const std::vector<char>& in_model,
                                          const std::map<int, PositionPrior>& priors) {
  options.Check();
  std::vector<DirectionPair> directions;
  for (const VerifiedPair& pair : pairs) {
    const int a = pair.pair.image1, b = pair.pair.image2;
    if (!in_model[a] || !in_model[b] || !pair.geometry.has_relative_pose) continue;
    const Eigen::Vector3d t = pair.geometry.cam2_from_cam1.translation;
    if (t.norm() < 0.5) continue;  // panoramic: no baseline direction
    const auto prior_a = priors.find(a), prior_b = priors.find(b);
    if (prior_a == priors.end() || prior_b == priors.end()) continue;
    const Eigen::Vector3d baseline = prior_a->second.position - prior_b->second.position;
    if (baseline.norm() < options.min_baseline_sigmas * (prior_a->second.sigma.norm() + prior_b->second.sigma.norm())) {
      continue;
    }
    // Camera a's centre seen from b is cam2_from_cam1's translation: c_a - c_b in b's frame.
    directions.push_back({(rotations[b].conjugate() * t).normalized(), baseline.normalized()});
  }
  if (static_cast<int>(directions.size()) < options.min_pairs) return std::nullopt;
  // RANSAC over pairs of pairs: on a nadir survey of flat ground most relative translations are
  // wrong (the essential matrix of a plane; 200-image flight: 277 of 492 pairs 68-77 degrees
  // off, the rest within 3.5), so the turn is the one most directions agree with, refitted on
  // those.
  RansacOptions ransac;
  ransac.max_error = 2 * std::sin(0.5 * options.max_direction_error_deg / kDegrees);  // the chord
  ransac.max_iterations = options.ransac_iterations;
  ransac.min_iterations = std::min(ransac.min_iterations, options.ransac_iterations);
  ransac.min_num_inliers = options.min_pairs;
  ransac.seed = options.seed;
  const RansacReport<Eigen::Matrix3d> report = Ransac(ransac, TurnEstimator(), directions);
  if (!report.success) return std::nullopt;
  const Eigen::Matrix3d& turn = report.model;

  PriorStart start;
  start.num_pairs = report.num_inliers;
  std::vector<double> errors;
  for (size_t k = 0; k < directions.size(); ++k) {
    if (report.inlier_mask[k]) errors.push_back(AngleDeg(turn * directions[k].model, directions[k].prior));
  }
  start.median_error_deg = UpperMedian(std::move(errors));
  start.priors_from_rotations = Eigen::Quaterniond(turn);
  Eigen::Vector3d mean = Eigen::Vector3d::Zero();
  for (const auto& [image_id, prior] : priors) mean += prior.position / priors.size();
  start.centres.assign(in_model.size(), Eigen::Vector3d::Zero());
  for (const auto& [image_id, prior] : priors) {
    if (image_id >= 0 && image_id < static_cast<int>(in_model.size())) {
      start.centres[image_id] = turn.transpose() * (prior.position - mean);
    }
  }
  return start;
}

}  // namespace proj
