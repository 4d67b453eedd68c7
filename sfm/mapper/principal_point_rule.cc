#include "sfm/mapper/principal_point_rule.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <vector>

#include <Eigen/Geometry>

#include "core/logging.h"
#include "core/statistics.h"
#include "sfm/ba/bundle_adjuster.h"

namespace proj {
namespace {

constexpr double kRadToDeg = 180.0 / M_PI;

double AngleDeg(const Eigen::Vector3d& a, const Eigen::Vector3d& b) {
  return std::atan2(a.cross(b).norm(), a.dot(b)) * kRadToDeg;
}

}  // namespace

std::string PrincipalPointEvidence::ToString() const {
  std::ostringstream out;
  out.precision(3);
  out << num_images << " images, " << median_points_per_image << " points per image, viewing spread "
      << viewing_spread_deg << " deg, triangulation angle " << median_triangulation_angle_deg << " deg";
  return out.str();
}

PrincipalPointEvidence MeasurePrincipalPointEvidence(const Scene& scene, int camera_id) {
  PrincipalPointEvidence evidence;
  std::vector<Eigen::Vector3d> axes;
  std::vector<Eigen::Vector3d> centres(scene.images.size());
  std::vector<double> points_per_image;
  std::vector<char> of_camera(scene.images.size(), 0);
  for (size_t i = 0; i < scene.images.size(); ++i) {
    const SceneImage& image = scene.images[i];
    if (!image.registered || image.camera_id != camera_id) continue;
    of_camera[i] = 1;
    const Eigen::Matrix3d world_from_cam = image.cam_from_world.rotation.toRotationMatrix().transpose();
    axes.push_back(world_from_cam.col(2));
    centres[i] = -(world_from_cam * image.cam_from_world.translation);
    const auto seen = std::count_if(image.point3d_ids.begin(), image.point3d_ids.end(),
                                    [](int id) { return id != kInvalidId; });
    points_per_image.push_back(static_cast<double>(seen));
  }
  evidence.num_images = static_cast<int>(axes.size());
  evidence.median_points_per_image = UpperMedian(points_per_image);
  for (size_t a = 0; a < axes.size(); ++a) {
    for (size_t b = a + 1; b < axes.size(); ++b) {
      evidence.viewing_spread_deg = std::max(evidence.viewing_spread_deg, AngleDeg(axes[a], axes[b]));
    }
  }
  // Widest pair of rays of each point seen by the camera (a sample of tracks bounds the cost).
  std::vector<double> angles;
  const size_t stride = std::max<size_t>(1, scene.points.size() / 20000);
  size_t index = 0;
  for (const auto& [id, point] : scene.points) {
    if (index++ % stride != 0) continue;
    std::vector<Eigen::Vector3d> rays;
    bool seen_by_camera = false;
    for (const TrackElement& element : point.track) {
      if (!scene.images[element.image_id].registered) continue;
      if (of_camera[element.image_id]) seen_by_camera = true;
      rays.push_back((point.position - centres[element.image_id]).normalized());
    }
    if (!seen_by_camera || rays.size() < 2) continue;
    double widest = 0;
    for (size_t a = 0; a < rays.size(); ++a) {
      for (size_t b = a + 1; b < rays.size(); ++b) widest = std::max(widest, AngleDeg(rays[a], rays[b]));
    }
    angles.push_back(widest);
  }
  evidence.median_triangulation_angle_deg = UpperMedian(angles);
  return evidence;
}

bool PrincipalPointConstrained(const PrincipalPointEvidence& evidence, const PrincipalPointRule& rule) {
  return evidence.num_images >= rule.min_images &&
         evidence.median_points_per_image >= rule.min_points_per_image &&
         evidence.viewing_spread_deg >= rule.min_viewing_spread_deg &&
         evidence.median_triangulation_angle_deg >= rule.min_triangulation_angle_deg;
}

bool PrincipalPointErrorReducedEnough(double centred_error, double refined_error,
                                      const PrincipalPointRule& rule) {
  return refined_error <= (1 - rule.min_error_reduction) * centred_error;
}

bool PrincipalPointPlausible(const Camera& camera, const PrincipalPointRule& rule) {
  const Eigen::Vector2d offset = camera.PrincipalPoint() - Eigen::Vector2d(camera.width, camera.height) / 2;
  return std::abs(offset.x()) <= rule.max_offset_fraction * camera.width &&
         std::abs(offset.y()) <= rule.max_offset_fraction * camera.height;
}

std::set<int> CamerasWithConstrainedPrincipalPoint(const Scene& scene, const PrincipalPointRule& rule) {
  std::set<int> cameras;
  for (size_t camera_id = 0; camera_id < scene.cameras.size(); ++camera_id) {
    const PrincipalPointEvidence evidence = MeasurePrincipalPointEvidence(scene, static_cast<int>(camera_id));
    if (evidence.num_images == 0) continue;
    const bool constrained = PrincipalPointConstrained(evidence, rule);
    PROJ_LOG(kInfo, "principal point of camera " << camera_id << ": " << evidence.ToString() << " -> "
                                                 << (constrained ? "refined" : "kept at the centre"));
    if (constrained) cameras.insert(static_cast<int>(camera_id));
  }
  return cameras;
}

double MeanPointError(const Scene& scene) {
  double sum = 0;
  for (const auto& [id, point] : scene.points) sum += PointMeanReprojectionError(scene, id);
  return scene.points.empty() ? 0 : sum / static_cast<double>(scene.points.size());
}

}  // namespace proj
