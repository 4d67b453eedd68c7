#include "geometry/geodesy/crs_transform.h"

#include <cstdlib>
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "core/check.h"
#include "geometry/geodesy/utm_projection.h"

namespace proj {
namespace {

// A point and its UTM coordinates by our own forward projection (utm_projection.h).
const Wgs84Position kPoint{46.8428, -92.0016, 190.0};

Eigen::Vector3d UtmOf(const Wgs84Position& p) { return UtmProjection(UtmZoneOf(p)).FromWgs84(p); }

void ExpectNear(const Wgs84Position& a, const Wgs84Position& b) {
  EXPECT_NEAR(a.latitude_deg, b.latitude_deg, 1e-8);   // about a millimetre
  EXPECT_NEAR(a.longitude_deg, b.longitude_deg, 1e-8);
  EXPECT_NEAR(a.altitude_m, b.altitude_m, 1e-6);
}

TEST(CrsTransform, OdmUtmNamesAreEpsgCodes) {
  EXPECT_EQ(CrsDefinition("WGS84 UTM 32N"), "EPSG:32632");
  EXPECT_EQ(CrsDefinition(" WGS84 UTM 15S\r"), "EPSG:32715");
  EXPECT_EQ(CrsDefinition("EPSG:4326"), "EPSG:4326");
  EXPECT_EQ(CrsDefinition("+proj=utm +zone=15 +datum=WGS84"), "+proj=utm +zone=15 +datum=WGS84 +type=crs");
}

TEST(CrsTransform, UtmBackToWgs84InEveryNotation) {
  const Eigen::Vector3d utm = UtmOf(kPoint);
  ASSERT_EQ(UtmZoneOf(kPoint).Epsg(), 32615);
  for (const char* crs : {"EPSG:32615", "WGS84 UTM 15N", "+proj=utm +zone=15 +datum=WGS84 +units=m"}) {
    SCOPED_TRACE(crs);
    ExpectNear(CrsToWgs84(crs).Convert(utm), kPoint);
  }
}

TEST(CrsTransform, GeographicCrsTakesLongitudeFirst) {
  ExpectNear(CrsToWgs84("EPSG:4326").Convert({kPoint.longitude_deg, kPoint.latitude_deg, kPoint.altitude_m}), kPoint);
}

TEST(CrsTransform, UnknownCrsIsAnInputErrorNamingIt) {
  for (const char* crs : {"EPSG:999999", "WGS84 UTM 61N", "+proj=nonsense", "", "hello"}) {
    try {
      CrsToWgs84 converter(crs);
      ADD_FAILURE() << "accepted '" << crs << "'";
    } catch (const InputError& error) {
      EXPECT_NE(std::string(error.what()).find("unknown coordinate reference system '" + std::string(crs) + "'"),
                std::string::npos)
          << error.what();
    }
  }
}

// A PROJ without its data (PROJ_DATA pointing elsewhere) is named as the cause, not the CRS.
TEST(CrsTransform, MissingProjDatabaseIsAnInputErrorSayingSo) {
  const std::string empty = testing::TempDir() + "/no_proj_data";
  std::filesystem::create_directories(empty);
  const char* data = std::getenv("PROJ_DATA");
  const char* lib = std::getenv("PROJ_LIB");
  const std::string saved_data = data ? data : "", saved_lib = lib ? lib : "";
  setenv("PROJ_DATA", empty.c_str(), 1);
  setenv("PROJ_LIB", empty.c_str(), 1);
  for (const char* crs : {"EPSG:32615", "+proj=utm +zone=15 +datum=WGS84 +units=m"}) {
    try {
      CrsToWgs84 converter(crs);
      ADD_FAILURE() << "accepted '" << crs << "' without PROJ's database";
    } catch (const InputError& error) {
      EXPECT_NE(std::string(error.what()).find("proj.db"), std::string::npos) << error.what();
    }
  }
  if (data) setenv("PROJ_DATA", saved_data.c_str(), 1); else unsetenv("PROJ_DATA");
  if (lib) setenv("PROJ_LIB", saved_lib.c_str(), 1); else unsetenv("PROJ_LIB");
  ExpectNear(CrsToWgs84("EPSG:4326").Convert({kPoint.longitude_deg, kPoint.latitude_deg, kPoint.altitude_m}), kPoint);
}

TEST(CrsTransform, CoordinatesOutsideTheCrsAreAnInputError) {
  EXPECT_THROW(CrsToWgs84("EPSG:4326").Convert({500, 91, 0}), InputError);
}

}  // namespace
}  // namespace proj
