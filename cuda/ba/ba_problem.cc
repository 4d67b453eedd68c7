#include "cuda/ba/ba_problem.h"

#include <algorithm>
#include <numeric>

#include "core/check.h"
#include "cuda/ba/ba_residual.h"

namespace proj::cuda {

void BaProblem::Check() const {
  const size_t cameras = camera_models.size(), images = image_cameras.size();
  const size_t points = point_constant.size(), observations = observation_images.size();
  PROJ_REQUIRE(camera_params.size() == cameras * kBaMaxCameraParams &&
                   camera_constant_mask.size() == cameras,
               "BaProblem: camera arrays differ in size");
  PROJ_REQUIRE(poses.size() == images * kBaPoseStride && pose_constant_mask.size() == images,
               "BaProblem: image arrays differ in size");
  PROJ_REQUIRE(this->points.size() == points * 3, "BaProblem: point arrays differ in size");
  PROJ_REQUIRE(observation_points.size() == observations &&
                   observations_px.size() == observations * 2,
               "BaProblem: observation arrays differ in size");
  auto unused = [](auto) {};
  for (size_t c = 0; c < cameras; ++c) {
    PROJ_REQUIRE(VisitCameraModelHostDevice(camera_models[c], unused),
                 "BaProblem: camera " << c << " has unknown model " << camera_models[c]);
  }
  for (size_t i = 0; i < images; ++i) {
    PROJ_REQUIRE(image_cameras[i] >= 0 && image_cameras[i] < static_cast<int>(cameras),
                 "BaProblem: image " << i << " has invalid camera " << image_cameras[i]);
  }
  for (size_t o = 0; o < observations; ++o) {
    PROJ_REQUIRE(observation_images[o] >= 0 && observation_images[o] < static_cast<int>(images) &&
                     observation_points[o] >= 0 &&
                     observation_points[o] < static_cast<int>(points),
                 "BaProblem: observation " << o << " has an invalid image or point index");
  }
}

void BaSolverOptions::Check() const {
  PROJ_REQUIRE(loss_scale_px > 0, "BaSolverOptions.loss_scale_px must be > 0");
  PROJ_REQUIRE(max_iterations >= 1, "BaSolverOptions.max_iterations must be >= 1");
  PROJ_REQUIRE(function_tolerance >= 0 && gradient_tolerance >= 0 && parameter_tolerance >= 0,
               "BaSolverOptions tolerances must be >= 0");
  PROJ_REQUIRE(initial_trust_region_radius > 0,
               "BaSolverOptions.initial_trust_region_radius must be > 0");
  PROJ_REQUIRE(max_pcg_iterations >= 1, "BaSolverOptions.max_pcg_iterations must be >= 1");
  PROJ_REQUIRE(pcg_relative_tolerance > 0 && pcg_relative_tolerance < 1,
               "BaSolverOptions.pcg_relative_tolerance must be in (0, 1)");
  PROJ_REQUIRE(pcg_eta >= 0 && pcg_eta < 1, "BaSolverOptions.pcg_eta must be in [0, 1)");
  PROJ_REQUIRE(num_threads >= 0, "BaSolverOptions.num_threads must be >= 0");
}

BaLayout MakeBaLayout(const BaProblem& problem) {
  const int num_observations = problem.num_observations();
  BaLayout layout;
  layout.order.resize(num_observations);
  std::iota(layout.order.begin(), layout.order.end(), 0);
  std::stable_sort(layout.order.begin(), layout.order.end(), [&](int a, int b) {
    return problem.observation_images[a] < problem.observation_images[b];
  });
  layout.image_offsets.assign(problem.num_images() + 1, 0);
  layout.point_offsets.assign(problem.num_points() + 1, 0);
  for (int o = 0; o < num_observations; ++o) {
    ++layout.image_offsets[problem.observation_images[o] + 1];
    ++layout.point_offsets[problem.observation_points[o] + 1];
  }
  std::partial_sum(layout.image_offsets.begin(), layout.image_offsets.end(),
                   layout.image_offsets.begin());
  std::partial_sum(layout.point_offsets.begin(), layout.point_offsets.end(),
                   layout.point_offsets.begin());
  layout.point_positions.resize(num_observations);
  std::vector<int> fill(layout.point_offsets.begin(), layout.point_offsets.end() - 1);
  for (int position = 0; position < num_observations; ++position) {
    const int point = problem.observation_points[layout.order[position]];
    layout.point_positions[fill[point]++] = position;
  }
  return layout;
}

bool EvaluateBaCost(const BaProblem& problem, BaLoss loss, double loss_scale_px, double* cost) {
  double sum = 0;
  for (int o = 0; o < problem.num_observations(); ++o) {
    const int image = problem.observation_images[o];
    const int camera = problem.image_cameras[image];
    double c = 0;
    if (!ObservationCost(problem.camera_models[camera],
                         &problem.camera_params[camera * kBaMaxCameraParams],
                         &problem.poses[image * kBaPoseStride],
                         &problem.points[problem.observation_points[o] * 3],
                         &problem.observations_px[o * 2], loss, loss_scale_px, &c)) {
      return false;
    }
    sum += c;
  }
  *cost = sum;
  return true;
}

}  // namespace proj::cuda
