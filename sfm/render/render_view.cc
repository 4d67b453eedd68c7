#include "sfm/render/render_view.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include <Eigen/Geometry>

#include "core/check.h"

namespace proj {
namespace {

constexpr double kPi = 3.14159265358979323846;
// Share of the half-frame the framed points may fill, so they do not touch the border.
constexpr double kFrameFill = 0.92;

// The value below which `fraction` of `values` lie (values are reordered).
double Percentile(std::vector<double>* values, double fraction) {
  PROJ_CHECK(!values->empty(), "percentile of nothing");
  const size_t index = std::min(values->size() - 1,
                                static_cast<size_t>(fraction * (values->size() - 1) + 0.5));
  std::nth_element(values->begin(), values->begin() + index, values->end());
  return (*values)[index];
}

Eigen::Vector3d RobustCentre(const Scene& scene) {
  std::vector<double> coordinates[3];
  for (const auto& [id, point] : scene.points) {
    for (int axis = 0; axis < 3; ++axis) coordinates[axis].push_back(point.position[axis]);
  }
  Eigen::Vector3d centre = Eigen::Vector3d::Zero();
  if (!coordinates[0].empty()) {
    for (int axis = 0; axis < 3; ++axis) centre[axis] = Percentile(&coordinates[axis], 0.5);
    return centre;
  }
  int count = 0;
  for (const auto& image : scene.images) {
    if (!image.registered) continue;
    centre += image.cam_from_world.Center();
    ++count;
  }
  return count > 0 ? Eigen::Vector3d(centre / count) : centre;
}

// Any unit vector perpendicular to `v`.
Eigen::Vector3d Perpendicular(const Eigen::Vector3d& v) {
  const Eigen::Vector3d axis =
      std::abs(v.x()) < 0.9 ? Eigen::Vector3d::UnitX() : Eigen::Vector3d::UnitY();
  return v.cross(axis).normalized();
}

}  // namespace

void ViewOptions::Check() const {
  PROJ_REQUIRE(width_px >= 16 && width_px <= 16384, "render width must be 16..16384 px, not " << width_px);
  PROJ_REQUIRE(height_px >= 16 && height_px <= 16384, "render height must be 16..16384 px, not " << height_px);
  PROJ_REQUIRE(vertical_fov_deg > 1 && vertical_fov_deg < 150,
               "vertical field of view must be in (1, 150) degrees, not " << vertical_fov_deg);
  PROJ_REQUIRE(std::isfinite(azimuth_deg), "azimuth must be a number of degrees");
  PROJ_REQUIRE(elevation_deg >= -89 && elevation_deg <= 89,
               "elevation must be in [-89, 89] degrees, not " << elevation_deg);
}

bool RenderView::Project(const Eigen::Vector3d& point_world, Eigen::Vector2d* uv,
                         double* depth) const {
  const Eigen::Vector3d p = cam_from_world * point_world;
  // Anything closer than this is behind the near plane.
  if (!(p.z() > 1e-3 * target_distance)) return false;
  *uv = focal_px * p.head<2>() / p.z() + 0.5 * Eigen::Vector2d(width_px, height_px);
  *depth = p.z();
  return true;
}

RenderView AutomaticView(const Scene& scene, const ViewOptions& options) {
  options.Check();
  Eigen::Vector3d target = RobustCentre(scene);

  // The cameras' mean viewing direction and mean image-down axis.
  Eigen::Vector3d forward = Eigen::Vector3d::Zero();
  Eigen::Vector3d down = Eigen::Vector3d::Zero();
  std::vector<Eigen::Vector3d> camera_centres;
  for (const auto& image : scene.images) {
    if (!image.registered) continue;
    const Eigen::Matrix3d world_from_cam = image.cam_from_world.rotation.conjugate().toRotationMatrix();
    forward += world_from_cam.col(2);
    down += world_from_cam.col(1);
    camera_centres.push_back(image.cam_from_world.Center());
  }
  const Eigen::Vector3d up = down.norm() > 1e-6 ? Eigen::Vector3d(-down.normalized())
                                                : Eigen::Vector3d(-Eigen::Vector3d::UnitY());
  // Cameras around the scene looking inwards have no clear mean direction: the viewer then
  // stands on the side of the first camera.
  if (forward.norm() < 0.3 * camera_centres.size() && !camera_centres.empty()) {
    forward = target - camera_centres.front();
  }
  forward -= forward.dot(up) * up;
  forward = forward.norm() < 1e-9 ? Perpendicular(up) : Eigen::Vector3d(forward.normalized());
  const Eigen::Vector3d right = forward.cross(up);

  const double azimuth = options.azimuth_deg * kPi / 180;
  const double elevation = options.elevation_deg * kPi / 180;
  const Eigen::Vector3d view_z =
      (std::cos(elevation) * (std::cos(azimuth) * forward + std::sin(azimuth) * right) -
       std::sin(elevation) * up)
          .normalized();
  const Eigen::Vector3d view_up = (up - up.dot(view_z) * view_z).normalized();
  const Eigen::Vector3d view_x = view_z.cross(view_up);
  Eigen::Matrix3d cam_from_world_rotation;
  cam_from_world_rotation.row(0) = view_x;
  cam_from_world_rotation.row(1) = -view_up;
  cam_from_world_rotation.row(2) = view_z;

  // Look at the middle of the points' 2nd-98th percentile box across the view rather than at
  // their median, so that a lopsided cloud fills the frame.
  std::vector<double> across[2];
  for (const auto& [id, point] : scene.points) {
    const Eigen::Vector3d d = cam_from_world_rotation * (point.position - target);
    across[0].push_back(d.x());
    across[1].push_back(d.y());
  }
  if (!across[0].empty()) {
    Eigen::Vector3d shift = Eigen::Vector3d::Zero();
    for (int axis = 0; axis < 2; ++axis) {
      shift[axis] = 0.5 * (Percentile(&across[axis], 0.02) + Percentile(&across[axis], 0.98));
    }
    target += cam_from_world_rotation.transpose() * shift;
  }

  RenderView view;
  view.width_px = options.width_px;
  view.height_px = options.height_px;
  view.focal_px = 0.5 * options.height_px / std::tan(0.5 * options.vertical_fov_deg * kPi / 180);
  const double tan_x = kFrameFill * 0.5 * options.width_px / view.focal_px;
  const double tan_y = kFrameFill * 0.5 * options.height_px / view.focal_px;
  // How far back the viewer must stand for `p` to be in the frame.
  auto distance_to_fit = [&](const Eigen::Vector3d& p) {
    const Eigen::Vector3d d = cam_from_world_rotation * (p - target);
    return std::max(std::abs(d.x()) / tan_x, std::abs(d.y()) / tan_y) - d.z();
  };
  std::vector<double> point_distances;
  point_distances.reserve(scene.points.size());
  for (const auto& [id, point] : scene.points) point_distances.push_back(distance_to_fit(point.position));
  // 98th percentile of the distances: the 2nd-98th percentile of a roughly symmetric cloud.
  double distance = point_distances.empty() ? 0 : Percentile(&point_distances, 0.98);
  for (const auto& centre : camera_centres) distance = std::max(distance, distance_to_fit(centre));
  if (!(distance > 1e-9)) distance = 1;
  view.target_distance = distance;
  const Eigen::Vector3d viewer = target - distance * view_z;
  view.cam_from_world = Rigid3d(cam_from_world_rotation, -(cam_from_world_rotation * viewer));
  return view;
}

}  // namespace proj
