#include "sfm/scene/scene.h"

#include "core/check.h"

namespace proj {

int Scene::NumRegisteredImages() const {
  int count = 0;
  for (const auto& image : images) count += image.registered ? 1 : 0;
  return count;
}

int Scene::AddPoint(const Eigen::Vector3d& position, const std::vector<TrackElement>& track) {
  const int id = next_point_id++;
  Point3D& point = points[id];
  point.position = position;
  for (const auto& element : track) AddObservation(id, element);
  return id;
}

void Scene::AddObservation(int point_id, const TrackElement& element) {
  SceneImage& image = images[element.image_id];
  PROJ_CHECK(image.point3d_ids[element.keypoint_index] == kInvalidId,
             "keypoint " << element.keypoint_index << " of image " << element.image_id
                         << " already observes a point");
  image.point3d_ids[element.keypoint_index] = point_id;
  points.at(point_id).track.push_back(element);
}

void Scene::DeletePoint(int point_id) {
  auto it = points.find(point_id);
  if (it == points.end()) return;
  for (const auto& element : it->second.track) {
    images[element.image_id].point3d_ids[element.keypoint_index] = kInvalidId;
  }
  points.erase(it);
}

void Scene::DeleteObservation(int image_id, int keypoint_index) {
  int& id = images[image_id].point3d_ids[keypoint_index];
  if (id == kInvalidId) return;
  Point3D& point = points.at(id);
  auto& track = point.track;
  for (size_t i = 0; i < track.size(); ++i) {
    if (track[i].image_id == image_id && track[i].keypoint_index == keypoint_index) {
      track.erase(track.begin() + i);
      break;
    }
  }
  const int point_id = id;
  id = kInvalidId;
  if (track.size() < 2) DeletePoint(point_id);
}

}  // namespace proj
