#include "sfm/global/global_positioning.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <optional>
#include <numeric>
#include <random>
#include <thread>

#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <ceres/ceres.h>
#include <ceres/rotation.h>

#include "core/check.h"
#include "core/timer.h"
#include "geometry/ransac/estimate_similarity.h"

namespace proj {

void GlobalPositioningOptions::Check() const {
  PROJ_REQUIRE(loss_scale > 0, "global positioning loss_scale must be > 0");
  PROJ_REQUIRE(init_extent > 0, "global positioning init_extent must be > 0");
  PROJ_REQUIRE(max_iterations > 0, "global positioning max_iterations must be > 0");
  PROJ_REQUIRE(num_threads >= 0, "global positioning num_threads must be >= 0");
  PROJ_REQUIRE(prior_weight > 0, "global positioning prior_weight must be > 0");
  PROJ_REQUIRE(prior_loss_scale > 0, "global positioning prior_loss_scale must be > 0");
  PROJ_REQUIRE(min_priors >= 2, "global positioning min_priors must be >= 2");
  PROJ_REQUIRE(prior_min_spread_sigmas >= 0, "global positioning prior_min_spread_sigmas must be >= 0");
}

namespace {

// v - s (X - c): zero when the point lies along the observed bearing from the centre.
struct BearingCost {
  explicit BearingCost(const Eigen::Vector3d& direction) : direction(direction) {}
  template <typename T>
  bool operator()(const T* centre, const T* point, const T* scale, T* residuals) const {
    for (int k = 0; k < 3; ++k) residuals[k] = T(direction[k]) - scale[0] * (point[k] - centre[k]);
    return true;
  }
  Eigen::Vector3d direction;
};

// The same with the bearing turned by a rotation common to all (angle-axis): the turn from the
// rotations' world frame into the priors', refined with the positions.
struct TurnedBearingCost {
  explicit TurnedBearingCost(const Eigen::Vector3d& direction) : direction(direction) {}
  template <typename T>
  bool operator()(const T* centre, const T* point, const T* scale, const T* turn, T* residuals) const {
    const T unturned[3] = {T(direction[0]), T(direction[1]), T(direction[2])};
    T turned[3];
    ceres::AngleAxisRotatePoint(turn, unturned, turned);
    for (int k = 0; k < 3; ++k) residuals[k] = turned[k] - scale[0] * (point[k] - centre[k]);
    return true;
  }
  Eigen::Vector3d direction;
};

// weight (c - prior) / sigma per axis.
struct PriorCost {
  PriorCost(const PositionPrior& prior, double weight) : prior(prior), weight(weight) {}
  template <typename T>
  bool operator()(const T* centre, T* residuals) const {
    for (int k = 0; k < 3; ++k) residuals[k] = T(weight / prior.sigma[k]) * (centre[k] - T(prior.position[k]));
    return true;
  }
  PositionPrior prior;
  double weight;
};

// The priors of the images in `used`, or none when they are too few or their centres lie
// nearly on a line (options): a single flight line, or a hovering drone's one fix for all,
// cannot say how the bearings' frame turns into the priors'.
std::map<int, PositionPrior> UsablePriors(const GlobalPositioningOptions& options,
                                          const std::map<int, PositionPrior>& priors,
                                          const std::vector<char>& used) {
  std::map<int, PositionPrior> usable;
  for (const auto& [image_id, prior] : priors) {
    if (image_id >= 0 && image_id < static_cast<int>(used.size()) && used[image_id]) usable.emplace(image_id, prior);
  }
  if (static_cast<int>(usable.size()) < options.min_priors) return {};
  Eigen::Vector3d mean = Eigen::Vector3d::Zero();
  double sigma = 0;
  for (const auto& [image_id, prior] : usable) {
    mean += prior.position / usable.size();
    sigma += prior.sigma.norm() / usable.size();
  }
  Eigen::Matrix3d covariance = Eigen::Matrix3d::Zero();
  for (const auto& [image_id, prior] : usable) {
    covariance += (prior.position - mean) * (prior.position - mean).transpose() / usable.size();
  }
  // Eigenvalues ascending: the middle one is the spread across the principal line.
  const Eigen::Vector3d spread = Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(covariance).eigenvalues();
  if (std::sqrt(std::max(spread(1), 0.0)) <= options.prior_min_spread_sigmas * sigma) return {};
  return usable;
}

// Minimises the bearing residuals, and the priors' when given, from the current centres,
// points and scales (one per observation, in track order). With priors the bearings turn by
// *turn (angle-axis), refined too.
ceres::Solver::Summary Solve(const GlobalPositioningOptions& options,
                             const std::vector<std::vector<BearingObservation>>& tracks,
                             const std::map<int, PositionPrior>& priors, const std::vector<char>& used,
                             std::vector<Eigen::Vector3d>* centres, std::vector<Eigen::Vector3d>* points,
                             std::vector<double>* scales, Eigen::Vector3d* turn, bool hold_centres = false) {
  ceres::Problem::Options problem_options;
  problem_options.loss_function_ownership = ceres::DO_NOT_TAKE_OWNERSHIP;
  ceres::Problem problem(problem_options);
  ceres::HuberLoss loss(options.loss_scale);
  ceres::HuberLoss prior_loss(options.prior_loss_scale * options.prior_weight);
  auto* ordering = new ceres::ParameterBlockOrdering;
  size_t next_scale = 0;
  for (size_t t = 0; t < tracks.size(); ++t) {
    for (const BearingObservation& observation : tracks[t]) {
      double* scale = &(*scales)[next_scale++];
      double* centre = (*centres)[observation.image_id].data();
      if (priors.empty()) {
        problem.AddResidualBlock(
            new ceres::AutoDiffCostFunction<BearingCost, 3, 3, 3, 1>(new BearingCost(observation.direction)),
            &loss, centre, (*points)[t].data(), scale);
      } else {
        problem.AddResidualBlock(new ceres::AutoDiffCostFunction<TurnedBearingCost, 3, 3, 3, 1, 3>(
                                     new TurnedBearingCost(observation.direction)),
                                 &loss, centre, (*points)[t].data(), scale, turn->data());
      }
      // Lower bound, not zero: a zero scale would satisfy nothing and stall the point.
      problem.SetParameterLowerBound(scale, 0, 1e-5);
      ordering->AddElementToGroup(scale, 0);
    }
    ordering->AddElementToGroup((*points)[t].data(), 1);
  }
  for (const auto& [image_id, prior] : priors) {
    problem.AddResidualBlock(
        new ceres::AutoDiffCostFunction<PriorCost, 3, 3>(new PriorCost(prior, options.prior_weight)),
        &prior_loss, (*centres)[image_id].data());
  }
  for (size_t i = 0; i < used.size(); ++i) {
    if (!used[i]) continue;
    ordering->AddElementToGroup((*centres)[i].data(), 2);
    if (hold_centres) problem.SetParameterBlockConstant((*centres)[i].data());
  }
  if (!priors.empty()) ordering->AddElementToGroup(turn->data(), 2);
  ceres::Solver::Options solver;
  solver.max_num_iterations = options.max_iterations;
  solver.function_tolerance = options.function_tolerance;
  solver.parameter_tolerance = 1e-10;
  solver.num_threads = options.num_threads > 0
                           ? options.num_threads
                           : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  solver.logging_type = ceres::SILENT;
  // The scales eliminated first (group 0), then the points before the centres in the sparse
  // factorisation (groups 1, 2, as GLOMAP orders them): with points and centres in one group the
  // fill-reducing ordering left the linear solver 2.4x slower (500-image flight: 0.86 against
  // 0.36 s an iteration, positioning 60 -> 43 s on 2 cores).
  solver.linear_solver_type = ceres::SPARSE_SCHUR;
  solver.linear_solver_ordering.reset(ordering);
  if (!ceres::IsSparseLinearAlgebraLibraryTypeAvailable(ceres::SUITE_SPARSE)) {
    solver.linear_solver_type = ceres::ITERATIVE_SCHUR;
    solver.preconditioner_type = ceres::SCHUR_JACOBI;
  }
  ceres::Solver::Summary summary;
  ceres::Solve(solver, &problem, &summary);
  return summary;
}

// The similarity from the positioned centres to their priors (RANSAC: fixes within
// prior_loss_scale sigmas are inliers); nullopt when fewer than min_priors agree.
std::optional<Sim3d> AlignToPriors(const GlobalPositioningOptions& options,
                                   const std::vector<Eigen::Vector3d>& centres,
                                   const std::map<int, PositionPrior>& priors) {
  std::vector<Eigen::Vector3d> from, to;
  double sigma = 0;
  for (const auto& [image_id, prior] : priors) {
    from.push_back(centres[image_id]);
    to.push_back(prior.position);
    sigma += prior.sigma.norm() / priors.size();
  }
  RansacOptions ransac;
  ransac.max_error = options.prior_loss_scale * sigma;
  ransac.seed = options.seed;
  const RansacReport<Sim3d> report = EstimateSimilarityTransform(ransac, from, to);
  int num_inliers = 0;
  for (char inlier : report.inlier_mask) num_inliers += inlier;
  if (!report.success || num_inliers < options.min_priors) return std::nullopt;
  return report.model;
}

}  // namespace

GlobalPositioningResult PositionCamerasAndPoints(
    const GlobalPositioningOptions& options, int num_images,
    const std::vector<std::vector<BearingObservation>>& tracks,
    const std::map<int, PositionPrior>& priors, const std::vector<Eigen::Vector3d>& start_centres) {
  options.Check();
  Timer timer;
  GlobalPositioningResult result;
  std::vector<char> used(num_images, 0);
  size_t num_observations = 0;
  for (const auto& track : tracks) {
    num_observations += track.size();
    for (const BearingObservation& observation : track) {
      PROJ_CHECK(observation.image_id >= 0 && observation.image_id < num_images, "bad image id");
      used[observation.image_id] = 1;
    }
  }
  if (std::count(used.begin(), used.end(), 1) < 2) {
    result.message = "fewer than two images observed";
    return result;
  }
  std::mt19937_64 rng(options.seed);
  std::uniform_real_distribution<double> uniform(-options.init_extent, options.init_extent);
  auto random_vector = [&] { return Eigen::Vector3d(uniform(rng), uniform(rng), uniform(rng)); };
  result.centres.assign(num_images, Eigen::Vector3d::Zero());
  for (auto& centre : result.centres) centre = random_vector();
  result.points.resize(tracks.size());
  for (auto& point : result.points) point = random_vector();
  std::vector<double> scales(num_observations, 1.0);  // stable addresses: sized once
  Eigen::Vector3d turn = Eigen::Vector3d::Zero();
  result.num_iterations = 0;
  if (!start_centres.empty()) {
    PROJ_CHECK(static_cast<int>(start_centres.size()) == num_images, "PositionCamerasAndPoints: start per image");
    result.centres = start_centres;
    // Each point where its bearings from the start pass closest (linear, least squares), each
    // scale at its best for that point.
    size_t next_scale = 0;
    for (size_t t = 0; t < tracks.size(); ++t) {
      Eigen::Matrix3d normal = Eigen::Matrix3d::Zero();
      Eigen::Vector3d right = Eigen::Vector3d::Zero();
      for (const BearingObservation& observation : tracks[t]) {
        const Eigen::Matrix3d across = Eigen::Matrix3d::Identity() - observation.direction * observation.direction.transpose();
        normal += across;
        right += across * start_centres[observation.image_id];
      }
      const Eigen::Vector3d& first_centre = start_centres[tracks[t][0].image_id];
      const Eigen::FullPivLU<Eigen::Matrix3d> solver(normal);
      result.points[t] = solver.rcond() > 1e-8 ? Eigen::Vector3d(solver.solve(right))
                                               : Eigen::Vector3d(first_centre + tracks[t][0].direction);
      for (const BearingObservation& observation : tracks[t]) {
        const Eigen::Vector3d offset = result.points[t] - start_centres[observation.image_id];
        const double squared = offset.squaredNorm();
        scales[next_scale++] = squared > 0 ? std::max(1e-5, observation.direction.dot(offset) / squared) : 1.0;
      }
    }
    // Then the points alone by their bearings, the centres held (a small problem per point): the
    // full solve from there took 6-16 iterations on the flights, from the linear points alone 37.
    const ceres::Solver::Summary points_only =
        Solve(options, tracks, {}, used, &result.centres, &result.points, &scales, &turn, true);
    result.num_iterations += static_cast<int>(points_only.iterations.size());
  }
  ceres::Solver::Summary summary = Solve(options, tracks, {}, used, &result.centres, &result.points, &scales, &turn);
  result.num_iterations += static_cast<int>(summary.iterations.size());

  // With priors: into their frame by the similarity that fits most of them, then once more
  // with all of them, the bearings turned with the frame and the turn refined (the similarity
  // fitted some of the fixes only). From the aligned start they move only what the bearings
  // tie weakly, even a part the similarity did not fit.
  const std::map<int, PositionPrior> usable_priors = UsablePriors(options, priors, used);
  std::optional<Sim3d> aligned;
  if (summary.IsSolutionUsable() && !usable_priors.empty()) aligned = AlignToPriors(options, result.centres, usable_priors);
  if (aligned) {
    for (auto& centre : result.centres) centre = *aligned * centre;
    for (auto& point : result.points) point = *aligned * point;
    for (double& scale : scales) scale /= aligned->scale;
    std::vector<std::vector<BearingObservation>> turned = tracks;
    for (auto& track : turned) {
      for (BearingObservation& observation : track) observation.direction = aligned->rotation * observation.direction;
    }
    summary = Solve(options, turned, usable_priors, used, &result.centres, &result.points, &scales, &turn);
    result.num_iterations += static_cast<int>(summary.iterations.size());
    result.used_priors = true;
    const double angle = turn.norm();
    const Eigen::Vector3d axis = angle > 0 ? Eigen::Vector3d(turn / angle) : Eigen::Vector3d::UnitZ();
    result.priors_from_bearings = Eigen::Quaterniond(Eigen::AngleAxisd(angle, axis)) * aligned->rotation;
  }
  result.success = summary.IsSolutionUsable();
  result.message = summary.message;
  result.time_s = timer.ElapsedSeconds();
  return result;
}

std::vector<int> SelectPositioningTracks(const TrackSet& tracks, const std::vector<char>& in_use,
                                         int min_length, int per_image) {
  std::vector<int> length(tracks.tracks.size(), 0);
  std::vector<int> order;
  for (size_t t = 0; t < tracks.tracks.size(); ++t) {
    for (const TrackElement& element : tracks.tracks[t]) length[t] += in_use[element.image_id] ? 1 : 0;
    if (length[t] >= min_length) order.push_back(static_cast<int>(t));
  }
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return length[a] > length[b]; });
  std::vector<int> count(in_use.size(), 0);
  std::vector<int> selected;
  for (int t : order) {
    bool wanted = false;
    for (const TrackElement& element : tracks.tracks[t]) {
      wanted |= in_use[element.image_id] && count[element.image_id] < per_image;
    }
    if (!wanted) continue;
    selected.push_back(t);
    for (const TrackElement& element : tracks.tracks[t]) ++count[element.image_id];
  }
  std::sort(selected.begin(), selected.end());
  return selected;
}

std::vector<BearingObservation> TrackBearings(const Scene& scene,
                                              const std::vector<TrackElement>& track,
                                              const std::vector<Eigen::Quaterniond>& rotations,
                                              const std::vector<char>& in_use) {
  std::vector<BearingObservation> bearings;
  for (const TrackElement& element : track) {
    if (!in_use[element.image_id]) continue;
    const SceneImage& image = scene.images[element.image_id];
    const Eigen::Vector2d n =
        scene.cameras[image.camera_id].PixelToNormalized(image.keypoints[element.keypoint_index]);
    bearings.push_back(
        {element.image_id, rotations[element.image_id].conjugate() * n.homogeneous().normalized()});
  }
  return bearings;
}

}  // namespace proj
