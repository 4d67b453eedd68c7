#include "sfm/mapper/scene_geometry.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "sfm/mapper/pose_estimation.h"

namespace proj {

double ReprojectionErrorPx(const Scene& scene, int image_id, int keypoint_index,
                           const Eigen::Vector3d& point) {
  const SceneImage& image = scene.images[image_id];
  Eigen::Vector2d uv;
  if (!scene.cameras[image.camera_id].Project(image.cam_from_world * point, &uv)) {
    return std::numeric_limits<double>::infinity();
  }
  return (uv - image.keypoints[keypoint_index]).norm();
}

double MaxTriangulationAngleDeg(const Scene& scene, const Point3D& point) {
  double best = 0;
  const auto& track = point.track;
  for (size_t a = 0; a < track.size(); ++a) {
    const Eigen::Vector3d ca = scene.images[track[a].image_id].cam_from_world.Center();
    for (size_t b = a + 1; b < track.size(); ++b) {
      const Eigen::Vector3d cb = scene.images[track[b].image_id].cam_from_world.Center();
      best = std::max(best, TriangulationAngleDeg(ca, cb, point.position));
    }
  }
  return best;
}

namespace {

// Whether two of the point's observations, from cameras centred at centres[image id], see it
// at least min_angle_deg apart. Stops at the first such pair: most points pass at once.
bool HasTriangulationAngle(const std::vector<Eigen::Vector3d>& centres, const Point3D& point,
                           double min_angle_deg) {
  const auto& track = point.track;
  for (size_t a = 0; a < track.size(); ++a) {
    const Eigen::Vector3d& ca = centres[track[a].image_id];
    for (size_t b = a + 1; b < track.size(); ++b) {
      if (TriangulationAngleDeg(ca, centres[track[b].image_id], point.position) >= min_angle_deg) {
        return true;
      }
    }
  }
  return false;
}

}  // namespace

int FilterPoints(Scene* scene, double max_error_px, double min_angle_deg,
                 const std::vector<int>* point_ids, std::vector<int>* deleted_point_ids) {
  std::vector<int> ids;
  if (point_ids) {
    ids = *point_ids;
  } else {
    ids.reserve(scene->points.size());
    for (const auto& [id, point] : scene->points) ids.push_back(id);
  }
  // Camera centres once, not once per pair of observations of every point.
  std::vector<Eigen::Vector3d> centres(scene->images.size(), Eigen::Vector3d::Zero());
  for (size_t i = 0; i < scene->images.size(); ++i) {
    if (scene->images[i].registered) centres[i] = scene->images[i].cam_from_world.Center();
  }
  int removed = 0;
  std::vector<TrackElement> outliers;
  for (int id : ids) {
    auto it = scene->points.find(id);
    if (it == scene->points.end()) continue;
    outliers.clear();
    for (const auto& element : it->second.track) {
      if (ReprojectionErrorPx(*scene, element.image_id, element.keypoint_index, it->second.position) >
          max_error_px) {
        outliers.push_back(element);
      }
    }
    for (const auto& element : outliers) {
      scene->DeleteObservation(element.image_id, element.keypoint_index);  // may delete point
      ++removed;
    }
    if (!outliers.empty()) it = scene->points.find(id);
    if (it == scene->points.end()) {
      if (deleted_point_ids) deleted_point_ids->push_back(id);
      continue;
    }
    if (!HasTriangulationAngle(centres, it->second, min_angle_deg)) {
      removed += static_cast<int>(it->second.track.size());
      scene->DeletePoint(id);
      if (deleted_point_ids) deleted_point_ids->push_back(id);
    }
  }
  return removed;
}

void UpdatePointErrors(Scene* scene) {
  for (auto& [id, point] : scene->points) {
    double sum = 0;
    for (const auto& element : point.track) {
      sum += ReprojectionErrorPx(*scene, element.image_id, element.keypoint_index, point.position);
    }
    point.mean_error_px = point.track.empty() ? 0 : sum / point.track.size();
  }
}

double MeanReprojectionErrorPx(const Scene& scene) {
  double sum = 0;
  size_t count = 0;
  for (const auto& [id, point] : scene.points) {
    for (const auto& element : point.track) {
      sum += ReprojectionErrorPx(scene, element.image_id, element.keypoint_index, point.position);
      ++count;
    }
  }
  return count ? sum / count : 0.0;
}

double MeanTrackLength(const Scene& scene) {
  size_t observations = 0;
  for (const auto& [id, point] : scene.points) observations += point.track.size();
  return scene.points.empty() ? 0.0 : static_cast<double>(observations) / scene.points.size();
}

}  // namespace proj
