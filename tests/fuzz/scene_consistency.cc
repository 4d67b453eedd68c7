#include "tests/fuzz/scene_consistency.h"

#include "core/check.h"
#include "tests/fuzz/fuzz_support.h"

namespace proj::fuzz {

void CheckSceneConsistency(const Scene& scene) {
  const int num_cameras = static_cast<int>(scene.cameras.size());
  const int num_images = static_cast<int>(scene.images.size());
  for (int image_id = 0; image_id < num_images; ++image_id) {
    const SceneImage& image = scene.images[image_id];
    PROJ_CHECK(
        image.camera_id == kInvalidId || (image.camera_id >= 0 && image.camera_id < num_cameras),
        "image " << image_id << " has camera id " << image.camera_id);
    PROJ_CHECK(image.point3d_ids.size() == image.keypoints.size(),
               "image " << image_id << " point id count differs from its keypoint count");
    for (size_t k = 0; k < image.point3d_ids.size(); ++k) {
      const int point_id = image.point3d_ids[k];
      if (point_id == kInvalidId) continue;
      const auto point = scene.points.find(point_id);
      PROJ_CHECK(point != scene.points.end(),
                 "image " << image_id << " observes missing point " << point_id);
    }
  }
  for (const auto& [point_id, point] : scene.points) {
    PROJ_CHECK(point_id >= 0 && point_id < scene.next_point_id,
               "point id " << point_id << " out of range");
    for (const TrackElement& element : point.track) {
      PROJ_CHECK(element.image_id >= 0 && element.image_id < num_images,
                 "point " << point_id << " track names image " << element.image_id);
      const SceneImage& image = scene.images[element.image_id];
      PROJ_CHECK(element.keypoint_index >= 0 &&
                     element.keypoint_index < static_cast<int>(image.keypoints.size()),
                 "point " << point_id << " track names keypoint " << element.keypoint_index);
      PROJ_CHECK(image.point3d_ids[element.keypoint_index] == point_id,
                 "point " << point_id << " track disagrees with image " << element.image_id);
    }
  }
}

void FuzzColmapReader(const uint8_t* data, size_t size, const std::string& ext,
                      Scene (*read)(const std::string& dir)) {
  const std::string names[] = {"cameras" + ext, "images" + ext, "points3D" + ext};
  const char* const name_pointers[] = {names[0].c_str(), names[1].c_str(), names[2].c_str()};
  try {
    CheckSceneConsistency(read(WriteScratchFiles(data, size, name_pointers, 3)));
  } catch (const InputError&) {
  }
}

}  // namespace proj::fuzz
