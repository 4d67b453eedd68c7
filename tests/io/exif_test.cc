#include "io/exif.h"

#include <gtest/gtest.h>

#include "core/check.h"
#include "io/image_encode.h"
#include "tests/io/test_images.h"
#include "tests/support/test_data.h"

namespace proj {
namespace {

TEST(Exif, DroneJpeg) {
  PROJ_REQUIRE_SHARED_DATASET(path, "drone/brighton_beach/images/DJI_0018.JPG");
  const ExifData exif = ReadExif(path);
  EXPECT_EQ(exif.make, "DJI");
  EXPECT_EQ(exif.model, "FC300S");
  ASSERT_TRUE(exif.focal_length_mm.has_value());
  EXPECT_NEAR(*exif.focal_length_mm, 3.61, 1e-9);  // stored 361/100, shown as "3.6 mm"
  ASSERT_TRUE(exif.focal_length_35mm.has_value());
  EXPECT_EQ(*exif.focal_length_35mm, 20.0);
  EXPECT_EQ(exif.orientation, 1);
  EXPECT_EQ(exif.pixel_x_dimension.value_or(0), 4000);
  EXPECT_EQ(exif.pixel_y_dimension.value_or(0), 2250);
  ASSERT_TRUE(exif.gps.has_value());
  // 46 deg 50' 33.3855" N, 91 deg 59' 40.4156" W, 198.309 m (Brighton Beach, Duluth).
  EXPECT_NEAR(exif.gps->latitude_deg, 46 + 50 / 60.0 + 33.3855 / 3600.0, 1e-6);
  EXPECT_NEAR(exif.gps->longitude_deg, -(91 + 59 / 60.0 + 40.4156 / 3600.0), 1e-6);
  ASSERT_TRUE(exif.gps->altitude_m.has_value());
  EXPECT_NEAR(*exif.gps->altitude_m, 198.309, 1e-3);

  // 35 mm equivalent: 20 / 36 * 4000 px.
  const auto focal_px = FocalLengthPixelsFromExif(exif, 4000, 2250);
  ASSERT_TRUE(focal_px.has_value());
  EXPECT_NEAR(*focal_px, 20.0 / 36.0 * 4000.0, 1e-9);
  // Resized to half: the equivalent focal scales with the image.
  EXPECT_NEAR(*FocalLengthPixelsFromExif(exif, 2000, 1125), 20.0 / 36.0 * 2000.0, 1e-9);
}

TEST(Exif, StrechaJpegHasNoExif) {
  PROJ_REQUIRE_SHARED_DATASET(path, "strecha/fountain-P11/images/0000.jpg");
  const ExifData exif = ReadExif(path);
  EXPECT_FALSE(exif.focal_length_mm.has_value());
  EXPECT_FALSE(exif.gps.has_value());
  EXPECT_EQ(exif.orientation, 1);
  EXPECT_FALSE(FocalLengthPixelsFromExif(exif, 3072, 2048).has_value());
}

TEST(Exif, MissingFileIsInputError) {
  const std::string dir = testing::MakeTempDir("exif_missing");
  EXPECT_THROW(ReadExif(dir + "/nothing.jpg"), InputError);
  // A PNG or a text file simply has no EXIF.
  WritePng(dir + "/a.png", testing::MakeTestImage(4, 4, 1));
  EXPECT_FALSE(ReadExif(dir + "/a.png").focal_length_mm.has_value());
}

TEST(Exif, OrientationTagWrittenByLibexif) {
  const std::vector<uint8_t> jpeg = EncodeJpeg(testing::MakeTestImage(16, 8, 3), 90);
  for (int orientation : {1, 3, 6, 8}) {
    const std::vector<uint8_t> tagged = testing::JpegWithOrientation(jpeg, orientation);
    const ExifData exif = ParseExif(tagged.data(), tagged.size());
    EXPECT_TRUE(exif.has_orientation_tag);
    EXPECT_EQ(exif.orientation, orientation);
  }
  EXPECT_FALSE(ParseExif(jpeg.data(), jpeg.size()).has_orientation_tag);
}

TEST(Exif, FocalFromFocalPlaneResolution) {
  ExifData exif;
  exif.focal_length_mm = 5.0;
  exif.focal_plane_x_resolution = 4000.0 / 0.6;  // px per cm: a 6 mm wide, 4000 px sensor
  exif.focal_plane_resolution_unit = 3;
  exif.pixel_x_dimension = 4000;
  exif.pixel_y_dimension = 3000;
  // f_px = 5 mm * 666.67 px/mm.
  EXPECT_NEAR(*FocalLengthPixelsFromExif(exif, 4000, 3000), 5.0 * 4000.0 / 6.0, 1e-6);
  // Resized to 1000 px wide: scaled by 1/4.
  EXPECT_NEAR(*FocalLengthPixelsFromExif(exif, 1000, 750), 5.0 * 1000.0 / 6.0, 1e-6);
  // Portrait (rotated) image of the same size: max side is the same.
  EXPECT_NEAR(*FocalLengthPixelsFromExif(exif, 3000, 4000), 5.0 * 4000.0 / 6.0, 1e-6);
  // Inch unit (the default when the unit tag is absent).
  exif.focal_plane_resolution_unit.reset();
  exif.focal_plane_x_resolution = 4000.0 / 6.0 * 25.4;
  EXPECT_NEAR(*FocalLengthPixelsFromExif(exif, 4000, 3000), 5.0 * 4000.0 / 6.0, 1e-6);
  // Unknown unit code: no scale, no focal.
  exif.focal_plane_resolution_unit = 1;
  EXPECT_FALSE(FocalLengthPixelsFromExif(exif, 4000, 3000).has_value());
  // The 35 mm equivalent takes precedence.
  exif.focal_length_35mm = 28.0;
  EXPECT_NEAR(*FocalLengthPixelsFromExif(exif, 4000, 3000), 28.0 / 36.0 * 4000.0, 1e-9);
  // Focal length alone is not enough.
  ExifData only_mm;
  only_mm.focal_length_mm = 4.0;
  EXPECT_FALSE(FocalLengthPixelsFromExif(only_mm, 4000, 3000).has_value());
  EXPECT_FALSE(FocalLengthPixelsFromExif(ExifData(), 4000, 3000).has_value());
}

}  // namespace
}  // namespace proj
