#include "sfm/mapper/local_adjustment.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace proj {

void LimitConstantPoseImages(const Scene& scene, int max_images, BundleAdjustmentConfig* config) {
  if (static_cast<int>(config->constant_pose_image_ids.size()) <= max_images) return;
  // Flags by id in vectors, not set lookups: every point of every constant image is tested.
  std::vector<char> variable_point(config->variable_point_ids.empty() ? 0 : *config->variable_point_ids.rbegin() + 1, 0);
  for (int point_id : config->variable_point_ids) variable_point[point_id] = 1;
  std::vector<std::pair<int, int>> ranked;  // (image, variable points it observes)
  for (int image_id : config->constant_pose_image_ids) {
    int count = 0;
    for (int point_id : scene.images[image_id].point3d_ids) {
      if (point_id != kInvalidId && point_id < static_cast<int>(variable_point.size()) && variable_point[point_id]) ++count;
    }
    ranked.emplace_back(image_id, count);
  }
  // constant_pose_image_ids is ordered by id, so a stable sort breaks ties by lower id.
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  ranked.resize(std::max(0, max_images));
  config->constant_pose_image_ids.clear();
  for (const auto& [image_id, count] : ranked) config->constant_pose_image_ids.insert(image_id);

  std::vector<char> adjusted_image(scene.images.size(), 0);  // variable or kept constant
  for (int image_id : config->variable_image_ids) adjusted_image[image_id] = 1;
  for (int image_id : config->constant_pose_image_ids) adjusted_image[image_id] = 1;
  for (auto it = config->variable_point_ids.begin(); it != config->variable_point_ids.end();) {
    int observations = 0;
    for (const TrackElement& element : scene.points.at(*it).track) observations += adjusted_image[element.image_id];
    it = observations >= 2 ? std::next(it) : config->variable_point_ids.erase(it);
  }
}

}  // namespace proj
