#include "mvs/patch_match.h"

#include <algorithm>
#include <map>

#include "core/check.h"
#include "cuda/mvs/patch_match_gpu.h"
#include "mvs/patch_match_cpu.h"

namespace proj::mvs {
namespace {

cuda::PmCamera ToPmCamera(const PinholeCamera& camera) {
  cuda::PmCamera out;
  out.width = camera.width;
  out.height = camera.height;
  out.fx = static_cast<float>(camera.fx);
  out.fy = static_cast<float>(camera.fy);
  out.cx = static_cast<float>(camera.cx);
  out.cy = static_cast<float>(camera.cy);
  return out;
}

cuda::PmViews ToPmViews(const PatchMatchProblem& problem) {
  cuda::PmViews views;
  const ViewGeometry& ref = problem.reference->geometry;
  views.reference = ToPmCamera(ref.camera);
  views.reference_image = problem.reference->grey.data();
  views.num_sources = static_cast<int>(problem.sources.size());
  for (int s = 0; s < views.num_sources; ++s) {
    const ViewGeometry& src = problem.sources[s]->geometry;
    // source_from_ref = source_from_world * world_from_ref.
    const Eigen::Matrix3d rotation = src.rotation * ref.rotation.transpose();
    const Eigen::Vector3d translation = src.translation - rotation * ref.translation;
    cuda::PmSource& out = views.sources[s];
    out.camera = ToPmCamera(src.camera);
    for (int r = 0; r < 3; ++r) {
      for (int c = 0; c < 3; ++c) out.rotation[r * 3 + c] = static_cast<float>(rotation(r, c));
      out.translation[r] = static_cast<float>(translation[r]);
    }
    views.source_images[s] = problem.sources[s]->grey.data();
  }
  return views;
}

cuda::PmParams ToPmParams(const PatchMatchProblem& problem, const PatchMatchOptions& options) {
  cuda::PmParams params;
  params.window_radius = options.window_radius;
  params.window_step = options.window_step;
  params.sigma_spatial = options.sigma_spatial;
  params.sigma_color = options.sigma_color;
  params.top_k = options.top_k_views;
  params.depth_min = problem.depth_min;
  params.depth_max = problem.depth_max;
  params.seed = cuda::PmHash(options.seed * 0x85ebca6bU + problem.image_seed);
  return params;
}

// One seed per pixel (the nearest, when points share a pixel), inside the image and the
// depth range, written as depth > 0 into an otherwise zero map: how both paths read seeds.
void WriteSeeds(const PatchMatchProblem& problem, DepthMap* depth) {
  std::map<std::pair<int, int>, float> nearest;
  for (const DepthSeed& seed : problem.seeds) {
    if (seed.x < 0 || seed.y < 0 || seed.x >= depth->width() || seed.y >= depth->height()) continue;
    if (!(seed.depth >= problem.depth_min && seed.depth <= problem.depth_max)) continue;
    auto [it, inserted] = nearest.emplace(std::make_pair(seed.x, seed.y), seed.depth);
    if (!inserted) it->second = std::min(it->second, seed.depth);
  }
  for (const auto& [pixel, value] : nearest) depth->At(pixel.first, pixel.second) = value;
}

}  // namespace

void PatchMatchOptions::Check() const {
  PROJ_REQUIRE(window_radius >= 1 && window_radius <= 15, "PatchMatch window radius must be in [1, 15], got "
                                                              << window_radius);
  PROJ_REQUIRE(window_step >= 1 && window_step <= window_radius,
               "PatchMatch window step must be in [1, window radius], got " << window_step);
  PROJ_REQUIRE(sigma_spatial > 0 && sigma_color > 0, "PatchMatch bilateral sigmas must be positive");
  PROJ_REQUIRE(top_k_views >= 1 && top_k_views <= 8, "PatchMatch top-k views must be in [1, 8], got "
                                                         << top_k_views);
  PROJ_REQUIRE(num_iterations >= 1 && num_iterations <= 64,
               "PatchMatch iterations must be in [1, 64], got " << num_iterations);
}

void PatchMatchProblem::Check() const {
  PROJ_CHECK(reference != nullptr, "PatchMatch: no reference view");
  PROJ_CHECK(!sources.empty() && static_cast<int>(sources.size()) <= cuda::kMaxPatchMatchSources,
             "PatchMatch: " << sources.size() << " source views (1.." << cuda::kMaxPatchMatchSources << ")");
  PROJ_CHECK(depth_min > 0 && depth_max > depth_min, "PatchMatch: depth range " << depth_min << ".." << depth_max);
  const auto check_view = [](const DenseView* view) {
    PROJ_CHECK(view != nullptr && view->width() > 0 && view->height() > 0 &&
                   view->grey.size() == static_cast<size_t>(view->width()) * view->height(),
               "PatchMatch: view without a grey image of its camera's size");
  };
  check_view(reference);
  for (const DenseView* source : sources) check_view(source);
}

PatchMatchResult RunPatchMatch(const PatchMatchProblem& problem, const PatchMatchOptions& options,
                               ComputeDevice device, int num_threads) {
  options.Check();
  problem.Check();
  PROJ_CHECK(device != ComputeDevice::kAuto, "RunPatchMatch takes a resolved device");
  const int width = problem.reference->width(), height = problem.reference->height();
  PatchMatchResult result{DepthMap(width, height), NormalMap(width, height), FloatRaster(width, height, 1)};
  WriteSeeds(problem, &result.depth);
  const cuda::PmViews views = ToPmViews(problem);
  const cuda::PmParams params = ToPmParams(problem, options);
  // The maps' storage is the state both paths update in place.
  float* depth = result.depth.data();
  float* normal = result.normals.data();
  float* cost = result.cost.data.data();
  if (device == ComputeDevice::kGpu) {
    cuda::PmGpuTimings timings;
    cuda::RunPatchMatchGpu(views, params, options.num_iterations, depth, normal, cost, &timings);
    result.gpu_sweep_ms = timings.sweep_ms;
  } else {
    RunPatchMatchCpu(views, params, options.num_iterations, cuda::PmState{depth, normal, cost}, num_threads);
  }
  return result;
}

}  // namespace proj::mvs
