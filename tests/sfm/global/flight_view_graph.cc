#include "tests/sfm/global/flight_view_graph.h"

#include <cmath>
#include <random>
#include <utility>

#include <Eigen/Geometry>

namespace proj::testing {

SyntheticViewGraph MakeFlightViewGraph(const FlightViewGraphOptions& options) {
  std::mt19937_64 rng(options.seed);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::normal_distribution<double> gauss(0.0, 1.0);
  Scene truth;
  truth.cameras.push_back(
      Camera::FromFocal(CameraModelId::kSimpleRadial, options.width, options.height, options.focal_px));
  // Footprint of a nadir image on the ground; lines run along x (the image's long side
  // across the line, as survey planners orient it).
  const double along_m = options.altitude_m * options.height / options.focal_px;
  const double across_m = options.altitude_m * options.width / options.focal_px;
  const double step_m = along_m * (1 - options.forward_overlap);
  const double spacing_m = across_m * (1 - options.side_overlap);
  for (int line = 0; line < options.num_lines; ++line) {
    for (int k = 0; k < options.images_per_line; ++k) {
      // Back and forth: every other line flown the other way, the camera turned with it.
      const bool forward = line % 2 == 0;
      const double x = (forward ? k : options.images_per_line - 1 - k) * step_m;
      const double y = line * spacing_m;
      const double yaw = (forward ? 0 : M_PI) + options.yaw_jitter_deg * M_PI / 180 * unit(rng);
      // Camera frame: z down to the ground, y (image rows) along the flight direction.
      const Eigen::Vector3d heading(std::cos(yaw), std::sin(yaw), 0);
      Eigen::Matrix3d rotation;  // rows: camera axes in world coordinates
      rotation.row(2) = Eigen::Vector3d(0, 0, -1);
      rotation.row(1) = -heading;
      rotation.row(0) = rotation.row(1).cross(rotation.row(2));
      const Eigen::Vector3d centre(x, y, options.altitude_m + 0.5 * unit(rng));
      SceneImage image;
      image.name = "flight_" + std::to_string(truth.images.size()) + ".jpg";
      image.camera_id = 0;
      image.registered = true;
      image.cam_from_world = Rigid3d(Eigen::Quaterniond(rotation), -(rotation * centre));
      const int id = static_cast<int>(truth.images.size());
      truth.position_priors[id].position =
          centre + options.gps_sigma_m * Eigen::Vector3d(gauss(rng), gauss(rng), 2 * gauss(rng));
      truth.position_priors[id].sigma = options.gps_sigma_m * Eigen::Vector3d(1, 1, 2);
      truth.images.push_back(image);
    }
  }
  const double margin_m = across_m / 2;
  const double extent_x = (options.images_per_line - 1) * step_m;
  const double extent_y = (options.num_lines - 1) * spacing_m;
  std::uniform_real_distribution<double> ground_x(-margin_m, extent_x + margin_m);
  std::uniform_real_distribution<double> ground_y(-margin_m, extent_y + margin_m);
  std::normal_distribution<double> noise(0.0, options.noise_px);
  for (int p = 0; p < options.num_points; ++p) {
    const Eigen::Vector3d position(ground_x(rng), ground_y(rng), options.relief_m * unit(rng));
    std::vector<TrackElement> track;
    for (size_t i = 0; i < truth.images.size(); ++i) {
      SceneImage& image = truth.images[i];
      Eigen::Vector2d uv;
      if (!truth.cameras[0].Project(image.cam_from_world * position, &uv)) continue;
      uv += Eigen::Vector2d(noise(rng), noise(rng));
      if (uv.x() < 0 || uv.y() < 0 || uv.x() > options.width || uv.y() > options.height) continue;
      track.push_back({static_cast<int>(i), static_cast<int>(image.keypoints.size())});
      image.keypoints.push_back(uv);
      image.point3d_ids.push_back(kInvalidId);
    }
    if (track.size() >= 2) truth.AddPoint(position, track);
  }
  return VerifyViewGraph(std::move(truth), {options.focal_px});
}

}  // namespace proj::testing
