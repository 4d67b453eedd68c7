#include "geometry/geodesy/map_projection.h"

#include <gtest/gtest.h>

#include "core/check.h"

namespace proj {
namespace {

EnuFrame DuluthFrame() {
  EnuFrame frame;
  frame.ref_latitude_deg = 46.8428;
  frame.ref_longitude_deg = -92.0016;
  frame.ref_altitude_m = 190.0;
  return frame;
}

TEST(MapProjection, UtmZoneAndCrsOfTheOrigin) {
  const MapProjection map(DuluthFrame());
  EXPECT_EQ(map.zone().Epsg(), 32615);
  EXPECT_EQ(map.heights(), VerticalDatum::kEllipsoid);
  EXPECT_EQ(map.CrsCode(), "EPSG:32615");
  EXPECT_EQ(map.CrsName(), "WGS 84 / UTM zone 15N");
}

TEST(MapProjection, OriginMapsToItsUtmCoordinates) {
  const EnuFrame frame = DuluthFrame();
  const MapProjection map(frame);
  const Eigen::Vector3d expected =
      UtmProjection(MapZoneOf(frame)).FromWgs84({frame.ref_latitude_deg, frame.ref_longitude_deg, frame.ref_altitude_m});
  EXPECT_LT((map.MapFromEnu(Eigen::Vector3d::Zero()) - expected).norm(), 1e-6);
}

// Map coordinates back to ENU within a tenth of a millimetre, over a survey's extent.
TEST(MapProjection, EnuFromMapInvertsMapFromEnu) {
  const MapProjection map(DuluthFrame());
  for (const Eigen::Vector3d& p : {Eigen::Vector3d(0, 0, 0), Eigen::Vector3d(812.5, -430.25, 35.0),
                                   Eigen::Vector3d(-2500, 1800, -20)}) {
    SCOPED_TRACE(p.transpose());
    const Eigen::Vector3d utm = map.MapFromEnu(p);
    EXPECT_LT((map.EnuFromMap(utm) - p).norm(), 1e-4);
  }
  // A kilometre east in ENU is about a kilometre of easting (UTM scale ~0.9996..1.0004 here).
  const double de = map.MapFromEnu({1000, 0, 0}).x() - map.MapFromEnu({0, 0, 0}).x();
  EXPECT_NEAR(de, 1000.0, 2.0);
}

TEST(MapProjection, RefusesCoordinatesFarOutsideTheZone) {
  const MapProjection map(DuluthFrame());
  EXPECT_THROW(map.EnuFromMap({1e12, 5e6, 0}), InputError);
}

}  // namespace
}  // namespace proj
