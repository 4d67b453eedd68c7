#include "sfm/stages/gps_priors.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <numeric>
#include <random>

#include "core/check.h"
#include "io/exif.h"
#include "tests/support/test_data.h"

namespace proj {
namespace {

GpsPosition Fix(double latitude, double longitude, std::optional<double> altitude) {
  return GpsPosition{latitude, longitude, altitude, std::nullopt, std::nullopt};
}

TEST(GpsPriors, CovarianceFromAccuracyTags) {
  GpsPriorOptions options;
  GpsPosition fix = Fix(46.8, -92.0, 200.0);
  PosePrior prior = PosePriorFromGps(options, fix);
  EXPECT_EQ(prior.coordinate_system, PosePrior::CoordinateSystem::kWgs84);
  EXPECT_EQ(prior.position, Eigen::Vector3d(46.8, -92.0, 200.0));
  EXPECT_DOUBLE_EQ(prior.position_covariance(0, 0), 9.0);   // default 3 m
  EXPECT_DOUBLE_EQ(prior.position_covariance(2, 2), 36.0);  // twice vertically
  EXPECT_DOUBLE_EQ(prior.position_covariance(0, 1), 0.0);
  fix.dop = 1.5;
  EXPECT_DOUBLE_EQ(PosePriorFromGps(options, fix).position_covariance(1, 1), 9.0);  // 1.5 x 2 m
  fix.horizontal_error_m = 0.5;  // stated accuracy wins over the DOP
  EXPECT_DOUBLE_EQ(PosePriorFromGps(options, fix).position_covariance(1, 1), 0.25);
  prior = PosePriorFromGps(options, Fix(46.8, -92.0, std::nullopt));
  EXPECT_EQ(prior.position.z(), 0);
  EXPECT_DOUBLE_EQ(prior.position_covariance(2, 2), 1e6);
}

TEST(GpsPriors, RealDroneJpegGivesAPrior) {
  PROJ_REQUIRE_SHARED_DATASET(path, "drone/brighton_beach/images/DJI_0018.JPG");
  const ExifData exif = ReadExif(path);
  ASSERT_TRUE(exif.gps);
  const PosePrior prior = PosePriorFromGps(GpsPriorOptions(), *exif.gps);
  EXPECT_NEAR(prior.position.x(), 46.8426, 1e-3);
  EXPECT_NEAR(prior.position.y(), -91.9945, 1e-3);
  EXPECT_NEAR(prior.position.z(), 198.309, 1e-3);
}

// A lawnmower flight in metres: `lines` lines of `per_line` shots `step` apart, 40 m between
// lines, 80 m up, in flight order.
std::vector<Eigen::Vector3d> Lawnmower(int lines, int per_line, double step) {
  std::vector<Eigen::Vector3d> positions;
  for (int line = 0; line < lines; ++line) {
    for (int k = 0; k < per_line; ++k) {
      const int along = line % 2 == 0 ? k : per_line - 1 - k;
      positions.emplace_back(40.0 * line, step * along, 80.0 + 0.1 * k);
    }
  }
  return positions;
}

int Count(const std::vector<bool>& flags) { return static_cast<int>(std::count(flags.begin(), flags.end(), true)); }

// Capture times of positions in flight order: one every 2 s.
std::vector<std::optional<double>> FlightTimes(size_t count) {
  std::vector<std::optional<double>> times;
  for (size_t i = 0; i < count; ++i) times.push_back(1.5e9 + 2.0 * i);
  return times;
}

// Every rule (capture-time order, spatial neighbours, and the sequence rule on flight order)
// flags exactly `expected` among `positions` (in flight order), also once the files are
// shuffled so that name order is no longer flight order.
void ExpectOutliersInAnyOrder(const std::vector<Eigen::Vector3d>& positions, const std::vector<int>& expected) {
  const GpsPriorOptions options;
  std::vector<bool> want(positions.size(), false);
  for (int i : expected) want[i] = true;
  EXPECT_EQ(FindGpsOutliersInSequence(options, positions), want);
  EXPECT_EQ(FindGpsOutliersSpatially(options, positions), want);
  std::vector<int> shuffled(positions.size());
  std::iota(shuffled.begin(), shuffled.end(), 0);
  std::shuffle(shuffled.begin(), shuffled.end(), std::mt19937(11));
  std::vector<Eigen::Vector3d> in_name_order;
  std::vector<std::optional<double>> times, no_times(positions.size());
  const std::vector<std::optional<double>> flight_times = FlightTimes(positions.size());
  for (int i : shuffled) {
    in_name_order.push_back(positions[i]);
    times.push_back(flight_times[i]);
  }
  for (const auto* capture_times : {&times, &no_times}) {
    const std::vector<bool> found = FindGpsOutliers(options, in_name_order, *capture_times);
    for (size_t k = 0; k < shuffled.size(); ++k) {
      EXPECT_EQ(found[k], want[shuffled[k]]) << "image " << shuffled[k] << (capture_times == &times ? " by time" : " by position");
    }
  }
}

TEST(GpsPriors, CleanFlightHasNoOutliers) {
  ExpectOutliersInAnyOrder(Lawnmower(5, 12, 15.0), {});
  // Two flights in one folder (a jump between them that persists) are no outliers either.
  std::vector<Eigen::Vector3d> two = Lawnmower(2, 10, 15.0);
  for (const Eigen::Vector3d& p : Lawnmower(2, 10, 15.0)) two.push_back(p + Eigen::Vector3d(2000, 0, 40));
  ExpectOutliersInAnyOrder(two, {});
  // Nor are two flights over the same ground 40 m apart in altitude.
  std::vector<Eigen::Vector3d> levels = Lawnmower(3, 10, 15.0);
  for (const Eigen::Vector3d& p : Lawnmower(3, 10, 15.0)) levels.push_back(p + Eigen::Vector3d(3, 2, 40));
  ExpectOutliersInAnyOrder(levels, {});
  EXPECT_EQ(Count(FindGpsOutliers(GpsPriorOptions(), {Eigen::Vector3d::Zero(), Eigen::Vector3d(500, 0, 0)},
                                  FlightTimes(2))),
            0);
}

TEST(GpsPriors, FindsJumpsAndWrongAltitudesInAnyFileOrder) {
  std::vector<Eigen::Vector3d> positions = Lawnmower(4, 10, 15.0);
  positions[13] += Eigen::Vector3d(300, 200, 0);  // a position jump
  positions[25].z() += 120;                        // a wrong altitude
  positions[0] += Eigen::Vector3d(0, -900, 0);     // the first fix, far off
  ExpectOutliersInAnyOrder(positions, {0, 13, 25});
  // A 25 m altitude error stays (within GPS's vertical noise allowance).
  positions = Lawnmower(4, 10, 15.0);
  positions[17].z() += 25;
  ExpectOutliersInAnyOrder(positions, {});
}

TEST(GpsPriors, CaptureTimesOrderTheFlightOnlyWhenAllAreKnownAndDistinct) {
  EXPECT_TRUE(CaptureTimesGiveFlightOrder(FlightTimes(10)));
  std::vector<std::optional<double>> times = FlightTimes(10);
  times[3].reset();
  EXPECT_FALSE(CaptureTimesGiveFlightOrder(times));  // one image without a time
  EXPECT_FALSE(CaptureTimesGiveFlightOrder(std::vector<std::optional<double>>(10, 1.5e9)));  // clock unset
  // A photo renamed out of flight order (the last line's image sorted among the first
  // line's): a spike in name order, though its fix is right. In time order, or among its
  // spatial neighbours, it is no outlier.
  const std::vector<Eigen::Vector3d> flight = Lawnmower(4, 10, 15.0);
  const std::vector<std::optional<double>> flight_times = FlightTimes(flight.size());
  std::vector<int> name_order(flight.size());
  std::iota(name_order.begin(), name_order.end(), 0);
  name_order.erase(name_order.begin() + 35);
  name_order.insert(name_order.begin() + 5, 35);
  std::vector<Eigen::Vector3d> by_name;
  std::vector<std::optional<double>> times_by_name;
  for (int i : name_order) {
    by_name.push_back(flight[i]);
    times_by_name.push_back(flight_times[i]);
  }
  EXPECT_TRUE(FindGpsOutliersInSequence(GpsPriorOptions(), by_name)[5]);
  EXPECT_EQ(Count(FindGpsOutliers(GpsPriorOptions(), by_name, times_by_name)), 0);
  EXPECT_EQ(Count(FindGpsOutliers(GpsPriorOptions(), by_name, std::vector<std::optional<double>>(flight.size()))), 0);
}

TEST(GpsPriors, AltitudeDatumFromTheFile) {
  ExifData exif;
  EXPECT_FALSE(AltitudeDatumOf(exif));
  exif.gps = Fix(46.8, -92.0, std::nullopt);
  EXPECT_FALSE(AltitudeDatumOf(exif));  // no altitude
  exif.gps = Fix(46.8, -92.0, 198.3);
  EXPECT_EQ(AltitudeDatumOf(exif), VerticalDatum::kEgm96);  // "above sea level"
  exif.gps->altitude_reference = GpsAltitudeReference::kEllipsoid;
  EXPECT_EQ(AltitudeDatumOf(exif), VerticalDatum::kEllipsoid);
  exif.gps->altitude_reference = GpsAltitudeReference::kSeaLevel;
  exif.drone.rtk_flag = 50;  // DJI RTK aircraft write ellipsoidal heights
  EXPECT_EQ(AltitudeDatumOf(exif), VerticalDatum::kEllipsoid);
}

class GpsReviewTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = testing::MakeTempDir("gps_review") + "/database.db";
    std::filesystem::remove(path_);
  }
  // Images "NNN.jpg" with priors at the ENU positions (nullopt: no GPS), altitudes written as
  // they are with the datum `stated` (none: no capture record, as databases before them), and
  // capture times 2 s apart in the order given when `times`. Images are named in that order,
  // or by `names` (a permutation: image i is named "names[i].jpg").
  void Fill(SceneDatabase* database, const std::vector<std::optional<Eigen::Vector3d>>& enu,
            std::optional<VerticalDatum> stated = std::nullopt, bool times = false,
            const std::vector<int>& names = {}) {
    const LocalEnuConverter converter(truth_);
    const int camera_id =
        database->AddCamera(Camera::FromFocal(CameraModelId::kSimpleRadial, 100, 80, 90), false);
    for (size_t i = 0; i < enu.size(); ++i) {
      char name[32];
      std::snprintf(name, sizeof(name), "%03d.jpg", names.empty() ? static_cast<int>(i) : names[i]);
      const int id = database->AddImage(name, camera_id);
      ids_.push_back(id);
      if (stated || times) {
        ImageCapture capture;
        if (enu[i]) capture.altitude_datum = stated;
        if (times) capture.time_s = 1.5e9 + 2.0 * i;
        database->WriteImageCapture(id, capture);
      }
      if (!enu[i]) continue;
      const Wgs84Position p = converter.Wgs84FromEnu(*enu[i]);
      WriteGpsPrior(GpsPriorOptions(), Fix(p.latitude_deg, p.longitude_deg, p.altitude_m), id, database);
    }
  }
  std::string path_;
  EnuFrame truth_{46.84, -92.0, 190};
  std::vector<int> ids_;
};

TEST_F(GpsReviewTest, StoresFrameDropsOutliersAndListsUntagged) {
  SceneDatabase database(path_, SceneDatabase::Mode::kReadWrite);
  std::vector<std::optional<Eigen::Vector3d>> enu;
  for (const Eigen::Vector3d& p : Lawnmower(3, 10, 15.0)) enu.push_back(p);
  enu[4].reset();
  enu[12] = *enu[12] + Eigen::Vector3d(500, 0, 0);
  Fill(&database, enu);
  const GpsReview review = ReviewGpsPriors(GpsPriorOptions(), ids_, &database);
  EXPECT_EQ(review.num_images, 30);
  EXPECT_EQ(review.num_with_gps, 28);
  ASSERT_EQ(review.outliers.size(), 1u);
  EXPECT_EQ(review.outliers[0], "012.jpg");
  ASSERT_EQ(review.without_gps.size(), 1u);
  EXPECT_EQ(review.without_gps[0], "004.jpg");
  EXPECT_FALSE(database.ReadPosePrior(ids_[12]));
  ASSERT_TRUE(database.ReadEnuFrame());
  // Positions come back in the stored frame: distances as laid out.
  const auto positions = PriorPositionsEnu(database, ids_);
  EXPECT_FALSE(positions[4]);
  EXPECT_FALSE(positions[12]);
  ASSERT_TRUE(positions[0] && positions[1]);
  EXPECT_NEAR((*positions[1] - *positions[0]).norm(), (*enu[1] - *enu[0]).norm(), 1e-3);
  // A re-run finds the same frame (the outlier is gone already).
  const EnuFrame first = *database.ReadEnuFrame();
  ReviewGpsPriors(GpsPriorOptions(), ids_, &database);
  EXPECT_EQ(database.ReadEnuFrame()->ref_latitude_deg, first.ref_latitude_deg);
  EXPECT_EQ(database.ReadEnuFrame()->ref_altitude_m, first.ref_altitude_m);
}

TEST_F(GpsReviewTest, SeaLevelAltitudesBecomeEllipsoidalHeights) {
  const HeightConverter geoid;
  if (!geoid.available()) GTEST_SKIP() << MissingGeoidGridMessage();
  const double undulation = geoid.GeoidUndulationM(truth_.ref_latitude_deg, truth_.ref_longitude_deg);
  std::vector<std::optional<Eigen::Vector3d>> enu;
  for (const Eigen::Vector3d& p : Lawnmower(3, 9, 15.0)) enu.push_back(p);  // odd: one median
  SceneDatabase database(path_, SceneDatabase::Mode::kReadWrite);
  Fill(&database, enu, VerticalDatum::kEgm96);
  const GpsReview review = ReviewGpsPriors(GpsPriorOptions(), ids_, &database);
  EXPECT_FALSE(review.geoid_missing);
  const EnuFrame frame = *database.ReadEnuFrame();
  EXPECT_EQ(frame.heights, VerticalDatum::kEllipsoid);
  EXPECT_EQ(frame.output_heights, VerticalDatum::kEgm96);
  EXPECT_FALSE(frame.fixes_datum);
  // The written altitudes (truth_'s heights, taken as above sea level) sit N lower.
  const LocalEnuConverter truth(truth_);
  std::vector<double> altitudes;
  for (const auto& p : enu) altitudes.push_back(truth.Wgs84FromEnu(*p).altitude_m);
  std::nth_element(altitudes.begin(), altitudes.begin() + altitudes.size() / 2, altitudes.end());
  EXPECT_NEAR(frame.ref_altitude_m, altitudes[altitudes.size() / 2] + undulation, 0.01);
  // Imposed as ellipsoidal (--gps-altitude-datum ellipsoid): taken as they are.
  GpsPriorOptions ellipsoidal;
  ellipsoidal.altitude_datum = VerticalDatum::kEllipsoid;
  ReviewGpsPriors(ellipsoidal, ids_, &database);
  const EnuFrame imposed = *database.ReadEnuFrame();
  EXPECT_EQ(imposed.fixes_datum, VerticalDatum::kEllipsoid);
  EXPECT_EQ(imposed.output_heights, VerticalDatum::kEllipsoid);
  EXPECT_NEAR(imposed.ref_altitude_m, altitudes[altitudes.size() / 2], 0.01);
  // PriorPositionsEnu follows the stored frame: the fixes at their ENU heights.
  const auto positions = PriorPositionsEnu(database, ids_);
  const LocalEnuConverter frame_converter(imposed);
  for (size_t i = 0; i < enu.size(); ++i) {
    EXPECT_LT((*positions[i] - frame_converter.EnuFromWgs84(truth.Wgs84FromEnu(*enu[i]))).norm(), 1e-6);
  }
}

TEST_F(GpsReviewTest, ShuffledNamesFindTheSameOutlier) {
  std::vector<std::optional<Eigen::Vector3d>> enu;
  for (const Eigen::Vector3d& p : Lawnmower(3, 10, 15.0)) enu.push_back(p);
  enu[17] = *enu[17] + Eigen::Vector3d(0, 0, 150);  // a wrong altitude
  std::vector<int> names(enu.size());
  std::iota(names.begin(), names.end(), 0);
  std::shuffle(names.begin(), names.end(), std::mt19937(5));
  for (bool times : {true, false}) {
    std::filesystem::remove(path_);
    ids_.clear();
    SceneDatabase database(path_, SceneDatabase::Mode::kReadWrite);
    Fill(&database, enu, VerticalDatum::kEgm96, times, names);
    // Review in name order, as the pipeline does.
    std::vector<int> by_name(ids_.size());
    for (size_t i = 0; i < ids_.size(); ++i) by_name[names[i]] = ids_[i];
    const GpsReview review = ReviewGpsPriors(GpsPriorOptions(), by_name, &database);
    EXPECT_EQ(review.ordered_by_time, times);
    char expected[32];
    std::snprintf(expected, sizeof(expected), "%03d.jpg", names[17]);
    ASSERT_EQ(review.outliers.size(), 1u) << (times ? "by time" : "by position");
    EXPECT_EQ(review.outliers[0], expected);
  }
}

TEST_F(GpsReviewTest, HoveringAndNoGps) {
  {
    SceneDatabase database(path_, SceneDatabase::Mode::kReadWrite);
    Fill(&database, std::vector<std::optional<Eigen::Vector3d>>(8, Eigen::Vector3d(3, 4, 50)));
    const GpsReview review = ReviewGpsPriors(GpsPriorOptions(), ids_, &database);
    EXPECT_EQ(review.num_with_gps, 8);
    EXPECT_LT(review.horizontal_spread_m, 1e-6);
    EXPECT_TRUE(review.outliers.empty());
  }
  std::filesystem::remove(path_);
  ids_.clear();
  SceneDatabase database(path_, SceneDatabase::Mode::kReadWrite);
  Fill(&database, std::vector<std::optional<Eigen::Vector3d>>(5));
  const GpsReview review = ReviewGpsPriors(GpsPriorOptions(), ids_, &database);
  EXPECT_EQ(review.num_with_gps, 0);
  EXPECT_FALSE(review.frame);
  EXPECT_TRUE(review.without_gps.empty());  // no warning for a folder without GPS at all
  EXPECT_FALSE(database.ReadEnuFrame());
  for (const auto& p : PriorPositionsEnu(database, ids_)) EXPECT_FALSE(p);
}

}  // namespace
}  // namespace proj
