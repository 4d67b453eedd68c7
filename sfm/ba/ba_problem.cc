#include "sfm/ba/ba_problem.h"

#include <numeric>
#include <vector>

#include "cuda/ba/ba_prior.h"
#include "cuda/ba/ba_residual.h"

namespace proj {

using cuda::BaLayout;
using cuda::BaLoss;
using cuda::BaProblem;
using cuda::kBaMaxCameraParams;
using cuda::kBaPoseStride;

BaLayout MakeBaLayout(const BaProblem& problem) {
  const int num_observations = problem.num_observations();
  BaLayout layout;
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
  // Counting sort by image: stable, linear in the observations.
  layout.order.resize(num_observations);
  std::vector<int> fill(layout.image_offsets.begin(), layout.image_offsets.end() - 1);
  for (int o = 0; o < num_observations; ++o) layout.order[fill[problem.observation_images[o]]++] = o;
  layout.point_positions.resize(num_observations);
  fill.assign(layout.point_offsets.begin(), layout.point_offsets.end() - 1);
  for (int position = 0; position < num_observations; ++position) {
    const int point = problem.observation_points[layout.order[position]];
    layout.point_positions[fill[point]++] = position;
  }
  return layout;
}

double PriorCost(const BaProblem& problem, const double* poses, const double* camera_params,
                 const double* points) {
  double sum = 0;
  if (problem.has_position_priors()) {
    for (int i = 0; i < problem.num_images(); ++i) {
      sum += cuda::PositionPriorCost(&poses[i * kBaPoseStride], &problem.position_prior_centers[3 * i],
                               &problem.position_prior_weights[9 * i]);
    }
  }
  if (problem.has_camera_priors()) {
    for (int k = 0; k < problem.num_cameras() * kBaMaxCameraParams; ++k) {
      sum += cuda::CameraPriorCost(camera_params[k], problem.camera_prior_means[k],
                             problem.camera_prior_weights[k]);
    }
  }
  for (int j = 0; j < problem.num_point_priors(); ++j) {
    sum += cuda::PointPriorCost(&points[3 * problem.point_prior_points[j]], &problem.point_prior_positions[3 * j],
                                &problem.point_prior_weights[9 * j]);
  }
  return sum;
}

bool EvaluateBaCost(const BaProblem& problem, BaLoss loss, double loss_scale_px, double* cost) {
  double sum = 0;
  for (int o = 0; o < problem.num_observations(); ++o) {
    const int image = problem.observation_images[o];
    const int camera = problem.image_cameras[image];
    double c = 0;
    if (!cuda::ObservationCost(problem.camera_models[camera],
                         &problem.camera_params[camera * kBaMaxCameraParams],
                         &problem.poses[image * kBaPoseStride],
                         &problem.points[problem.observation_points[o] * 3],
                         &problem.observations_px[o * 2], loss, loss_scale_px, &c)) {
      return false;
    }
    sum += c;
  }
  *cost = sum + PriorCost(problem, problem.poses.data(), problem.camera_params.data(), problem.points.data());
  return true;
}

}  // namespace proj
