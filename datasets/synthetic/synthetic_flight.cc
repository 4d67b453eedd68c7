#include "datasets/synthetic/synthetic_flight.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iomanip>

#include <Eigen/Geometry>

#include "core/check.h"
#include "core/logging.h"
#include "core/timer.h"
#include "datasets/synthetic/flight_truth.h"
#include "datasets/synthetic/random.h"
#include "datasets/synthetic/synthetic_gcps.h"
#include "datasets/synthetic/synthetic_scene.h"
#include "geometry/geodesy/vertical_datum.h"
#include "io/atomic_file.h"
#include "io/exif_writer.h"

namespace proj {
namespace {

constexpr double kDegToRad = 3.14159265358979323846 / 180.0;

double Gaussian(synthetic::Rng* rng) { return rng->Gaussian(); }

// world_from_cam of a camera flying along `heading` (unit, horizontal), tilted `pitch_rad`
// from nadir towards it: x right of the flight direction, y down the image (image top
// forward), z the viewing direction.
Eigen::Matrix3d FlightRotation(const Eigen::Vector3d& heading, double pitch_rad) {
  const Eigen::Vector3d up = Eigen::Vector3d::UnitZ();
  const Eigen::Vector3d x = heading.cross(up).normalized();
  const Eigen::Vector3d z = (std::cos(pitch_rad) * -up + std::sin(pitch_rad) * heading).normalized();
  Eigen::Matrix3d R;
  R.col(0) = x;
  R.col(1) = z.cross(x);
  R.col(2) = z;
  return R;
}

}  // namespace

void SyntheticFlightOptions::Check() const {
  world.Check();
  PROJ_REQUIRE(num_images >= 1 && num_images <= 20000, "--num-images must be in [1, 20000]");
  PROJ_REQUIRE(width >= 16 && width <= 16384 && height >= 16 && height <= 16384,
               "--width/--height must be in [16, 16384]");
  PROJ_REQUIRE(focal_px > 0 && std::isfinite(focal_px), "SyntheticFlightOptions.focal_px must be > 0");
  PROJ_REQUIRE(radial_k1 > -0.25 && radial_k1 < 0.25, "--radial-k1 must be in (-0.25, 0.25) (got " << radial_k1 << ")");
  PROJ_REQUIRE(altitude_m > world.relief_m + world.max_building_height_m + 5,
               "--altitude-m must clear the terrain and buildings (> "
                   << world.relief_m + world.max_building_height_m + 5 << " m)");
  PROJ_REQUIRE(forward_overlap >= 0 && forward_overlap < 0.95 && side_overlap >= 0 && side_overlap < 0.95,
               "overlaps must be in [0, 0.95)");
  PROJ_REQUIRE(num_gcps >= 0 && num_gcps <= 100, "--gcps must be in [0, 100]");
  PROJ_REQUIRE(pitch_deg >= 0 && pitch_deg <= 60, "--pitch-deg must be in [0, 60]");
  PROJ_REQUIRE(attitude_jitter_deg >= 0 && attitude_jitter_deg <= 10,
               "SyntheticFlightOptions.attitude_jitter_deg must be in [0, 10]");
  PROJ_REQUIRE(gps_horizontal_std_m >= 0 && gps_vertical_std_m >= 0, "GPS noise must be >= 0");
  PROJ_REQUIRE(IsValidWgs84({origin.ref_latitude_deg, origin.ref_longitude_deg, origin.ref_altitude_m}) &&
                   std::abs(origin.ref_latitude_deg) < 80,
               "the flight origin must be a WGS84 position below 80 degrees of latitude");
  PROJ_REQUIRE(jpeg_quality >= 1 && jpeg_quality <= 100, "jpeg_quality must be in [1, 100]");
  PROJ_REQUIRE(shot_interval_s > 0 && turn_s >= 0, "capture intervals must be positive");
  PROJ_REQUIRE(truth_cell_m >= 0 && std::isfinite(truth_cell_m), "--truth-cell-m must be >= 0");
}

std::vector<SyntheticFlightShot> PlanSyntheticFlight(const SyntheticFlightOptions& options) {
  options.Check();
  // Nadir footprint: across track (image x) and along track (image y).
  const double across_m = options.width / options.focal_px * options.altitude_m;
  const double along_m = options.height / options.focal_px * options.altitude_m;
  const double step_m = (1 - options.forward_overlap) * along_m;
  const double line_spacing_m = (1 - options.side_overlap) * across_m;
  // About as long as wide: lines * spacing ~ shots per line * step.
  const int num_lines = std::max(1, static_cast<int>(std::lround(
                                        std::sqrt(options.num_images * step_m / line_spacing_m))));
  const int per_line = (options.num_images + num_lines - 1) / num_lines;
  const double x0 = -0.5 * (num_lines - 1) * line_spacing_m;
  const double y0 = -0.5 * (per_line - 1) * step_m;

  synthetic::Rng rng(synthetic::SubSeed(options.seed, 77));
  const LocalEnuConverter enu(options.origin);
  const HeightConverter heights;
  const bool sea_level = options.gps_altitude_datum == VerticalDatum::kEgm96 && heights.available();
  if (options.gps_altitude_datum == VerticalDatum::kEgm96 && !heights.available()) {
    PROJ_LOG(kWarning, "synthetic flight: " << MissingGeoidGridMessage()
                                            << ": altitudes are written as ellipsoidal heights "
                                               "(GPSAltitudeRef 2)");
  }
  constexpr double kFirstCaptureTime = 1782900000;  // 2026-07-01 10:00:00
  std::vector<SyntheticFlightShot> shots;
  // Its own stream: the flight and the other fixes' noise are those of the flight without it.
  synthetic::Rng drift_rng(synthetic::SubSeed(options.seed, 78));
  double altitude_drift_m = 0;
  for (int i = 0; i < options.num_images; ++i) {
    const int line = i / per_line, k = i % per_line;
    const bool northward = line % 2 == 0;
    const double y = northward ? y0 + k * step_m : y0 + (per_line - 1 - k) * step_m;
    const Eigen::Vector3d heading(0, northward ? 1 : -1, 0);
    SyntheticFlightShot shot;
    shot.name = SyntheticImageName(i);
    StrechaCamera& camera = shot.camera;
    camera.width = options.width;
    camera.height = options.height;
    camera.K << options.focal_px, 0, 0.5 * options.width, 0, options.focal_px, 0.5 * options.height, 0, 0, 1;
    camera.distortion = Eigen::Vector3d(options.radial_k1, 0, 0);
    camera.C = Eigen::Vector3d(x0 + line * line_spacing_m + 0.5 * Gaussian(&rng),
                               y + 0.5 * Gaussian(&rng), options.altitude_m + 0.7 * Gaussian(&rng));
    const double jitter = options.attitude_jitter_deg * kDegToRad;
    const Eigen::Matrix3d wobble =
        (Eigen::AngleAxisd(jitter * rng.Uniform(-1, 1), Eigen::Vector3d::UnitZ()) *
         Eigen::AngleAxisd(jitter * rng.Uniform(-1, 1), Eigen::Vector3d::UnitX()) *
         Eigen::AngleAxisd(jitter * rng.Uniform(-1, 1), Eigen::Vector3d::UnitY()))
            .toRotationMatrix();
    camera.R = wobble * FlightRotation(heading, options.pitch_deg * kDegToRad);

    Eigen::Vector3d measured = camera.C + Eigen::Vector3d(options.gps_horizontal_std_m * Gaussian(&rng),
                                                          options.gps_horizontal_std_m * Gaussian(&rng),
                                                          options.gps_vertical_std_m * Gaussian(&rng));
    if (options.gps_fault == GpsFault::kJump && i == options.num_images / 2) measured += Eigen::Vector3d(400, -150, 0);
    if (options.gps_fault == GpsFault::kAltitude && i == options.num_images / 3) measured.z() += 150;
    if (options.gps_fault == GpsFault::kAltitudeDrift) {
      altitude_drift_m += kAltitudeDriftStepM * Gaussian(&drift_rng);
      measured.z() += altitude_drift_m;
    }
    if (options.gps_fault == GpsFault::kHover && !shots.empty()) {
      shot.gps = shots.front().gps;
    } else if (!(options.gps_fault == GpsFault::kMissing && i % 7 == 3)) {
      const Wgs84Position wgs84 = enu.Wgs84FromEnu(measured);
      shot.gps = GpsPosition{wgs84.latitude_deg, wgs84.longitude_deg, wgs84.altitude_m, std::nullopt,
                             std::nullopt};
      if (sea_level) {
        shot.gps->altitude_m = heights.Convert(wgs84.latitude_deg, wgs84.longitude_deg, wgs84.altitude_m,
                                               VerticalDatum::kEllipsoid, VerticalDatum::kEgm96);
      } else {
        shot.gps->altitude_reference = GpsAltitudeReference::kEllipsoid;
      }
    }
    if (!options.write_gps) shot.gps.reset();
    shot.capture_time_s = kFirstCaptureTime + i * options.shot_interval_s + line * options.turn_s;
    shots.push_back(std::move(shot));
  }
  if (options.gps_fault == GpsFault::kTimeOffset) {
    for (size_t i = 0; i < shots.size(); ++i) {
      shots[i].gps = shots[std::min(shots.size() - 1, i + kTimeOffsetShots)].gps;
    }
  }
  return shots;
}

double WriteSyntheticFlight(const SyntheticFlightOptions& options, const std::string& out_dir) {
  namespace fs = std::filesystem;
  const std::vector<SyntheticFlightShot> shots = PlanSyntheticFlight(options);
  const std::string images_dir = (fs::path(out_dir) / "images").string();
  const std::string cameras_dir = (fs::path(out_dir) / "gt_dense_cameras").string();
  PrepareSyntheticOutput(out_dir, static_cast<int>(shots.size()));
  // Lay out the buildings of the surveyed area (centres plus the farthest view on the ground).
  Eigen::Vector2d area_min = shots.front().camera.C.head<2>(), area_max = area_min;
  for (const SyntheticFlightShot& shot : shots) {
    area_min = area_min.cwiseMin(shot.camera.C.head<2>());
    area_max = area_max.cwiseMax(shot.camera.C.head<2>());
  }
  const double reach_m = options.altitude_m * (1 + std::tan(std::min(80.0, options.pitch_deg + 40) * kDegToRad));
  const synthetic::TerrainWorld world(options.world, options.seed, area_min.array() - reach_m,
                                      area_max.array() + reach_m);
  ExifData exif;
  exif.make = "Synthetic";
  exif.model = "Survey camera";
  exif.focal_length_35mm = options.focal_px / std::max(options.width, options.height) * 36.0;
  Timer timer;
  for (const SyntheticFlightShot& shot : shots) {
    const Image image = synthetic::RenderTerrainView(world, shot.camera, options.num_threads);
    exif.gps = shot.gps;
    exif.capture_time_s = shot.capture_time_s;
    WriteJpegWithExif((fs::path(images_dir) / shot.name).string(), image, exif, options.jpeg_quality);
    WriteStrechaCamera((fs::path(cameras_dir) / (shot.name + ".camera")).string(), shot.camera);
  }
  const double seconds_per_image = timer.ElapsedSeconds() / shots.size();
  if (options.num_gcps > 0) {
    const std::vector<SyntheticGcp> gcps = PlanSyntheticGcps(world, shots, options.num_gcps);
    WriteSyntheticGcpList(options.origin, gcps, (fs::path(out_dir) / "gcp_list.txt").string());
    PROJ_LOG(kInfo, "synthetic flight: " << gcps.size() << " ground control points in gcp_list.txt");
  }
  if (options.truth_rasters) {
    const double cell_m = options.truth_cell_m > 0 ? options.truth_cell_m : options.altitude_m / options.focal_px;
    const FlightTruthGrid grid = FlightTruthGridOf(shots, cell_m);
    Timer truth_timer;
    WriteFlightTruth(RenderFlightTruth(world, grid, options.altitude_m, options.num_threads), options,
                     (fs::path(out_dir) / "truth").string());
    PROJ_LOG(kInfo, "synthetic flight: true surface model and orthophoto of " << grid.width << "x" << grid.height
                                                                              << " cells of " << cell_m
                                                                              << " m in truth/, "
                                                                              << truth_timer.ElapsedSeconds() << " s");
  }
  WriteFileAtomically((fs::path(out_dir) / "gt_enu_origin.txt").string(), [&](std::ostream& stream) {
    stream << std::setprecision(17) << options.origin.ref_latitude_deg << ' '
           << options.origin.ref_longitude_deg << ' ' << options.origin.ref_altitude_m << '\n';
  });
  PROJ_LOG(kInfo, "synthetic flight: " << shots.size() << " images of " << options.width << "x"
                                       << options.height << " written to '" << out_dir << "', "
                                       << seconds_per_image << " s per image");
  return seconds_per_image;
}

}  // namespace proj
