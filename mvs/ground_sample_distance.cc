#include "mvs/ground_sample_distance.h"

#include <algorithm>
#include <vector>

namespace proj::mvs {
namespace {

double Median(std::vector<double>* values) {
  const auto middle = values->begin() + static_cast<std::ptrdiff_t>(values->size() / 2);
  std::nth_element(values->begin(), middle, values->end());
  return *middle;
}

}  // namespace

std::optional<double> GroundSampleDistance(const Scene& scene, int max_image_size_px) {
  std::vector<double> per_image;
  for (const SceneImage& image : scene.images) {
    if (!image.registered) continue;
    std::vector<double> depths;
    for (const int point_id : image.point3d_ids) {
      const auto point = scene.points.find(point_id);
      if (point == scene.points.end()) continue;
      const double depth = (image.cam_from_world * point->second.position).z();
      if (depth > 0) depths.push_back(depth);
    }
    if (depths.empty()) continue;
    const Camera& camera = scene.cameras[image.camera_id];
    const int long_side = std::max(camera.width, camera.height);
    const double scale = max_image_size_px > 0 && long_side > max_image_size_px
                             ? static_cast<double>(max_image_size_px) / long_side
                             : 1.0;
    per_image.push_back(Median(&depths) / (camera.MeanFocal() * scale));
  }
  if (per_image.empty()) return std::nullopt;
  return Median(&per_image);
}

}  // namespace proj::mvs
