#include "sfm/pipeline/gps_priors.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>

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

TEST(GpsPriors, CleanFlightHasNoOutliers) {
  const GpsPriorOptions options;
  EXPECT_EQ(Count(FindGpsOutliers(options, Lawnmower(5, 12, 15.0))), 0);
  // Two flights in one folder (a jump between them that persists) are no outliers either.
  std::vector<Eigen::Vector3d> two = Lawnmower(2, 10, 15.0);
  for (const Eigen::Vector3d& p : Lawnmower(2, 10, 15.0)) two.push_back(p + Eigen::Vector3d(2000, 0, 40));
  EXPECT_EQ(Count(FindGpsOutliers(options, two)), 0);
  EXPECT_EQ(Count(FindGpsOutliers(options, {Eigen::Vector3d::Zero(), Eigen::Vector3d(500, 0, 0)})), 0);
}

TEST(GpsPriors, FindsJumpsAndWrongAltitudes) {
  const GpsPriorOptions options;
  std::vector<Eigen::Vector3d> positions = Lawnmower(4, 10, 15.0);
  positions[13] += Eigen::Vector3d(300, 200, 0);  // a position jump
  positions[25].z() += 120;                        // a wrong altitude
  positions[0] += Eigen::Vector3d(0, -900, 0);     // the first fix, far off
  std::vector<bool> outliers = FindGpsOutliers(options, positions);
  EXPECT_TRUE(outliers[13]);
  EXPECT_TRUE(outliers[25]);
  EXPECT_TRUE(outliers[0]);
  EXPECT_EQ(Count(outliers), 3);
  // A 25 m altitude error stays (within GPS's vertical noise allowance).
  positions = Lawnmower(4, 10, 15.0);
  positions[17].z() += 25;
  EXPECT_EQ(Count(FindGpsOutliers(options, positions)), 0);
}

class GpsReviewTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = testing::MakeTempDir("gps_review") + "/database.db";
    std::filesystem::remove(path_);
  }
  // Images "NNN.jpg" with priors at the ENU positions (nullopt: no GPS).
  void Fill(SceneDatabase* database, const std::vector<std::optional<Eigen::Vector3d>>& enu) {
    const LocalEnuConverter converter(truth_);
    const int camera_id =
        database->AddCamera(Camera::FromFocal(CameraModelId::kSimpleRadial, 100, 80, 90), false);
    for (size_t i = 0; i < enu.size(); ++i) {
      char name[32];
      std::snprintf(name, sizeof(name), "%03zu.jpg", i);
      const int id = database->AddImage(name, camera_id);
      ids_.push_back(id);
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
