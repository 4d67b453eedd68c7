#include "cuda/ba/ba_types.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

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
  PROJ_REQUIRE(position_prior_centers.size() == position_prior_weights.size() / 3 &&
                   (position_prior_weights.empty() || position_prior_weights.size() == images * 9),
               "BaProblem: position prior arrays must hold 3 and 9 values per image, or none");
  PROJ_REQUIRE(camera_prior_means.size() == camera_prior_weights.size() &&
                   (camera_prior_weights.empty() ||
                    camera_prior_weights.size() == cameras * kBaMaxCameraParams),
               "BaProblem: camera prior arrays must hold " << kBaMaxCameraParams
                                                           << " values per camera each, or none");
  const size_t point_priors = point_prior_points.size();
  PROJ_REQUIRE(point_prior_positions.size() == point_priors * 3 &&
                   point_prior_weights.size() == point_priors * 9,
               "BaProblem: point prior arrays must hold 1, 3 and 9 values per prior");
  std::vector<char> has_prior(point_priors > 0 ? points : 0, 0);  // not for every local adjustment
  for (int p : point_prior_points) {
    PROJ_REQUIRE(p >= 0 && p < static_cast<int>(points), "BaProblem: a point prior has invalid point " << p);
    PROJ_REQUIRE(!has_prior[p], "BaProblem: point " << p << " has two priors");
    has_prior[p] = 1;
  }
  for (const std::vector<double>* values :
       {&position_prior_centers, &position_prior_weights, &camera_prior_means,
        &camera_prior_weights, &point_prior_positions, &point_prior_weights}) {
    for (double v : *values) PROJ_REQUIRE(std::isfinite(v), "BaProblem: a prior value is not finite");
  }
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

BaChunks MakeBaChunks(const BaProblem& problem, const BaLayout& layout) {
  const int num_images = problem.num_images(), num_cameras = problem.num_cameras();
  BaChunks chunks;
  std::vector<int> chunk_cameras;
  chunks.segment_offsets.assign(num_images + num_cameras + 1, 0);
  for (int image = 0; image < num_images; ++image) {
    for (int start = layout.image_offsets[image]; start < layout.image_offsets[image + 1];
         start += kBaChunkSize) {
      chunks.starts.push_back(start);
      chunk_cameras.push_back(problem.image_cameras[image]);
      ++chunks.segment_offsets[image + 1];
      ++chunks.segment_offsets[num_images + problem.image_cameras[image] + 1];
    }
  }
  chunks.starts.push_back(problem.num_observations());
  std::partial_sum(chunks.segment_offsets.begin(), chunks.segment_offsets.end(),
                   chunks.segment_offsets.begin());
  const int num_chunks = chunks.num_chunks();
  chunks.segment_chunks.resize(2 * static_cast<size_t>(num_chunks));
  std::iota(chunks.segment_chunks.begin(), chunks.segment_chunks.begin() + num_chunks, 0);
  std::vector<int> fill(chunks.segment_offsets.begin() + num_images,
                        chunks.segment_offsets.end() - 1);
  for (int chunk = 0; chunk < num_chunks; ++chunk) {
    chunks.segment_chunks[fill[chunk_cameras[chunk]]++] = chunk;
  }
  return chunks;
}

}  // namespace proj::cuda
