// LAS files as CloudCompare, QGIS and PDAL read them: the header fields, the GeoTIFF CRS key,
// 16-bit colours, 1 mm coordinates at UTM magnitudes; bad files get a clear message.
#include "io/las_file.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>

#include "core/check.h"
#include "io/file_bytes.h"
#include "io/little_endian.h"
#include "tests/support/test_data.h"

namespace proj {
namespace {

using ::testing::HasSubstr;

LasPointCloud UtmCloud() {
  LasPointCloud cloud;
  cloud.epsg = 32615;
  cloud.system_identifier = "test";
  for (int i = 0; i < 500; ++i) {
    cloud.positions.emplace_back(576661.25 + 0.137 * i, 5188114.5 + 0.211 * i, 156.0 + 0.003 * i);
    cloud.colors.push_back({static_cast<uint8_t>(i % 256), static_cast<uint8_t>(255 - i % 256), 9});
  }
  return cloud;
}

TEST(LasFile, RoundTripKeepsPointsColoursAndCrs) {
  const std::string path = testing::MakeTempDir("las_round_trip") + "/points.las";
  const LasPointCloud cloud = UtmCloud();
  WriteLasFile(path, cloud);
  const LasPointCloud read = ReadLasFile(path);
  EXPECT_EQ(read.epsg, 32615);
  EXPECT_EQ(read.system_identifier, "test");
  ASSERT_EQ(read.positions.size(), cloud.positions.size());
  for (size_t i = 0; i < cloud.positions.size(); ++i) {
    EXPECT_LE((read.positions[i] - cloud.positions[i]).cwiseAbs().maxCoeff(), 0.0005 + 1e-9) << i;
    EXPECT_EQ(read.colors[i], cloud.colors[i]) << i;
  }
}

TEST(LasFile, HeaderIsLas12PointFormat2WithGeoKeys) {
  const std::string path = testing::MakeTempDir("las_header") + "/points.las";
  WriteLasFile(path, UtmCloud());
  const std::vector<uint8_t> bytes = ReadFileBytes(path);
  ASSERT_GE(bytes.size(), 227u + 54u + 48u + 500u * 26u);
  EXPECT_EQ(std::string(bytes.begin(), bytes.begin() + 4), "LASF");
  EXPECT_EQ(bytes[24], 1);  // version 1.2
  EXPECT_EQ(bytes[25], 2);
  EXPECT_EQ(DecodeLittleEndian<uint16_t>(&bytes[94]), 227);  // header size
  EXPECT_EQ(DecodeLittleEndian<uint32_t>(&bytes[100]), 1u);  // one VLR
  EXPECT_EQ(bytes[104], 2);                                   // point format 2: XYZ + RGB
  EXPECT_EQ(DecodeLittleEndian<uint16_t>(&bytes[105]), 26);
  EXPECT_EQ(DecodeLittleEndian<uint32_t>(&bytes[107]), 500u);
  EXPECT_EQ(bytes.size(), DecodeLittleEndian<uint32_t>(&bytes[96]) + 500u * 26u);
  EXPECT_DOUBLE_EQ(DecodeLittleEndian<double>(&bytes[131]), 0.001);  // x scale
  EXPECT_DOUBLE_EQ(DecodeLittleEndian<double>(&bytes[187]), 576661.25);  // min x
  // The VLR: LASF_Projection / 34735 with ProjectedCSTypeGeoKey (3072) = 32615.
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(&bytes[229])), "LASF_Projection");
  EXPECT_EQ(DecodeLittleEndian<uint16_t>(&bytes[245]), 34735);
  bool found = false;
  for (size_t k = 227 + 54 + 8; k + 8 <= 227 + 54 + 48; k += 8) {
    if (DecodeLittleEndian<uint16_t>(&bytes[k]) == 3072) {
      found = DecodeLittleEndian<uint16_t>(&bytes[k + 6]) == 32615;
    }
  }
  EXPECT_TRUE(found);
}

TEST(LasFile, VerticalCrsAndNamesRoundTrip) {
  const std::string path = testing::MakeTempDir("las_vertical") + "/points.las";
  LasPointCloud cloud = UtmCloud();
  cloud.vertical_epsg = 5773;
  cloud.crs_name = "WGS 84 / UTM zone 15N";
  cloud.vertical_crs_name = "EGM96 height";
  WriteLasFile(path, cloud);
  const LasPointCloud read = ReadLasFile(path);
  EXPECT_EQ(read.epsg, 32615);
  EXPECT_EQ(read.vertical_epsg, 5773);
  EXPECT_EQ(read.crs_name, "WGS 84 / UTM zone 15N");
  EXPECT_EQ(read.vertical_crs_name, "EGM96 height");
  // Two VLRs (key directory, ASCII parameters); the keys in increasing order, as GeoTIFF
  // requires, with VerticalCSTypeGeoKey 4096 = 5773.
  const std::vector<uint8_t> bytes = ReadFileBytes(path);
  EXPECT_EQ(DecodeLittleEndian<uint32_t>(&bytes[100]), 2u);
  const size_t directory = 227 + 54;
  const int num_keys = DecodeLittleEndian<uint16_t>(&bytes[directory + 6]);
  int previous = 0;
  bool vertical = false;
  for (int k = 0; k < num_keys; ++k) {
    const int id = DecodeLittleEndian<uint16_t>(&bytes[directory + 8 + 8 * k]);
    EXPECT_GT(id, previous);
    previous = id;
    vertical |= id == 4096 && DecodeLittleEndian<uint16_t>(&bytes[directory + 8 + 8 * k + 6]) == 5773;
  }
  EXPECT_TRUE(vertical);
  const size_t ascii_vlr = directory + 8 + 8 * num_keys;
  EXPECT_EQ(DecodeLittleEndian<uint16_t>(&bytes[ascii_vlr + 18]), 34737);
  // Without a vertical CRS: one VLR and no vertical key, as before.
  cloud.vertical_epsg = 0;
  cloud.crs_name.clear();
  WriteLasFile(path, cloud);
  EXPECT_EQ(ReadLasFile(path).vertical_epsg, 0);
  EXPECT_EQ(DecodeLittleEndian<uint32_t>(&ReadFileBytes(path)[100]), 1u);
  cloud.crs_name = "bad|name";
  EXPECT_THROW(WriteLasFile(path, cloud), InputError);
}

TEST(LasFile, BadInputGetsAClearMessage) {
  const std::string dir = testing::MakeTempDir("las_bad");
  LasPointCloud mismatched = UtmCloud();
  mismatched.colors.pop_back();
  try {
    WriteLasFile(dir + "/mismatched.las", mismatched);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("mismatched.las"));
  }
  LasPointCloud far = UtmCloud();
  far.positions[3].x() = 1e10;
  EXPECT_THROW(WriteLasFile(dir + "/far.las", far), InputError);
  std::ifstream missing_check(dir + "/far.las");
  EXPECT_FALSE(missing_check.good()) << "no partial file is left behind";

  const std::string path = dir + "/points.las";
  WriteLasFile(path, UtmCloud());
  std::vector<uint8_t> bytes = ReadFileBytes(path);
  {
    std::ofstream truncated(dir + "/truncated.las", std::ios::binary);
    truncated.write(reinterpret_cast<const char*>(bytes.data()), 1000);
  }
  try {
    ReadLasFile(dir + "/truncated.las");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("truncated.las"));
    EXPECT_THAT(e.what(), HasSubstr("truncated"));
  }
  bytes[104] |= 0x80;  // the LAZ flag
  {
    std::ofstream laz(dir + "/compressed.las", std::ios::binary);
    laz.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  }
  try {
    ReadLasFile(dir + "/compressed.las");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("LAZ"));
  }
}

}  // namespace
}  // namespace proj
