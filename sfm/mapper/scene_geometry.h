// Small geometric queries on a Scene shared by the mapper stages.
#pragma once

#include <vector>

#include <Eigen/Core>

#include "sfm/scene/scene.h"

namespace proj {

// Reprojection error in pixels of a point in one image; +inf when behind the camera.
double ReprojectionErrorPx(const Scene& scene, int image_id, int keypoint_index,
                           const Eigen::Vector3d& point);

// Largest angle (degrees) between the rays of any two observations of the point.
double MaxTriangulationAngleDeg(const Scene& scene, const Point3D& point);

// Removes observations with reprojection error above max_error_px, then points left with
// fewer than two observations or a largest triangulation angle below min_angle_deg. Only the
// points in `point_ids` are checked when it is non-null. Returns observations removed; the ids
// of the points deleted are appended to `deleted_point_ids` when it is non-null.
int FilterPoints(Scene* scene, double max_error_px, double min_angle_deg,
                 const std::vector<int>* point_ids = nullptr,
                 std::vector<int>* deleted_point_ids = nullptr);

// Recomputes every point's mean reprojection error.
void UpdatePointErrors(Scene* scene);

// Mean reprojection error over all observations (pixels), mean track length.
double MeanReprojectionErrorPx(const Scene& scene);
double MeanTrackLength(const Scene& scene);

}  // namespace proj
