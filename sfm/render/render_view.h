// The viewpoint of a picture of a reconstruction: a pinhole viewer (principal point at the
// image centre) and how to choose one automatically.
//
// Automatic view: the viewer looks at the points' robust centre (per-axis median, moved
// across the view to the middle of their 2nd-98th percentiles) from the side the cameras
// look from (their mean viewing direction), raised by `elevation_deg` above
// the cameras' mean horizon (up = minus the mean image-down axis) and turned by
// `azimuth_deg` about that up axis (cameras all around the scene, with no clear mean
// direction: from the first camera's side), far enough back that the 2nd-98th percentile of the
// points and every registered camera centre fit in the frame.
#pragma once

#include "geometry/rigid3.h"
#include "sfm/scene/scene.h"

namespace proj {

struct ViewOptions {
  int width_px = 1200;
  int height_px = 900;
  double vertical_fov_deg = 45;  // in (1, 150)
  double azimuth_deg = 0;        // about the up axis; 0 = along the cameras' mean direction
  double elevation_deg = 20;     // above the horizon, in [-89, 89]

  void Check() const;  // throws InputError naming the field
};

struct RenderView {
  Rigid3d cam_from_world;  // viewer frame as an image's: x right, y down, z forward
  double focal_px = 1;
  int width_px = 0;
  int height_px = 0;
  // Distance from the viewer to the point it looks at, a scale for sizes drawn in the scene.
  double target_distance = 1;

  // Point in the viewer frame -> pixel; false when not in front of the viewer.
  bool Project(const Eigen::Vector3d& point_world, Eigen::Vector2d* uv, double* depth) const;
};

// A model with no points is framed by its cameras, one with neither looks at the origin.
RenderView AutomaticView(const Scene& scene, const ViewOptions& options);

}  // namespace proj
