#include "geometry/geodesy/local_enu_frame.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include <Eigen/Geometry>

#include "core/check.h"

namespace proj {
namespace {

// Independent closed-form reference (WGS84 -> ECEF -> rotation into the tangent plane), to
// check the PROJ pipeline's units, axis order and signs.
Eigen::Vector3d EcefFromWgs84(const Wgs84Position& p) {
  const double a = 6378137.0, f = 1.0 / 298.257223563, e2 = f * (2 - f);
  const double lat = p.latitude_deg * M_PI / 180, lon = p.longitude_deg * M_PI / 180;
  const double n = a / std::sqrt(1 - e2 * std::sin(lat) * std::sin(lat));
  return Eigen::Vector3d((n + p.altitude_m) * std::cos(lat) * std::cos(lon),
                         (n + p.altitude_m) * std::cos(lat) * std::sin(lon),
                         (n * (1 - e2) + p.altitude_m) * std::sin(lat));
}

Eigen::Vector3d ClosedFormEnu(const EnuFrame& frame, const Wgs84Position& p) {
  const Wgs84Position ref{frame.ref_latitude_deg, frame.ref_longitude_deg, frame.ref_altitude_m};
  const double lat = ref.latitude_deg * M_PI / 180, lon = ref.longitude_deg * M_PI / 180;
  Eigen::Matrix3d enu_from_ecef;
  enu_from_ecef << -std::sin(lon), std::cos(lon), 0,
      -std::sin(lat) * std::cos(lon), -std::sin(lat) * std::sin(lon), std::cos(lat),
      std::cos(lat) * std::cos(lon), std::cos(lat) * std::sin(lon), std::sin(lat);
  return enu_from_ecef * (EcefFromWgs84(p) - EcefFromWgs84(ref));
}

TEST(LocalEnuFrame, ReferenceMapsToOrigin) {
  const EnuFrame frame{50.8225, -0.1372, 45.0};
  const LocalEnuConverter converter(frame);
  const Eigen::Vector3d enu = converter.EnuFromWgs84({50.8225, -0.1372, 45.0});
  EXPECT_LT(enu.norm(), 1e-6);
  EXPECT_NEAR(converter.EnuFromWgs84({50.8225, -0.1372, 145.0}).z(), 100.0, 1e-6);
}

TEST(LocalEnuFrame, KnownValuesAtEquator) {
  // One millidegree of longitude on the equator is a * 1e-3 * pi / 180 = 111.3195 m east, and
  // the tangent plane drops below the ellipsoid by d^2 / (2a) = 0.97 mm.
  const LocalEnuConverter converter(EnuFrame{0, 0, 0});
  const Eigen::Vector3d east = converter.EnuFromWgs84({0, 1e-3, 0});
  EXPECT_NEAR(east.x(), 111.319491, 1e-5);
  EXPECT_NEAR(east.y(), 0, 1e-9);
  EXPECT_NEAR(east.z(), -111.319491 * 111.319491 / (2 * 6378137.0), 1e-6);
  // One millidegree of latitude at the equator: the meridian radius a (1 - e^2) gives 110.574 m.
  const Eigen::Vector3d north = converter.EnuFromWgs84({1e-3, 0, 0});
  EXPECT_NEAR(north.y(), 110.574, 1e-3);
  EXPECT_NEAR(north.x(), 0, 1e-9);
}

TEST(LocalEnuFrame, MatchesClosedFormAndRoundTripsBelowMillimetre) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> offset_deg(-0.02, 0.02), height_m(-50, 500);
  for (const EnuFrame frame : {EnuFrame{50.8225, -0.1372, 45.0}, EnuFrame{-33.86, 151.21, 0},
                               EnuFrame{78.2, 15.6, 300}, EnuFrame{0.0, 179.99, 10}}) {
    const LocalEnuConverter converter(frame);
    for (int i = 0; i < 200; ++i) {
      Wgs84Position p{frame.ref_latitude_deg + offset_deg(rng),
                      frame.ref_longitude_deg + offset_deg(rng), height_m(rng)};
      if (p.longitude_deg > 180) p.longitude_deg -= 360;
      const Eigen::Vector3d enu = converter.EnuFromWgs84(p);
      EXPECT_LT((enu - ClosedFormEnu(frame, p)).norm(), 1e-6) << i;
      const Wgs84Position back = converter.Wgs84FromEnu(enu);
      const Eigen::Vector3d again = converter.EnuFromWgs84(back);
      EXPECT_LT((again - enu).norm(), 1e-4);  // sub-millimetre
      EXPECT_NEAR(back.latitude_deg, p.latitude_deg, 1e-10);
      EXPECT_NEAR(back.longitude_deg, p.longitude_deg, 1e-10);
      EXPECT_NEAR(back.altitude_m, p.altitude_m, 1e-4);
    }
  }
}

TEST(LocalEnuFrame, DistancesArePreservedLocally) {
  const LocalEnuConverter converter(EnuFrame{47.0, 8.0, 400});
  const Eigen::Vector3d a = converter.EnuFromWgs84({47.001, 8.001, 420});
  const Eigen::Vector3d b = converter.EnuFromWgs84({47.002, 7.999, 380});
  const double ecef_distance = (EcefFromWgs84({47.001, 8.001, 420}) -
                                EcefFromWgs84({47.002, 7.999, 380})).norm();
  EXPECT_NEAR((a - b).norm(), ecef_distance, 1e-6);
}

TEST(LocalEnuFrame, ChooseFrameIsTheComponentwiseMedian) {
  const EnuFrame frame = ChooseEnuFrame(
      {{10.0, 20.0, 100}, {10.2, 20.1, 5000}, {10.1, 19.9, 110}, {10.3, 20.3, 90}});
  EXPECT_DOUBLE_EQ(frame.ref_latitude_deg, 10.15);
  EXPECT_DOUBLE_EQ(frame.ref_longitude_deg, 20.05);
  EXPECT_DOUBLE_EQ(frame.ref_altitude_m, 105);  // the 5000 m outlier does not pull it
  const EnuFrame single = ChooseEnuFrame({{1, 2, 3}});
  EXPECT_EQ(single.ref_latitude_deg, 1);
}

TEST(LocalEnuFrame, RejectsInvalidPositions) {
  EXPECT_THROW(ChooseEnuFrame({}), InputError);
  EXPECT_THROW(ChooseEnuFrame({{91, 0, 0}}), InputError);
  EXPECT_THROW(LocalEnuConverter(EnuFrame{0, 181, 0}), InputError);
  const LocalEnuConverter converter(EnuFrame{0, 0, 0});
  EXPECT_THROW(converter.EnuFromWgs84({NAN, 0, 0}), InputError);
  EXPECT_FALSE(IsValidWgs84({0, 0, INFINITY}));
  EXPECT_TRUE(IsValidWgs84({-90, 180, -10}));
}

TEST(LocalEnuFrame, BatchConversionMatchesConverter) {
  const EnuFrame frame{50.8, -0.13, 40};
  const std::vector<Wgs84Position> positions{{50.801, -0.131, 60}, {50.799, -0.128, 55}};
  const std::vector<Eigen::Vector3d> enu = EnuFromWgs84(frame, positions);
  const LocalEnuConverter converter(frame);
  ASSERT_EQ(enu.size(), 2u);
  EXPECT_EQ(enu[1], converter.EnuFromWgs84(positions[1]));
}

}  // namespace
}  // namespace proj
