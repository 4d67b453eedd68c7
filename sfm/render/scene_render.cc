#include "sfm/render/scene_render.h"

#include "core/check.h"

namespace proj {
namespace {

// Draws the segment a-b, clipped to the part in front of the viewer.
void DrawSegment(const RenderView& view, const Eigen::Vector3d& a_world,
                 const Eigen::Vector3d& b_world, const Rgb8& color, ZBufferCanvas* canvas) {
  Eigen::Vector3d a = view.cam_from_world * a_world;
  Eigen::Vector3d b = view.cam_from_world * b_world;
  const double near = 1e-3 * view.target_distance;
  if (a.z() < near && b.z() < near) return;
  if (a.z() < near) a = b + (near - b.z()) / (a.z() - b.z()) * (a - b);
  if (b.z() < near) b = a + (near - a.z()) / (b.z() - a.z()) * (b - a);
  const Eigen::Vector2d centre(0.5 * view.width_px, 0.5 * view.height_px);
  canvas->Line(view.focal_px * a.head<2>() / a.z() + centre, a.z(),
               view.focal_px * b.head<2>() / b.z() + centre, b.z(), color);
}

void DrawFrustum(const Scene& scene, const SceneImage& image, const RenderView& view,
                 const RenderStyle& style, ZBufferCanvas* canvas) {
  std::array<Eigen::Vector3d, 4> corners;
  if (!FrustumCorners(scene, image, style.frustum_depth_share * view.target_distance, &corners)) return;
  const Eigen::Vector3d apex = image.cam_from_world.Center();
  for (int i = 0; i < 4; ++i) {
    DrawSegment(view, apex, corners[i], style.camera_color, canvas);
    DrawSegment(view, corners[i], corners[(i + 1) % 4], style.camera_color, canvas);
  }
}

}  // namespace

void RenderStyle::Check() const {
  PROJ_REQUIRE(point_size_px > 0 && point_size_px <= 64,
               "point size must be in (0, 64] px, not " << point_size_px);
  PROJ_REQUIRE(frustum_depth_share > 0, "frustum depth share must be > 0");
}

bool FrustumCorners(const Scene& scene, const SceneImage& image, double depth,
                    std::array<Eigen::Vector3d, 4>* corners) {
  if (image.camera_id < 0 || image.camera_id >= static_cast<int>(scene.cameras.size())) return false;
  const Camera& camera = scene.cameras[image.camera_id];
  if (camera.width <= 0 || camera.height <= 0 || camera.params.empty()) return false;
  const Rigid3d world_from_cam = image.cam_from_world.Inverse();
  const std::array<Eigen::Vector2d, 4> corners_px = {
      Eigen::Vector2d(0, 0), Eigen::Vector2d(camera.width, 0),
      Eigen::Vector2d(camera.width, camera.height), Eigen::Vector2d(0, camera.height)};
  for (int i = 0; i < 4; ++i) {
    (*corners)[i] = world_from_cam * (depth * camera.PixelToNormalized(corners_px[i]).homogeneous());
  }
  return true;
}

Image RenderScene(const Scene& scene, const RenderView& view, const RenderStyle& style) {
  style.Check();
  ZBufferCanvas canvas(view.width_px, view.height_px, style.background);
  for (const auto& [id, point] : scene.points) {
    Eigen::Vector2d uv;
    double depth = 0;
    if (!view.Project(point.position, &uv, &depth)) continue;
    canvas.Splat(uv, depth, style.point_size_px, {point.color[0], point.color[1], point.color[2]});
  }
  if (style.draw_cameras) {
    for (const auto& image : scene.images) {
      if (image.registered) DrawFrustum(scene, image, view, style, &canvas);
    }
  }
  return canvas.ToImage();
}

}  // namespace proj
