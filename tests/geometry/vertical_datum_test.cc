// Heights above sea level (EGM96) <-> above the ellipsoid through PROJ's geoid grid: NGA's
// published EGM96 test values, the sign convention (h = H + N), round trips, and a missing grid.
#include "geometry/geodesy/vertical_datum.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "core/check.h"

namespace proj {
namespace {

// Skips when Debian's proj-data (or PROJ-data's grid) is not installed.
#define REQUIRE_GEOID_GRID(converter)                                                 \
  if (!(converter).available()) GTEST_SKIP() << MissingGeoidGridMessage()

TEST(VerticalDatum, GeoidHeightsMatchNgaTestValues) {
  const HeightConverter converter;
  REQUIRE_GEOID_GRID(converter);
  // NGA's EGM96 test points (latitude, longitude, N in metres), computed from the spherical
  // harmonic model; the 15' grid interpolates them within a few centimetres.
  const double points[][3] = {{38.6281550, 269.7791550 - 360, -31.628},
                              {-14.6212170, 305.0211140 - 360, -2.969},
                              {46.8743190, 102.4487290, -43.575},
                              {-23.6174460, 133.8747120, 15.871},
                              {38.6254730, 359.9995000 - 360, 50.066},
                              {-0.4667440, 0.0023000, 17.329}};
  for (const auto& p : points) {
    EXPECT_NEAR(converter.GeoidUndulationM(p[0], p[1]), p[2], 0.1) << p[0] << ", " << p[1];
  }
  // Brighton Beach, Duluth: the geoid is about 28.7 m below the ellipsoid.
  EXPECT_NEAR(converter.GeoidUndulationM(46.8426, -91.9940), -28.7, 0.3);
}

TEST(VerticalDatum, ConvertsBothWaysAroundTheGeoid) {
  const HeightConverter converter;
  REQUIRE_GEOID_GRID(converter);
  const double lat = 46.8426, lon = -91.9940;
  const double undulation = converter.GeoidUndulationM(lat, lon);
  // 198.5 m above sea level is 198.5 + N above the ellipsoid (N < 0 here: lower).
  const double h = converter.Convert(lat, lon, 198.5, VerticalDatum::kEgm96, VerticalDatum::kEllipsoid);
  EXPECT_DOUBLE_EQ(h, 198.5 + undulation);
  EXPECT_LT(h, 198.5);
  EXPECT_NEAR(converter.Convert(lat, lon, h, VerticalDatum::kEllipsoid, VerticalDatum::kEgm96), 198.5,
              1e-9);
  EXPECT_EQ(converter.Convert(lat, lon, 12.25, VerticalDatum::kEgm96, VerticalDatum::kEgm96), 12.25);
  EXPECT_FALSE(converter.grid_name().empty());
  EXPECT_THROW(converter.GeoidUndulationM(91, 0), InputError);
}

TEST(VerticalDatum, MissingGridIsReportedNotFatal) {
  const std::string empty = ::testing::TempDir() + "no_geoid_grid";
  std::filesystem::create_directories(empty);
  const HeightConverter converter({empty});
  EXPECT_FALSE(converter.available());
  EXPECT_EQ(converter.grid_name(), "");
  // Nothing to convert: fine without the grid.
  EXPECT_EQ(converter.Convert(10, 20, 5.0, VerticalDatum::kEllipsoid, VerticalDatum::kEllipsoid), 5.0);
  try {
    converter.Convert(10, 20, 5.0, VerticalDatum::kEgm96, VerticalDatum::kEllipsoid);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("egm96_15.gtx"), std::string::npos) << e.what();
  }
}

TEST(VerticalDatum, NamesKeysAndCodes) {
  EXPECT_EQ(VerticalDatumEpsg(VerticalDatum::kEgm96), 5773);
  EXPECT_EQ(VerticalDatumEpsg(VerticalDatum::kEllipsoid), 0);
  EXPECT_EQ(VerticalDatumName(VerticalDatum::kEgm96), "EGM96 height");
  for (VerticalDatum datum : {VerticalDatum::kEgm96, VerticalDatum::kEllipsoid}) {
    EXPECT_EQ(VerticalDatumFromKey(VerticalDatumKey(datum)), datum);
  }
  EXPECT_THROW(VerticalDatumFromKey("msl"), InputError);
}

}  // namespace
}  // namespace proj
