// A picture of a reconstruction, drawn on the CPU: the 3D points as z-buffered splats in
// their colours and each registered camera as a frustum of lines (apex at the camera centre,
// base the image rectangle at a fixed depth). No GPU or OpenGL; thread-compatible.
#pragma once

#include <array>

#include "io/image.h"
#include "sfm/render/render_view.h"
#include "sfm/render/zbuffer_canvas.h"
#include "sfm/scene/scene.h"

namespace proj {

struct RenderStyle {
  double point_size_px = 2;  // splat diameter, in (0, 64]
  bool draw_cameras = true;
  Rgb8 background = {24, 26, 31};
  Rgb8 camera_color = {235, 64, 52};
  // Depth of a frustum's base as a share of the viewer's distance to its target.
  double frustum_depth_share = 0.04;

  void Check() const;  // throws InputError naming the field
};

// RGB image of view.width_px x view.height_px.
Image RenderScene(const Scene& scene, const RenderView& view, const RenderStyle& style);

// World coordinates of the image corners (top-left, top-right, bottom-right, bottom-left)
// seen at `depth` in front of a registered image's camera, the base of its frustum. False
// when the image has no usable camera.
bool FrustumCorners(const Scene& scene, const SceneImage& image, double depth,
                    std::array<Eigen::Vector3d, 4>* corners);

}  // namespace proj
