// GPS and drone metadata: the real DJI JPEG, the XMP reader, and our EXIF writer read back.
#include <gtest/gtest.h>

#include <cstring>

#include "core/check.h"
#include "io/drone_xmp.h"
#include "io/exif.h"
#include "io/exif_writer.h"
#include "io/file_bytes.h"
#include "io/image_decode.h"
#include "tests/io/test_images.h"
#include "tests/support/test_data.h"

namespace proj {
namespace {

TEST(ExifGps, DroneJpegXmp) {
  PROJ_REQUIRE_SHARED_DATASET(path, "drone/brighton_beach/images/DJI_0018.JPG");
  const ExifData exif = ReadExif(path);
  ASSERT_TRUE(exif.gps.has_value());
  EXPECT_FALSE(exif.gps->horizontal_error_m.has_value());  // this FC300S writes none
  ASSERT_TRUE(exif.drone.relative_altitude_m.has_value());
  EXPECT_DOUBLE_EQ(*exif.drone.relative_altitude_m, 39.80);
  EXPECT_DOUBLE_EQ(exif.drone.absolute_altitude_m.value_or(0), 198.31);
  ASSERT_TRUE(exif.drone.HasGimbal());
  EXPECT_DOUBLE_EQ(*exif.drone.gimbal_yaw_deg, 45.0);
  EXPECT_DOUBLE_EQ(*exif.drone.gimbal_pitch_deg, -89.90);
  EXPECT_DOUBLE_EQ(*exif.drone.gimbal_roll_deg, 0.0);
  EXPECT_DOUBLE_EQ(exif.drone.flight_yaw_deg.value_or(0), 46.0);
  // GPSAltitudeRef 0: above sea level (this non-RTK Phantom writes no RtkFlag); the capture
  // time is DateTimeOriginal, 2016:06:23 16:31:59.
  EXPECT_EQ(exif.gps->altitude_reference, GpsAltitudeReference::kSeaLevel);
  EXPECT_NEAR(exif.gps->altitude_m.value_or(0), 198.309, 1e-3);
  EXPECT_FALSE(exif.drone.rtk_flag.has_value());
  EXPECT_EQ(exif.capture_time_s.value_or(0), 1466699519.0);
}

TEST(ExifGps, CaptureTimeAndEllipsoidalAltitudeReadBack) {
  const std::string dir = testing::MakeTempDir("exif_capture_time");
  ExifData exif;
  exif.capture_time_s = 1782900000.125;  // 2026-07-01 10:00:00.125
  GpsPosition gps;
  gps.latitude_deg = 46.84;
  gps.longitude_deg = -92.0;
  gps.altitude_m = -3.5;
  gps.altitude_reference = GpsAltitudeReference::kEllipsoid;  // GPSAltitudeRef 3
  exif.gps = gps;
  const std::string path = dir + "/timed.jpg";
  WriteJpegWithExif(path, testing::MakeTestImage(32, 24, 3), exif);
  const ExifData read = ReadExif(path);
  EXPECT_NEAR(read.capture_time_s.value_or(0), 1782900000.125, 1e-6);
  ASSERT_TRUE(read.gps.has_value());
  EXPECT_EQ(read.gps->altitude_reference, GpsAltitudeReference::kEllipsoid);
  EXPECT_NEAR(read.gps->altitude_m.value_or(0), -3.5, 1e-6);
  EXPECT_FALSE(ReadExif(dir + "/timed.jpg").drone.rtk_flag.has_value());
  EXPECT_EQ(ParseDroneXmp(R"(drone-dji:RtkFlag="50")").rtk_flag.value_or(0), 50);
  // No time written: none read.
  exif.capture_time_s.reset();
  WriteJpegWithExif(path, testing::MakeTestImage(32, 24, 3), exif);
  EXPECT_FALSE(ReadExif(path).capture_time_s.has_value());
  exif.capture_time_s = -1;
  EXPECT_THROW(EncodeExifBlock(exif), InputError);
}

TEST(ExifGps, XmpAttributeAndElementForms) {
  const DroneXmp attributes = ParseDroneXmp(
      R"(<rdf:Description drone-dji:RelativeAltitude="+12.5" drone-dji:GimbalYawDegree="-170.2"/>)");
  EXPECT_DOUBLE_EQ(attributes.relative_altitude_m.value_or(0), 12.5);
  EXPECT_DOUBLE_EQ(attributes.gimbal_yaw_deg.value_or(0), -170.2);
  EXPECT_FALSE(attributes.HasGimbal());
  const DroneXmp elements = ParseDroneXmp(
      "<drone-dji:GimbalPitchDegree>-45.0</drone-dji:GimbalPitchDegree>"
      "<drone-dji:RelativeAltitude>abc</drone-dji:RelativeAltitude>");
  EXPECT_DOUBLE_EQ(elements.gimbal_pitch_deg.value_or(0), -45.0);
  EXPECT_FALSE(elements.relative_altitude_m.has_value());  // not a number
  EXPECT_FALSE(ParseDroneXmp("").gimbal_roll_deg.has_value());
  EXPECT_FALSE(ParseDroneXmp(R"(drone-dji:GimbalRollDegree="1.0)").gimbal_roll_deg.has_value());
}

TEST(ExifGps, WrittenGpsReadsBack) {
  const std::string dir = testing::MakeTempDir("exif_gps_write");
  ExifData exif;
  exif.make = "Synthetic";
  exif.model = "Survey camera";
  exif.focal_length_35mm = 24;
  GpsPosition gps;
  gps.latitude_deg = -33.8688197;
  gps.longitude_deg = 151.2092955;
  gps.altitude_m = -12.345;
  gps.horizontal_error_m = 2.5;
  exif.gps = gps;
  const std::string path = dir + "/gps.jpg";
  WriteJpegWithExif(path, testing::MakeTestImage(64, 48, 3), exif);
  const ExifData read = ReadExif(path);
  EXPECT_EQ(read.make, "Synthetic");
  EXPECT_EQ(read.model, "Survey camera");
  EXPECT_EQ(read.focal_length_35mm.value_or(0), 24);
  ASSERT_TRUE(read.gps.has_value());
  EXPECT_NEAR(read.gps->latitude_deg, gps.latitude_deg, 1e-9);  // sub-millimetre
  EXPECT_NEAR(read.gps->longitude_deg, gps.longitude_deg, 1e-9);
  EXPECT_NEAR(read.gps->altitude_m.value_or(0), -12.345, 1e-6);
  EXPECT_NEAR(read.gps->horizontal_error_m.value_or(0), 2.5, 1e-6);
  // Still a decodable image.
  const Image image = ReadImageFile(path);
  EXPECT_EQ(image.width, 64);
}

TEST(ExifGps, WriterRejectsInvalidInput) {
  ExifData exif;
  exif.gps = GpsPosition{95.0, 0.0, std::nullopt, std::nullopt, std::nullopt};
  EXPECT_THROW(EncodeExifBlock(exif), InputError);
  EXPECT_THROW(InsertApp1Segment({0x00, 0x01}, {1, 2, 3}), InputError);
  EXPECT_THROW(InsertApp1Segment({0xFF, 0xD8}, std::vector<uint8_t>(70000)), InputError);
}

}  // namespace
}  // namespace proj
