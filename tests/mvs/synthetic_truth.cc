#include "tests/mvs/synthetic_truth.h"

#include <cmath>
#include <map>
#include <memory>
#include <mutex>
#include <utility>

#include "datasets/synthetic/synthetic_renderer.h"
#include "datasets/synthetic/synthetic_scene.h"
#include "tests/mvs/synthetic_stereo.h"

namespace proj::testing {
namespace {

std::unique_ptr<SyntheticTruth> MakeTruth(int width, int height) {
  SyntheticSceneOptions options;
  options.focal_px *= static_cast<double>(width) / options.width;
  options.width = width;
  options.height = height;
  const std::vector<StrechaCamera> cameras = MakeSyntheticCameras(options);
  auto truth = std::make_unique<SyntheticTruth>(SyntheticTruth{
      synthetic::BuildSyntheticWorld(options.world, options.seed, /*num_threads=*/0), {}, {}, {}, {}});
  const int n = static_cast<int>(cameras.size());
  for (int i = 0; i < n; ++i) {
    FloatRaster normals;
    FloatRaster depth = synthetic::RenderDepth(truth->world, cameras[i], 0, nullptr, &normals);
    truth->views.push_back(ViewGeometryOf(cameras[i]));
    truth->depths.emplace_back(std::move(depth));
    truth->normals.emplace_back(std::move(normals));
    truth->neighbours.push_back({(i + n - 2) % n, (i + n - 1) % n, (i + 1) % n, (i + 2) % n});
  }
  return truth;
}

}  // namespace

const SyntheticTruth& SyntheticRingTruth(int width, int height) {
  static std::mutex mutex;
  static std::map<std::pair<int, int>, std::unique_ptr<SyntheticTruth>> cache;
  std::lock_guard<std::mutex> lock(mutex);
  std::unique_ptr<SyntheticTruth>& truth = cache[{width, height}];
  if (!truth) truth = MakeTruth(width, height);
  return *truth;
}

int CountViewsSeeing(const SyntheticTruth& truth, const std::vector<int>& candidates,
                     const Eigen::Vector3d& point) {
  int count = 0;
  for (int j : candidates) {
    const mvs::ViewGeometry& view = truth.views[j];
    const Eigen::Vector3d in_camera = view.CamFromWorld(point);
    if (!(in_camera.z() > 0)) continue;
    const Eigen::Vector2d uv = view.camera.Project(in_camera);
    if (!(uv.x() >= 0 && uv.y() >= 0 && uv.x() < view.camera.width && uv.y() < view.camera.height)) continue;
    synthetic::SurfaceHit hit;
    // The ray reaches `point` at t = 1; a hit clearly before it is an occluder.
    const bool hidden = truth.world.Intersect({view.Center(), point - view.Center()}, &hit) && hit.t < 1 - 1e-4;
    count += !hidden;
  }
  return count;
}

bool ConfirmablePixel(const SyntheticTruth& truth, int view, int x, int y, int min_views,
                      double max_grazing_angle_deg) {
  const double depth = truth.depths[view].At(x, y);
  if (!(depth > 0)) return false;
  const mvs::PinholeCamera& camera = truth.views[view].camera;
  const Eigen::Vector3d ray = camera.PointAtPixel(x, y, 1.0).normalized();
  const double cos_angle = -truth.normals[view].At(x, y).cast<double>().dot(ray);
  if (cos_angle < std::cos(max_grazing_angle_deg * M_PI / 180)) return false;
  const Eigen::Vector3d point = truth.views[view].WorldFromCam(camera.PointAtPixel(x, y, depth));
  return CountViewsSeeing(truth, truth.neighbours[view], point) >= min_views;
}

}  // namespace proj::testing
