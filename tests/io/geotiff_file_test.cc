// The COG writers read back through GDAL: values, nodata, geotransform, CRS codes (a plain UTM
// zone and a compound one with EGM96 heights) and the cloud-optimized layout (512 tiles,
// overviews); bad CRS codes and unwritable folders named.
#include <cmath>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/check.h"
#include "io/geotiff_file.h"
#include "tests/support/test_data.h"

namespace proj {
namespace {

const GeoTransform kTransform = {500000.0, 0.25, 0, 4650000.0, 0, -0.25};

TEST(GeoTiffFile, FloatRasterRoundTripsAsCloudOptimizedGeoTiff) {
  const std::string dir = testing::MakeTempDir("geotiff_float");
  // Larger than one 512 tile, so that the COG gets an overview.
  const int width = 700, height = 600;
  std::vector<float> values(static_cast<size_t>(width) * height);
  for (int row = 0; row < height; ++row) {
    for (int col = 0; col < width; ++col) values[row * width + col] = 100.0f + 0.01f * col - 0.02f * row;
  }
  values[5] = std::numeric_limits<float>::quiet_NaN();
  const std::string path = dir + "/dsm.tif";
  WriteFloatGeoTiff(path, width, height, values, kTransform, "EPSG:32615+5773");
  EXPECT_FALSE(std::filesystem::exists(path + ".tmp")) << "no temporary file left";

  const GeoTiffRaster raster = ReadGeoTiff(path);
  EXPECT_EQ(raster.width, width);
  EXPECT_EQ(raster.height, height);
  EXPECT_EQ(raster.num_bands, 1);
  EXPECT_EQ(raster.band_type, "Float32");
  EXPECT_TRUE(raster.has_nodata);
  EXPECT_TRUE(std::isnan(raster.nodata));
  for (int i = 0; i < 6; ++i) EXPECT_DOUBLE_EQ(raster.transform[i], kTransform[i]) << i;
  EXPECT_EQ(raster.horizontal_epsg, 32615);
  EXPECT_EQ(raster.vertical_epsg, 5773);
  EXPECT_NE(raster.crs_wkt.find("UTM zone 15N"), std::string::npos) << raster.crs_wkt;
  EXPECT_TRUE(raster.tiled);
  EXPECT_GE(raster.num_overviews, 1);
  EXPECT_EQ(raster.layout, "COG");
  ASSERT_EQ(raster.band1.size(), values.size());
  EXPECT_TRUE(std::isnan(raster.band1[5]));
  for (size_t i = 0; i < values.size(); ++i) {
    if (i == 5) continue;
    ASSERT_EQ(raster.band1[i], values[i]) << i;  // DEFLATE is lossless
  }
}

TEST(GeoTiffFile, RgbaRasterRoundTripsWithAlpha) {
  const std::string dir = testing::MakeTempDir("geotiff_rgba");
  const int width = 40, height = 30;
  std::vector<uint8_t> rgba(static_cast<size_t>(width) * height * 4);
  for (size_t i = 0; i < rgba.size(); ++i) rgba[i] = static_cast<uint8_t>((i * 7) % 251);
  rgba[3] = 0;  // the first pixel: no data
  const std::string path = dir + "/ortho.tif";
  WriteRgbaGeoTiff(path, width, height, rgba, kTransform, "EPSG:32632");
  const GeoTiffRaster raster = ReadGeoTiff(path);
  EXPECT_EQ(raster.num_bands, 4);
  EXPECT_EQ(raster.band_type, "Byte");
  EXPECT_EQ(raster.horizontal_epsg, 32632);
  EXPECT_EQ(raster.vertical_epsg, 0);
  EXPECT_EQ(raster.layout, "COG");
  EXPECT_EQ(raster.bytes, rgba);
}

TEST(GeoTiffFile, BadCrsAndUnwritableFolderAndMissingFileAreNamed) {
  const std::string dir = testing::MakeTempDir("geotiff_bad");
  const std::vector<float> values(4, 1.0f);
  try {
    WriteFloatGeoTiff(dir + "/a.tif", 2, 2, values, kTransform, "EPSG:99999999");
    FAIL() << "an unknown CRS was accepted";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("EPSG:99999999"), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find(dir + "/a.tif"), std::string::npos) << error.what();
  }
  EXPECT_FALSE(std::filesystem::exists(dir + "/a.tif"));
  try {
    WriteFloatGeoTiff(dir + "/no/such/folder/b.tif", 2, 2, values, kTransform, "EPSG:32615");
    FAIL() << "a missing folder was accepted";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("b.tif"), std::string::npos) << error.what();
  }
  try {
    ReadGeoTiff(dir + "/missing.tif");
    FAIL() << "a missing file was read";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find(dir + "/missing.tif"), std::string::npos) << error.what();
  }
}

}  // namespace
}  // namespace proj
