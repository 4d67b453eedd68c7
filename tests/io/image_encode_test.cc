#include "io/image_encode.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "core/check.h"
#include "io/image_decode.h"
#include "tests/io/test_images.h"
#include "tests/support/test_data.h"

namespace proj {
namespace {

using ::testing::HasSubstr;
using testing::MakeTempDir;
using testing::MakeTestImage;
using testing::PngKind;
using testing::WriteSpecialPng;

double Psnr(const Image& a, const Image& b) {
  double sum = 0;
  for (size_t i = 0; i < a.data.size(); ++i) {
    const double d = static_cast<double>(a.data[i]) - b.data[i];
    sum += d * d;
  }
  const double mse = sum / a.data.size();
  return 10 * std::log10(255.0 * 255.0 / std::max(mse, 1e-12));
}

TEST(ImageEncode, PngRoundTripIsExact) {
  const std::string dir = MakeTempDir("encode_png");
  for (int channels : {1, 3}) {
    const Image image = MakeTestImage(73, 41, channels);
    const std::string path = dir + "/image" + std::to_string(channels) + ".png";
    WritePng(path, image);
    ImageInfo info;
    const Image decoded = ReadImageFile(path, &info);
    EXPECT_EQ(info.format, ImageFormat::kPng);
    EXPECT_EQ(decoded.width, 73);
    EXPECT_EQ(decoded.height, 41);
    EXPECT_EQ(decoded.channels, channels);
    EXPECT_EQ(decoded.data, image.data);
    const ImageInfo header = ReadImageHeader(path);
    EXPECT_EQ(header.width, 73);
    EXPECT_EQ(header.height, 41);
    EXPECT_EQ(header.channels, channels);
  }
}

TEST(ImageEncode, JpegRoundTripIsClose) {
  const std::string dir = MakeTempDir("encode_jpeg");
  const Image image = MakeTestImage(160, 120, 3);
  WriteJpeg(dir + "/q95.jpg", image, 95);
  WriteJpeg(dir + "/q30.jpg", image, 30);
  const Image high = ReadImageFile(dir + "/q95.jpg");
  const Image low = ReadImageFile(dir + "/q30.jpg");
  ASSERT_EQ(high.data.size(), image.data.size());
  EXPECT_GT(Psnr(image, high), 30.0);
  EXPECT_GT(Psnr(image, high), Psnr(image, low) + 3.0);  // the quality parameter matters
  EXPECT_LT(std::filesystem::file_size(dir + "/q30.jpg"), std::filesystem::file_size(dir + "/q95.jpg"));
}

TEST(ImageEncode, SixteenBitPngIsScaledToEightBits) {
  const std::string dir = MakeTempDir("encode_png16");
  const int width = 17, height = 9;
  std::vector<uint16_t> grey(width * height), rgb(width * height * 3);
  for (size_t i = 0; i < grey.size(); ++i) grey[i] = static_cast<uint16_t>((i * 4099) % 65536);
  for (size_t i = 0; i < rgb.size(); ++i) rgb[i] = static_cast<uint16_t>((i * 7919 + 3) % 65536);
  WriteSpecialPng(dir + "/grey16.png", PngKind::kGrey16, width, height, grey);
  WriteSpecialPng(dir + "/rgb16.png", PngKind::kRgb16, width, height, rgb);

  const Image grey8 = ReadImageFile(dir + "/grey16.png");
  ASSERT_EQ(grey8.channels, 1);
  ASSERT_EQ(grey8.data.size(), grey.size());
  for (size_t i = 0; i < grey.size(); ++i) {
    EXPECT_NEAR(grey8.data[i], grey[i] * 255.0 / 65535.0, 0.51) << "sample " << i;
  }
  const Image rgb8 = ReadImageFile(dir + "/rgb16.png");
  ASSERT_EQ(rgb8.channels, 3);
  ASSERT_EQ(rgb8.data.size(), rgb.size());
  for (size_t i = 0; i < rgb.size(); ++i) {
    EXPECT_NEAR(rgb8.data[i], rgb[i] * 255.0 / 65535.0, 0.51) << "sample " << i;
  }
}

TEST(ImageEncode, PaletteAndAlphaPngBecomeRgbOrGrey) {
  const std::string dir = MakeTempDir("encode_png_palette");
  const int width = 4, height = 2;
  const std::vector<uint8_t> palette = {255, 0, 0, 0, 255, 0, 0, 0, 255, 10, 20, 30};
  WriteSpecialPng(dir + "/palette.png", PngKind::kPalette, width, height, {0, 1, 2, 3, 3, 2, 1, 0},
                  palette);
  const Image paletted = ReadImageFile(dir + "/palette.png");
  ASSERT_EQ(paletted.channels, 3);
  ASSERT_EQ(paletted.width, 4);
  EXPECT_EQ(std::vector<uint8_t>(paletted.pixel(3, 0), paletted.pixel(3, 0) + 3),
            (std::vector<uint8_t>{10, 20, 30}));
  EXPECT_EQ(std::vector<uint8_t>(paletted.pixel(1, 1), paletted.pixel(1, 1) + 3),
            (std::vector<uint8_t>{0, 0, 255}));

  // Grey + alpha: composited onto black (value * alpha / 255).
  WriteSpecialPng(dir + "/grey_alpha.png", PngKind::kGreyAlpha, 2, 1, {200, 255, 200, 51});
  const Image grey = ReadImageFile(dir + "/grey_alpha.png");
  ASSERT_EQ(grey.channels, 1);
  EXPECT_EQ(grey.data, (std::vector<uint8_t>{200, 40}));

  WriteSpecialPng(dir + "/rgba.png", PngKind::kRgbAlpha, 1, 1, {100, 50, 250, 0});
  const Image rgba = ReadImageFile(dir + "/rgba.png");
  ASSERT_EQ(rgba.channels, 3);
  EXPECT_EQ(rgba.data, (std::vector<uint8_t>{0, 0, 0}));
}

TEST(ImageEncode, WritesAreAtomicAndErrorsNameThePath) {
  const std::string dir = MakeTempDir("encode_errors");
  const Image image = MakeTestImage(8, 8, 3);
  WriteJpeg(dir + "/a.jpg", image);
  WritePng(dir + "/a.png", image);
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    EXPECT_EQ(entry.path().filename().string().find(".tmp"), std::string::npos);
    ++files;
  }
  EXPECT_EQ(files, 2);

  try {
    WritePng(dir + "/no_such_folder/b.png", image);
    FAIL() << "expected InputError";
  } catch (const InputError& error) {
    EXPECT_THAT(error.what(), HasSubstr("b.png"));
  }
  Image broken = image;
  broken.data.pop_back();
  EXPECT_THROW(WriteJpeg(dir + "/broken.jpg", broken), InputError);
  EXPECT_THROW(WriteJpeg(dir + "/bad_quality.jpg", image, 0), InputError);
  EXPECT_FALSE(std::filesystem::exists(dir + "/broken.jpg"));
}

}  // namespace
}  // namespace proj
