#include "datasets/synthetic/synthetic_flight.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <map>

#include "core/check.h"
#include "datasets/synthetic/synthetic_gcps.h"
#include "geometry/geodesy/vertical_datum.h"
#include "io/exif.h"
#include "io/image_decode.h"
#include "io/strecha_camera.h"
#include "sfm/gcp/gcp_file.h"
#include "tests/support/test_data.h"

namespace proj {
namespace {

SyntheticFlightOptions SmallFlight() {
  SyntheticFlightOptions options;
  options.num_images = 40;
  options.width = 320;
  options.height = 240;
  options.focal_px = 275;
  return options;
}

// A written fix as a WGS84 position with its height above the ellipsoid (the flight writes
// EGM96 heights, "above sea level", when PROJ's geoid grid is there; ellipsoidal ones else).
Wgs84Position EllipsoidalFix(const GpsPosition& gps) {
  Wgs84Position p{gps.latitude_deg, gps.longitude_deg, gps.altitude_m.value_or(0)};
  if (gps.altitude_reference == GpsAltitudeReference::kSeaLevel) {
    p.altitude_m = HeightConverter().Convert(p.latitude_deg, p.longitude_deg, p.altitude_m,
                                             VerticalDatum::kEgm96, VerticalDatum::kEllipsoid);
  }
  return p;
}

TEST(SyntheticFlight, PlanHasSurveyOverlapAndNoisyGps) {
  const SyntheticFlightOptions options = SmallFlight();
  const std::vector<SyntheticFlightShot> shots = PlanSyntheticFlight(options);
  ASSERT_EQ(shots.size(), 40u);
  // Consecutive shots on a line are (1 - 0.75) of the along-track footprint apart.
  const double along_m = options.height / options.focal_px * options.altitude_m;
  const double step = (shots[2].camera.C - shots[1].camera.C).head<2>().norm();
  EXPECT_NEAR(step, 0.25 * along_m, 2.0);
  const LocalEnuConverter enu(options.origin);
  double horizontal = 0, vertical = 0;
  for (const SyntheticFlightShot& shot : shots) {
    // Nadir: the viewing direction points down.
    EXPECT_LT(shot.camera.R.col(2).z(), -0.99);
    EXPECT_NEAR(shot.camera.C.z(), options.altitude_m, 4.0);
    ASSERT_TRUE(shot.gps && shot.gps->altitude_m);
    const Eigen::Vector3d error = enu.EnuFromWgs84(EllipsoidalFix(*shot.gps)) - shot.camera.C;
    horizontal += error.head<2>().squaredNorm() / 2;
    vertical += error.z() * error.z();
  }
  // RMS noise near the requested 1.5 m horizontal and 3 m vertical.
  EXPECT_NEAR(std::sqrt(horizontal / shots.size()), 1.5, 0.6);
  EXPECT_NEAR(std::sqrt(vertical / shots.size()), 3.0, 1.2);
}

TEST(SyntheticFlight, FixesAreAboveSeaLevelAndTimed) {
  SyntheticFlightOptions options = SmallFlight();
  const std::vector<SyntheticFlightShot> shots = PlanSyntheticFlight(options);
  const HeightConverter geoid;
  const Wgs84Position first{shots[0].gps->latitude_deg, shots[0].gps->longitude_deg,
                            *shots[0].gps->altitude_m};
  if (geoid.available()) {
    // As a DJI drone writes them: the geoid is 28.7 m below the ellipsoid here, so the
    // altitude above sea level is that much more than the ellipsoidal height.
    EXPECT_EQ(shots[0].gps->altitude_reference, GpsAltitudeReference::kSeaLevel);
    EXPECT_NEAR(first.altitude_m - EllipsoidalFix(*shots[0].gps).altitude_m, 28.7, 0.3);
  } else {
    EXPECT_EQ(shots[0].gps->altitude_reference, GpsAltitudeReference::kEllipsoid);
  }
  for (size_t i = 1; i < shots.size(); ++i) {
    EXPECT_GE(shots[i].capture_time_s - shots[i - 1].capture_time_s, options.shot_interval_s) << i;
  }
  options.gps_altitude_datum = VerticalDatum::kEllipsoid;
  const std::vector<SyntheticFlightShot> ellipsoidal = PlanSyntheticFlight(options);
  EXPECT_EQ(ellipsoidal[0].gps->altitude_reference, GpsAltitudeReference::kEllipsoid);
  EXPECT_NEAR(*ellipsoidal[0].gps->altitude_m, EllipsoidalFix(*shots[0].gps).altitude_m, 1e-6);
}

TEST(SyntheticFlight, ObliqueTiltsTowardsTheFlightDirection) {
  SyntheticFlightOptions options = SmallFlight();
  options.pitch_deg = 30;
  options.attitude_jitter_deg = 0;
  const std::vector<SyntheticFlightShot> shots = PlanSyntheticFlight(options);
  const Eigen::Vector3d view = shots[0].camera.R.col(2);
  EXPECT_NEAR(std::acos(-view.z()) * 180 / M_PI, 30, 1e-6);
  const Eigen::Vector3d flight = shots[1].camera.C - shots[0].camera.C;
  EXPECT_GT(view.head<2>().dot(flight.head<2>()), 0);
}

TEST(SyntheticFlight, FaultsAreInjected) {
  SyntheticFlightOptions options = SmallFlight();
  options.gps_fault = GpsFault::kMissing;
  int missing = 0;
  for (const auto& shot : PlanSyntheticFlight(options)) missing += !shot.gps;
  EXPECT_EQ(missing, 6);  // indices 3, 10, 17, 24, 31, 38
  options.gps_fault = GpsFault::kHover;
  const auto hover = PlanSyntheticFlight(options);
  EXPECT_EQ(hover[39].gps->latitude_deg, hover[0].gps->latitude_deg);
  options.gps_fault = GpsFault::kJump;
  const auto jump = PlanSyntheticFlight(options);
  const LocalEnuConverter enu(options.origin);
  const auto at = [&](int i) { return enu.EnuFromWgs84(EllipsoidalFix(*jump[i].gps)); };
  EXPECT_GT((at(20) - jump[20].camera.C).norm(), 300);
  EXPECT_LT((at(21) - jump[21].camera.C).norm(), 20);
}

// The altitude drift: the same flight and horizontal fixes, the heights off by one slow error
// (steps of 0.3 m a shot, metres over the flight) rather than by independent noise.
TEST(SyntheticFlight, AltitudeDriftIsOneSlowErrorOnTheSameFlight) {
  SyntheticFlightOptions options = SmallFlight();
  options.gps_horizontal_std_m = 0;
  options.gps_vertical_std_m = 0;
  const auto plain = PlanSyntheticFlight(options);
  options.gps_fault = GpsFault::kAltitudeDrift;
  const auto drift = PlanSyntheticFlight(options);
  ASSERT_EQ(plain.size(), drift.size());
  const LocalEnuConverter enu(options.origin);
  double lowest = 0, highest = 0, largest_step = 0, previous = 0;
  for (size_t i = 0; i < drift.size(); ++i) {
    EXPECT_EQ(drift[i].camera.C, plain[i].camera.C);
    const Eigen::Vector3d error = enu.EnuFromWgs84(EllipsoidalFix(*drift[i].gps)) - drift[i].camera.C;
    EXPECT_LT(error.head<2>().norm(), 1e-3) << i;
    lowest = std::min(lowest, error.z());
    highest = std::max(highest, error.z());
    largest_step = std::max(largest_step, std::abs(error.z() - previous));
    previous = error.z();
  }
  EXPECT_LT(largest_step, 4 * kAltitudeDriftStepM);  // no jumps
  EXPECT_GT(highest - lowest, 3 * largest_step);      // but far in all
}

TEST(SyntheticFlight, NoGpsLeavesTheFlightAsItIs) {
  SyntheticFlightOptions options = SmallFlight();
  const auto with_gps = PlanSyntheticFlight(options);
  options.write_gps = false;
  const auto without = PlanSyntheticFlight(options);
  ASSERT_EQ(with_gps.size(), without.size());
  for (size_t i = 0; i < without.size(); ++i) {
    EXPECT_FALSE(without[i].gps);
    EXPECT_EQ(without[i].camera.C, with_gps[i].camera.C);
  }
}

TEST(SyntheticFlight, GcpsAreSpreadOnOpenGroundWithExactMarks) {
  const SyntheticFlightOptions options = SmallFlight();
  const auto shots = PlanSyntheticFlight(options);
  const synthetic::TerrainWorld world(options.world, options.seed, Eigen::Vector2d(-300, -300),
                                      Eigen::Vector2d(300, 300));
  const std::vector<SyntheticGcp> gcps = PlanSyntheticGcps(world, shots, 6);
  ASSERT_EQ(gcps.size(), 6u);
  std::map<std::string, const StrechaCamera*> camera_of;
  for (const auto& shot : shots) camera_of[shot.name] = &shot.camera;
  for (size_t i = 0; i < gcps.size(); ++i) {
    const SyntheticGcp& gcp = gcps[i];
    EXPECT_EQ(gcp.name, "gcp" + std::to_string(i + 1));
    EXPECT_NEAR(gcp.world.z(), world.Height(gcp.world.x(), gcp.world.y()), 1e-9);
    EXPECT_GE(gcp.marks.size(), 3u);
    for (const SyntheticGcpMark& mark : gcp.marks) {
      const StrechaCamera& camera = *camera_of.at(mark.image_name);
      const Eigen::Vector3d projected = camera.K * camera.R.transpose() * (gcp.world - camera.C);
      EXPECT_LT((projected.head<2>() / projected.z() - mark.pixel).norm(), 1e-9);
      // Unoccluded: the first surface on the ray is the point.
      EXPECT_NEAR(world.HitDistance(camera.C, gcp.world - camera.C), (gcp.world - camera.C).norm(), 0.05);
    }
    for (size_t j = 0; j < i; ++j) EXPECT_GT((gcp.world - gcps[j].world).head<2>().norm(), 20) << i << " " << j;
  }
  // gcp_list.txt read back through PROJ (an independent path from the writer's UTM) lands on
  // the true points.
  const std::string path = testing::MakeTempDir("synthetic_gcps") + "/gcp_list.txt";
  WriteSyntheticGcpList(options.origin, gcps, path);
  const GcpFile file = ReadGcpFile(path);
  ASSERT_EQ(file.points.size(), gcps.size());
  EXPECT_EQ(file.crs, "EPSG:32615");
  const LocalEnuConverter enu(options.origin);
  for (size_t i = 0; i < gcps.size(); ++i) {
    EXPECT_LT((enu.EnuFromWgs84(file.points[i].wgs84) - gcps[i].world).norm(), 1e-3);
    EXPECT_EQ(file.points[i].observations.size(), gcps[i].marks.size());
  }
}

TEST(SyntheticFlight, WritesImagesWithGpsAndGroundTruth) {
  SyntheticFlightOptions options = SmallFlight();
  options.num_images = 3;
  options.num_threads = 2;
  const std::string dir = testing::MakeTempDir("synthetic_flight");
  std::filesystem::remove_all(dir + "/images");
  const double seconds = WriteSyntheticFlight(options, dir);
  EXPECT_GT(seconds, 0);
  const std::vector<SyntheticFlightShot> shots = PlanSyntheticFlight(options);
  for (const SyntheticFlightShot& shot : shots) {
    const std::string path = dir + "/images/" + shot.name;
    const ExifData exif = ReadExif(path);
    ASSERT_TRUE(exif.gps) << path;
    EXPECT_NEAR(exif.gps->latitude_deg, shot.gps->latitude_deg, 1e-9);
    EXPECT_NEAR(*exif.gps->altitude_m, *shot.gps->altitude_m, 1e-3);
    EXPECT_EQ(exif.gps->altitude_reference, shot.gps->altitude_reference);
    EXPECT_NEAR(exif.capture_time_s.value_or(0), shot.capture_time_s, 1e-3);
    EXPECT_EQ(exif.make, "Synthetic");
    const Image image = ReadImageFile(path);
    EXPECT_EQ(image.width, 320);
    // Textured terrain: not a flat colour.
    int min = 255, max = 0;
    for (uint8_t v : image.data) {
      min = std::min<int>(min, v);
      max = std::max<int>(max, v);
    }
    EXPECT_GT(max - min, 100);
    const StrechaCamera truth = ReadStrechaCamera(dir + "/gt_dense_cameras/" + shot.name + ".camera");
    EXPECT_LT((truth.C - shot.camera.C).norm(), 1e-9);
  }
  EXPECT_TRUE(std::filesystem::exists(dir + "/gt_enu_origin.txt"));
  EXPECT_TRUE(std::filesystem::exists(dir + "/gcp_list.txt"));
}

TEST(SyntheticFlight, RejectsBadOptions) {
  SyntheticFlightOptions options = SmallFlight();
  options.altitude_m = 10;  // below the buildings
  EXPECT_THROW(PlanSyntheticFlight(options), InputError);
  options = SmallFlight();
  options.pitch_deg = 75;
  EXPECT_THROW(PlanSyntheticFlight(options), InputError);
}

}  // namespace
}  // namespace proj
