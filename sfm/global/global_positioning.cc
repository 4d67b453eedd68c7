#include "sfm/global/global_positioning.h"

#include <algorithm>
#include <numeric>
#include <random>
#include <thread>

#include <ceres/ceres.h>

#include "core/check.h"
#include "core/timer.h"

namespace proj {

void GlobalPositioningOptions::Check() const {
  PROJ_REQUIRE(loss_scale > 0, "global positioning loss_scale must be > 0");
  PROJ_REQUIRE(init_extent > 0, "global positioning init_extent must be > 0");
  PROJ_REQUIRE(max_iterations > 0, "global positioning max_iterations must be > 0");
  PROJ_REQUIRE(num_threads >= 0, "global positioning num_threads must be >= 0");
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

}  // namespace

GlobalPositioningResult PositionCamerasAndPoints(
    const GlobalPositioningOptions& options, int num_images,
    const std::vector<std::vector<BearingObservation>>& tracks) {
  options.Check();
  Timer timer;
  GlobalPositioningResult result;
  std::mt19937_64 rng(options.seed);
  std::uniform_real_distribution<double> uniform(-options.init_extent, options.init_extent);
  auto random_vector = [&] { return Eigen::Vector3d(uniform(rng), uniform(rng), uniform(rng)); };
  result.centres.assign(num_images, Eigen::Vector3d::Zero());
  for (auto& centre : result.centres) centre = random_vector();
  result.points.resize(tracks.size());
  for (auto& point : result.points) point = random_vector();
  size_t num_observations = 0;
  for (const auto& track : tracks) num_observations += track.size();
  std::vector<double> scales(num_observations, 1.0);  // stable addresses: sized once

  ceres::Problem::Options problem_options;
  problem_options.loss_function_ownership = ceres::DO_NOT_TAKE_OWNERSHIP;
  ceres::Problem problem(problem_options);
  ceres::HuberLoss loss(options.loss_scale);
  auto* ordering = new ceres::ParameterBlockOrdering;
  size_t next_scale = 0;
  std::vector<char> used(num_images, 0);
  for (size_t t = 0; t < tracks.size(); ++t) {
    for (const BearingObservation& observation : tracks[t]) {
      PROJ_CHECK(observation.image_id >= 0 && observation.image_id < num_images, "bad image id");
      double* scale = &scales[next_scale++];
      problem.AddResidualBlock(
          new ceres::AutoDiffCostFunction<BearingCost, 3, 3, 3, 1>(new BearingCost(observation.direction)),
          &loss, result.centres[observation.image_id].data(), result.points[t].data(), scale);
      // Lower bound, not zero: a zero scale would satisfy nothing and stall the point.
      problem.SetParameterLowerBound(scale, 0, 1e-5);
      ordering->AddElementToGroup(scale, 0);
      used[observation.image_id] = 1;
    }
    ordering->AddElementToGroup(result.points[t].data(), 1);
  }
  int num_used = 0;
  for (int i = 0; i < num_images; ++i) {
    if (!used[i]) continue;
    ++num_used;
    ordering->AddElementToGroup(result.centres[i].data(), 1);
  }
  if (num_used < 2) {
    delete ordering;
    result.message = "fewer than two images observed";
    return result;
  }
  ceres::Solver::Options solver;
  solver.max_num_iterations = options.max_iterations;
  solver.function_tolerance = options.function_tolerance;
  solver.parameter_tolerance = 1e-10;
  solver.num_threads = options.num_threads > 0
                           ? options.num_threads
                           : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  solver.logging_type = ceres::SILENT;
  solver.linear_solver_type = ceres::SPARSE_SCHUR;  // the scales are eliminated first
  solver.linear_solver_ordering.reset(ordering);
  if (!ceres::IsSparseLinearAlgebraLibraryTypeAvailable(ceres::SUITE_SPARSE)) {
    solver.linear_solver_type = ceres::ITERATIVE_SCHUR;
    solver.preconditioner_type = ceres::SCHUR_JACOBI;
  }
  ceres::Solver::Summary summary;
  ceres::Solve(solver, &problem, &summary);
  result.success = summary.IsSolutionUsable();
  result.num_iterations = static_cast<int>(summary.iterations.size());
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
