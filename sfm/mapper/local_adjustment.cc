#include "sfm/mapper/local_adjustment.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace proj {

void LimitConstantPoseImages(const Scene& scene, int max_images, BundleAdjustmentConfig* config) {
  if (static_cast<int>(config->constant_pose_image_ids.size()) <= max_images) return;
  std::vector<std::pair<int, int>> ranked;  // (image, variable points it observes)
  for (int image_id : config->constant_pose_image_ids) {
    int count = 0;
    for (int point_id : scene.images[image_id].point3d_ids) {
      if (point_id != kInvalidId && config->variable_point_ids.count(point_id)) ++count;
    }
    ranked.emplace_back(image_id, count);
  }
  // constant_pose_image_ids is ordered by id, so a stable sort breaks ties by lower id.
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  ranked.resize(std::max(0, max_images));
  config->constant_pose_image_ids.clear();
  for (const auto& [image_id, count] : ranked) config->constant_pose_image_ids.insert(image_id);

  for (auto it = config->variable_point_ids.begin(); it != config->variable_point_ids.end();) {
    int observations = 0;
    for (const TrackElement& element : scene.points.at(*it).track) {
      if (config->variable_image_ids.count(element.image_id) ||
          config->constant_pose_image_ids.count(element.image_id)) {
        ++observations;
      }
    }
    it = observations >= 2 ? std::next(it) : config->variable_point_ids.erase(it);
  }
}

}  // namespace proj
