// A view's z-buffer of a surface model: the model drawn as a height-field mesh (two triangles
// between the centres of every four neighbouring known cells, so a wall is the steep triangles
// between a roof cell and the ground cell beside it) into a depth buffer of the view's pinhole
// camera, often at a reduced size. What the orthophoto tests visibility against.
#pragma once

#include <limits>
#include <vector>

#include <Eigen/Core>

#include "mvs/dense_view.h"
#include "mvs/grid_enu_field.h"
#include "mvs/ground_grid.h"

namespace proj::mvs {

struct DepthBuffer {
  static constexpr float kEmpty = std::numeric_limits<float>::infinity();

  PinholeCamera camera;      // the buffer's camera (pixel centres at + 0.5)
  std::vector<float> depth;  // camera.width * camera.height, camera-frame z; kEmpty where no surface

  explicit DepthBuffer(const PinholeCamera& buffer_camera)
      : camera(buffer_camera), depth(static_cast<size_t>(buffer_camera.width) * buffer_camera.height, kEmpty) {}
  // The nearest surface among the 2 x 2 pixels whose centres surround `pixel` (those inside
  // the buffer): conservative at depth edges, so a point beside a roof edge counts as hidden.
  // kEmpty when none holds a surface.
  float NearestAround(const Eigen::Vector2d& pixel) const;
};

// Draws a triangle of camera-frame vertices (all with z > 0) into the buffer, keeping the
// nearest depth; depth is interpolated perspective-correctly (1/z is affine on the image).
void DrawDepthTriangle(const Eigen::Vector3d& a, const Eigen::Vector3d& b, const Eigen::Vector3d& c,
                       DepthBuffer* buffer);

// Draws the mesh quads whose north-west corner cell lies in columns [col_begin, col_end) and
// rows [row_begin, row_end), as the view `cam_from_world` sees them (world = the model's ENU
// frame). Quads with a corner unknown or behind the camera are left out.
void DrawHeightField(const SurfaceModel& dsm, const GridEnuField& enu, const ViewGeometry& cam_from_world,
                     int col_begin, int col_end, int row_begin, int row_end, DepthBuffer* buffer);

}  // namespace proj::mvs
