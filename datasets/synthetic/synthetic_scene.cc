#include "datasets/synthetic/synthetic_scene.h"

#include <cmath>

#include <Eigen/Geometry>

#include "core/check.h"
#include "core/logging.h"
#include "core/timer.h"
#include "datasets/synthetic/random.h"
#include "datasets/synthetic/synthetic_output.h"
#include "datasets/synthetic/synthetic_renderer.h"

namespace proj {
namespace {

using synthetic::Rng;
using synthetic::SubSeed;

constexpr double kPi = 3.14159265358979323846;
constexpr double kDegToRad = kPi / 180.0;
constexpr double kRadiusJitter = 0.07;  // ring cameras: distance within +-7% of ring_radius_m

// Camera at `center` looking at `target`, image x axis horizontal (world z up) before
// rolling by `roll_rad` about the viewing direction.
StrechaCamera LookAtCamera(const Eigen::Vector3d& center, const Eigen::Vector3d& target, double roll_rad,
                           const SyntheticSceneOptions& options) {
  const Eigen::Vector3d forward = (target - center).normalized();
  Eigen::Vector3d right = forward.cross(Eigen::Vector3d::UnitZ()).normalized();
  Eigen::Vector3d down = forward.cross(right);
  right = std::cos(roll_rad) * right + std::sin(roll_rad) * down;
  down = forward.cross(right);
  StrechaCamera camera;
  camera.R.col(0) = right;
  camera.R.col(1) = down;
  camera.R.col(2) = forward;
  camera.C = center;
  camera.K << options.focal_px, 0, options.width / 2.0, 0, options.focal_px, options.height / 2.0, 0, 0, 1;
  camera.width = options.width;
  camera.height = options.height;
  return camera;
}

Eigen::Vector3d OnSphere(const Eigen::Vector3d& target, double radius, double azimuth_rad,
                         double elevation_rad) {
  return target + radius * Eigen::Vector3d(std::cos(elevation_rad) * std::cos(azimuth_rad),
                                           std::cos(elevation_rad) * std::sin(azimuth_rad),
                                           std::sin(elevation_rad));
}

std::vector<StrechaCamera> RingCameras(const SyntheticSceneOptions& options) {
  Rng rng(SubSeed(options.seed, 2));
  const int n = options.num_images;
  const bool closed = options.ring_arc_deg >= 360.0 - 1e-9;
  const double step = closed ? options.ring_arc_deg / n : (n > 1 ? options.ring_arc_deg / (n - 1) : 0.0);
  const double start = rng.Uniform(0, 360);
  std::vector<StrechaCamera> cameras;
  for (int i = 0; i < n; ++i) {
    const double azimuth = start + i * step + rng.Uniform(-0.15, 0.15) * step;
    const double elevation = rng.Uniform(options.min_elevation_deg, options.max_elevation_deg);
    const double radius = options.ring_radius_m * rng.Uniform(1 - kRadiusJitter, 1 + kRadiusJitter);
    const Eigen::Vector3d target = synthetic::SyntheticWorld::Center() +
                                   Eigen::Vector3d(rng.Uniform(-0.4, 0.4), rng.Uniform(-0.4, 0.4),
                                                   rng.Uniform(-0.2, 0.3));
    const double roll = rng.Uniform(-3, 3) * kDegToRad;
    cameras.push_back(LookAtCamera(OnSphere(target, radius, azimuth * kDegToRad, elevation * kDegToRad),
                                   target, roll, options));
  }
  return cameras;
}

std::vector<StrechaCamera> SequenceCameras(const SyntheticSceneOptions& options) {
  Rng rng(SubSeed(options.seed, 3));
  const double start = rng.Uniform(0, 360);
  double phase[4];
  for (double& p : phase) p = rng.Uniform(0, 2 * kPi);
  const double mid_elevation = 0.5 * (options.min_elevation_deg + options.max_elevation_deg);
  const double elevation_swing = 0.35 * (options.max_elevation_deg - options.min_elevation_deg);
  std::vector<StrechaCamera> cameras;
  const int n = options.num_frames;
  for (int i = 0; i < n; ++i) {
    // Smooth functions of the path parameter s in [0, 1].
    const double s = n > 1 ? static_cast<double>(i) / (n - 1) : 0.0;
    const double azimuth = start + options.sequence_arc_deg * s;
    const double elevation = mid_elevation + elevation_swing * std::sin(1.5 * kPi * s + phase[0]);
    const double radius = options.ring_radius_m * (1 + 0.05 * std::sin(2 * kPi * s + phase[1]));
    const Eigen::Vector3d target = synthetic::SyntheticWorld::Center() +
                                   Eigen::Vector3d(0.4 * std::sin(kPi * s + phase[2]),
                                                   0.4 * std::cos(kPi * s + phase[2]), 0.0);
    const double roll = 2.0 * kDegToRad * std::sin(2 * kPi * s + phase[3]);
    cameras.push_back(LookAtCamera(OnSphere(target, radius, azimuth * kDegToRad, elevation * kDegToRad),
                                   target, roll, options));
  }
  return cameras;
}

}  // namespace

void SyntheticSceneOptions::Check() const {
  world.Check();
  PROJ_REQUIRE(num_images >= 1 && num_images <= 10000, "SyntheticSceneOptions.num_images must be in [1, 10000]");
  PROJ_REQUIRE(num_frames >= 1 && num_frames <= 10000, "SyntheticSceneOptions.num_frames must be in [1, 10000]");
  PROJ_REQUIRE(width >= 16 && width <= 16384 && height >= 16 && height <= 16384,
               "SyntheticSceneOptions.width/height must be in [16, 16384]");
  PROJ_REQUIRE(focal_px > 0 && std::isfinite(focal_px), "SyntheticSceneOptions.focal_px must be > 0");
  PROJ_REQUIRE(ring_arc_deg > 0 && ring_arc_deg <= 360, "SyntheticSceneOptions.ring_arc_deg must be in (0, 360]");
  PROJ_REQUIRE(sequence_arc_deg >= 0 && sequence_arc_deg <= 360,
               "SyntheticSceneOptions.sequence_arc_deg must be in [0, 360]");
  PROJ_REQUIRE(min_elevation_deg >= 5 && max_elevation_deg <= 70 && min_elevation_deg <= max_elevation_deg,
               "SyntheticSceneOptions.min/max_elevation_deg must satisfy 5 <= min <= max <= 70");
  // Cameras stay outside the objects and inside the enclosure.
  const double closest = ring_radius_m * (1 - kRadiusJitter) * std::cos(max_elevation_deg * kDegToRad) - 0.6;
  const double farthest = ring_radius_m * (1 + kRadiusJitter) + 0.6;
  PROJ_REQUIRE(closest > world.object_radius_m + 0.5,
               "SyntheticSceneOptions.ring_radius_m is too small: cameras would stand among the objects "
               "(world.object_radius_m = " << world.object_radius_m << ")");
  PROJ_REQUIRE(farthest < world.enclosure_apothem_m - 0.5,
               "SyntheticSceneOptions.ring_radius_m is too large: cameras would leave the enclosure "
               "(world.enclosure_apothem_m = " << world.enclosure_apothem_m << ")");
  PROJ_REQUIRE(supersampling >= 1 && supersampling <= 8, "SyntheticSceneOptions.supersampling must be in [1, 8]");
  PROJ_REQUIRE(jpeg_quality >= 1 && jpeg_quality <= 100, "SyntheticSceneOptions.jpeg_quality must be in [1, 100]");
}

std::vector<StrechaCamera> MakeSyntheticCameras(const SyntheticSceneOptions& options) {
  options.Check();
  return options.sequence ? SequenceCameras(options) : RingCameras(options);
}

std::vector<SyntheticView> RenderSyntheticScene(const SyntheticSceneOptions& options) {
  const std::vector<StrechaCamera> cameras = MakeSyntheticCameras(options);
  const synthetic::SyntheticWorld world =
      synthetic::BuildSyntheticWorld(options.world, options.seed, options.num_threads);
  std::vector<SyntheticView> views;
  for (size_t i = 0; i < cameras.size(); ++i) {
    SyntheticView view;
    view.name = SyntheticImageName(static_cast<int>(i));
    view.camera = cameras[i];
    view.image = synthetic::RenderView(world, cameras[i], options.supersampling, options.num_threads);
    views.push_back(std::move(view));
  }
  return views;
}

void WriteSyntheticScene(const SyntheticSceneOptions& options, const std::string& out_dir) {
  const std::vector<StrechaCamera> cameras = MakeSyntheticCameras(options);
  Timer timer;
  const synthetic::SyntheticWorld world =
      synthetic::BuildSyntheticWorld(options.world, options.seed, options.num_threads);
  PROJ_LOG(kInfo, "synthetic world: " << world.boxes().size() << " objects, " << world.textures().size()
                                      << " textures, built in " << timer.ElapsedSeconds() << " s");
  WriteSyntheticViews(
      cameras,
      [&](int i) { return synthetic::RenderView(world, cameras[i], options.supersampling, options.num_threads); },
      [&](int i) { return synthetic::RenderDepth(world, cameras[i], options.num_threads); }, options.jpeg_quality,
      out_dir);
}

}  // namespace proj
