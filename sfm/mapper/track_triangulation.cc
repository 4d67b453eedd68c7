#include "sfm/mapper/track_triangulation.h"

#include "sfm/mapper/pose_estimation.h"
#include "sfm/mapper/scene_geometry.h"

namespace proj {

std::optional<Point3D> TriangulateTrack(const Scene& scene, const std::vector<TrackElement>& track,
                                        double max_error_px, double min_angle_deg) {
  std::vector<TrackElement> elements;
  for (const auto& e : track) {
    if (scene.images[e.image_id].registered) elements.push_back(e);
  }
  while (elements.size() >= 2) {
    std::vector<Rigid3d> poses;
    std::vector<Eigen::Vector2d> normalized;
    for (const auto& e : elements) {
      const SceneImage& image = scene.images[e.image_id];
      poses.push_back(image.cam_from_world);
      normalized.push_back(
          scene.cameras[image.camera_id].PixelToNormalized(image.keypoints[e.keypoint_index]));
    }
    const auto position = TriangulateObservations(poses, normalized);
    if (!position) return std::nullopt;
    size_t worst = 0;
    double worst_error = -1;
    for (size_t i = 0; i < elements.size(); ++i) {
      const double error =
          ReprojectionErrorPx(scene, elements[i].image_id, elements[i].keypoint_index, *position);
      if (error > worst_error) {
        worst_error = error;
        worst = i;
      }
    }
    if (worst_error <= max_error_px) {
      Point3D point;
      point.position = *position;
      point.track = std::move(elements);
      if (MaxTriangulationAngleDeg(scene, point) < min_angle_deg) return std::nullopt;
      return point;
    }
    elements.erase(elements.begin() + worst);
  }
  return std::nullopt;
}

int ExtendPoint(const std::vector<TrackElement>& track, int point_id, double max_error_px,
                Scene* scene) {
  const Eigen::Vector3d position = scene->points.at(point_id).position;
  int added = 0;
  for (const auto& e : track) {
    const SceneImage& image = scene->images[e.image_id];
    if (!image.registered || image.point3d_ids[e.keypoint_index] != kInvalidId) continue;
    if (ReprojectionErrorPx(*scene, e.image_id, e.keypoint_index, position) <= max_error_px) {
      scene->AddObservation(point_id, e);
      ++added;
    }
  }
  return added;
}

}  // namespace proj
