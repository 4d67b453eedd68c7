#include "io/image_decode.h"

#include <turbojpeg.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/check.h"
#include "io/file_bytes.h"
#include "io/image_encode.h"
#include "io/image_orientation.h"
#include "tests/io/test_images.h"
#include "tests/support/test_data.h"

namespace proj {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using testing::MakeTempDir;
using testing::MakeTestImage;
using testing::WriteBytesToFile;

// The InputError message for decoding `path`, or "" if decoding succeeded.
std::string DecodeError(const std::string& path) {
  try {
    ReadImageFile(path);
  } catch (const InputError& error) {
    return error.what();
  }
  return "";
}

TEST(ImageDecode, StrechaJpeg) {
  PROJ_REQUIRE_SHARED_DATASET(path, "strecha/fountain-P11/images/0000.jpg");
  ImageInfo info;
  const Image image = ReadImageFile(path, &info);
  EXPECT_EQ(image.width, 3072);
  EXPECT_EQ(image.height, 2048);
  EXPECT_EQ(image.channels, 3);
  EXPECT_EQ(image.data.size(), 3072u * 2048u * 3u);
  EXPECT_EQ(info.format, ImageFormat::kJpeg);
  EXPECT_EQ(info.orientation, 1);
  // A photo, not a constant fill: the pixel values spread over the range.
  int low = 255, high = 0;
  for (size_t i = 0; i < image.data.size(); i += 997) {
    low = std::min<int>(low, image.data[i]);
    high = std::max<int>(high, image.data[i]);
  }
  EXPECT_GT(high - low, 150);

  const ImageInfo header = ReadImageHeader(path);
  EXPECT_EQ(header.width, 3072);
  EXPECT_EQ(header.height, 2048);
  EXPECT_EQ(header.channels, 3);
}

TEST(ImageDecode, DroneJpegWithLargeExif) {
  PROJ_REQUIRE_SHARED_DATASET(path, "drone/brighton_beach/images/DJI_0018.JPG");
  ImageInfo info;
  const Image image = ReadImageFile(path, &info);
  EXPECT_EQ(image.width, 4000);
  EXPECT_EQ(image.height, 2250);
  EXPECT_EQ(image.channels, 3);
  EXPECT_EQ(info.orientation, 1);
  const ImageInfo header = ReadImageHeader(path);
  EXPECT_EQ(header.width, 4000);
  EXPECT_EQ(header.height, 2250);
}

TEST(ImageDecode, FormatFromSignatureNotExtension) {
  const std::string dir = MakeTempDir("decode_signature");
  const Image rgb = MakeTestImage(40, 30, 3);
  const std::string png_named_jpg = dir + "/really_png.jpg";
  WritePng(png_named_jpg, rgb);
  ImageInfo info;
  const Image decoded = ReadImageFile(png_named_jpg, &info);
  EXPECT_EQ(info.format, ImageFormat::kPng);
  EXPECT_EQ(decoded.data, rgb.data);
  const std::string jpeg_named_png = dir + "/really_jpeg.png";
  WriteJpeg(jpeg_named_png, rgb, 90);
  ReadImageFile(jpeg_named_png, &info);
  EXPECT_EQ(info.format, ImageFormat::kJpeg);
}

TEST(ImageDecode, BadFilesThrowInputErrorNamingTheFile) {
  const std::string dir = MakeTempDir("decode_bad");

  const std::string missing = dir + "/missing.jpg";
  EXPECT_THAT(DecodeError(missing), AllOf(HasSubstr("missing.jpg"), HasSubstr("not found")));
  EXPECT_THROW(ReadImageHeader(missing), InputError);

  const std::string empty = dir + "/empty.jpg";
  WriteBytesToFile(empty, {});
  EXPECT_THAT(DecodeError(empty), AllOf(HasSubstr("empty.jpg"), HasSubstr("empty file")));
  EXPECT_THROW(ReadImageHeader(empty), InputError);

  const std::string text = dir + "/notes.jpg";
  const std::string words = "this is a text file, not a photo\n";
  WriteBytesToFile(text, std::vector<uint8_t>(words.begin(), words.end()));
  EXPECT_THAT(DecodeError(text), AllOf(HasSubstr("notes.jpg"), HasSubstr("not a JPEG or PNG")));
  EXPECT_THROW(ReadImageHeader(text), InputError);

  const std::string gif = dir + "/anim.jpg";
  WriteBytesToFile(gif, {'G', 'I', 'F', '8', '9', 'a', 0, 0, 0, 0});
  EXPECT_THAT(DecodeError(gif), AllOf(HasSubstr("anim.jpg"), HasSubstr("unsupported image format (GIF)")));

  EXPECT_THAT(DecodeError(dir), HasSubstr("is a folder"));
}

TEST(ImageDecode, TruncatedRealJpegIsAnError) {
  PROJ_REQUIRE_SHARED_DATASET(path, "strecha/fountain-P11/images/0001.jpg");
  const std::vector<uint8_t> bytes = ReadFileBytes(path);
  const std::string dir = MakeTempDir("decode_truncated");
  const std::string half = dir + "/half.jpg";
  WriteBytesToFile(half, std::vector<uint8_t>(bytes.begin(), bytes.begin() + bytes.size() / 2));
  EXPECT_THAT(DecodeError(half), AllOf(HasSubstr("half.jpg"), HasSubstr("truncated JPEG")));
  // The header alone is intact.
  EXPECT_EQ(ReadImageHeader(half).width, 3072);

  // Cut inside the headers: no frame header at all.
  const std::string stub = dir + "/stub.jpg";
  WriteBytesToFile(stub, std::vector<uint8_t>(bytes.begin(), bytes.begin() + 100));
  EXPECT_THAT(DecodeError(stub), AllOf(HasSubstr("stub.jpg"), HasSubstr("truncated JPEG")));
  EXPECT_THROW(ReadImageHeader(stub), InputError);
}

TEST(ImageDecode, TruncatedSmallJpegAndPng) {
  const std::string dir = MakeTempDir("decode_truncated_small");
  const Image rgb = MakeTestImage(64, 48, 3);
  const std::vector<uint8_t> jpeg = EncodeJpeg(rgb, 95);
  const std::string jpeg_path = dir + "/cut.jpg";
  WriteBytesToFile(jpeg_path, std::vector<uint8_t>(jpeg.begin(), jpeg.end() - jpeg.size() / 3));
  EXPECT_THAT(DecodeError(jpeg_path), AllOf(HasSubstr("cut.jpg"), HasSubstr("truncated JPEG")));

  const std::vector<uint8_t> png = EncodePng(rgb);
  const std::string png_path = dir + "/cut.png";
  WriteBytesToFile(png_path, std::vector<uint8_t>(png.begin(), png.begin() + png.size() / 2));
  EXPECT_THAT(DecodeError(png_path), AllOf(HasSubstr("cut.png"), HasSubstr("PNG")));
}

TEST(ImageDecode, CorruptJpegDataIsAnError) {
  const std::string dir = MakeTempDir("decode_corrupt");
  std::vector<uint8_t> jpeg = EncodeJpeg(MakeTestImage(64, 48, 3), 95);
  // Overwrite the middle of the entropy-coded data with a run of marker bytes.
  for (size_t i = jpeg.size() / 2; i < jpeg.size() / 2 + 40; ++i) jpeg[i] = (i % 2) ? 0xD3 : 0xFF;
  const std::string path = dir + "/garbled.jpg";
  WriteBytesToFile(path, jpeg);
  EXPECT_THAT(DecodeError(path), HasSubstr("garbled.jpg"));
}

TEST(ImageDecode, StrayBytesBetweenSegmentsAreTolerated) {
  const Image rgb = MakeTestImage(64, 48, 3);
  std::vector<uint8_t> jpeg = EncodeJpeg(rgb, 95);
  const Image clean = DecodeImage(jpeg.data(), jpeg.size(), "clean.jpg");
  // Insert garbage after the first segment following SOI (libjpeg: "extraneous bytes").
  const size_t first_length = (jpeg[4] << 8) | jpeg[5];
  const size_t after_first = 4 + first_length;
  jpeg.insert(jpeg.begin() + after_first, {0x12, 0x34, 0x56});
  const Image decoded = DecodeImage(jpeg.data(), jpeg.size(), "stray.jpg");
  EXPECT_EQ(decoded.data, clean.data);
}

TEST(ImageDecode, CmykJpegBecomesRgb) {
  // Adobe-style CMYK (inverted inks): C = M = Y = 255 means no colour ink, K is the
  // brightness, so the RGB result is (K, K, K).
  const int width = 32, height = 16;
  std::vector<uint8_t> cmyk(width * height * 4);
  for (int i = 0; i < width * height; ++i) {
    cmyk[4 * i] = cmyk[4 * i + 1] = cmyk[4 * i + 2] = 255;
    cmyk[4 * i + 3] = (i % width) < width / 2 ? 40 : 220;
  }
  tjhandle handle = tjInitCompress();
  unsigned char* buffer = nullptr;
  unsigned long size = 0;
  ASSERT_EQ(tjCompress2(handle, cmyk.data(), width, 0, height, TJPF_CMYK, &buffer, &size, TJSAMP_444, 100, 0), 0);
  const std::vector<uint8_t> jpeg(buffer, buffer + size);
  tjFree(buffer);
  tjDestroy(handle);
  const Image image = DecodeImage(jpeg.data(), jpeg.size(), "cmyk.jpg");
  ASSERT_EQ(image.channels, 3);
  ASSERT_EQ(image.width, width);
  for (int c = 0; c < 3; ++c) {
    EXPECT_NEAR(image.pixel(4, 8)[c], 40, 3);
    EXPECT_NEAR(image.pixel(28, 8)[c], 220, 3);
  }
}

TEST(ImageDecode, GreyJpegStaysGrey) {
  const std::string dir = MakeTempDir("decode_grey_jpeg");
  const Image grey = MakeTestImage(50, 40, 1);
  WriteJpeg(dir + "/grey.jpg", grey, 100);
  const Image decoded = ReadImageFile(dir + "/grey.jpg");
  EXPECT_EQ(decoded.channels, 1);
  EXPECT_EQ(decoded.width, 50);
  EXPECT_EQ(decoded.height, 40);
  EXPECT_EQ(ReadImageHeader(dir + "/grey.jpg").channels, 1);
}

// Stored 3x2 image "a b c / d e f" (one grey value per letter) under each orientation.
TEST(ImageOrientation, AllEightOrientations) {
  Image stored;
  stored.width = 3;
  stored.height = 2;
  stored.channels = 1;
  stored.data = {'a', 'b', 'c', 'd', 'e', 'f'};
  const auto upright = [&](int orientation) {
    const Image image = ApplyExifOrientation(stored, orientation);
    std::string rows;
    for (int y = 0; y < image.height; ++y) {
      if (y > 0) rows += '/';
      for (int x = 0; x < image.width; ++x) rows += static_cast<char>(*image.pixel(x, y));
    }
    return rows;
  };
  EXPECT_EQ(upright(1), "abc/def");
  EXPECT_EQ(upright(2), "cba/fed");  // mirrored left-right
  EXPECT_EQ(upright(3), "fed/cba");  // rotated 180
  EXPECT_EQ(upright(4), "def/abc");  // mirrored top-bottom
  EXPECT_EQ(upright(5), "ad/be/cf");  // transposed
  EXPECT_EQ(upright(6), "da/eb/fc");  // rotated 90 clockwise
  EXPECT_EQ(upright(7), "fc/eb/da");  // transverse
  EXPECT_EQ(upright(8), "cf/be/ad");  // rotated 90 counter-clockwise
  EXPECT_EQ(upright(0), "abc/def");  // invalid values leave the image as is
}

// Mean colour of a block, to compare quadrants after lossy JPEG coding.
double BlockMean(const Image& image, int x0, int y0, int size, int channel) {
  double sum = 0;
  for (int y = y0; y < y0 + size; ++y) {
    for (int x = x0; x < x0 + size; ++x) sum += image.pixel(x, y)[channel];
  }
  return sum / (size * size);
}

TEST(ImageDecode, ExifOrientationIsApplied) {
  // 64x32 stored image: left half red, right half blue, with a green square at top-left.
  Image stored;
  stored.width = 64;
  stored.height = 32;
  stored.channels = 3;
  stored.data.resize(64 * 32 * 3);
  for (int y = 0; y < 32; ++y) {
    for (int x = 0; x < 64; ++x) {
      uint8_t* p = &stored.data[(y * 64 + x) * 3];
      p[0] = x < 32 ? 220 : 20;
      p[2] = x < 32 ? 20 : 220;
      p[1] = (x < 16 && y < 16) ? 220 : 20;
    }
  }
  const std::string dir = MakeTempDir("decode_orientation");
  const std::vector<uint8_t> jpeg = EncodeJpeg(stored, 98);
  const std::string path = dir + "/rotated.jpg";
  WriteBytesToFile(path, testing::JpegWithOrientation(jpeg, 6));

  ImageInfo info;
  const Image image = ReadImageFile(path, &info);
  EXPECT_EQ(info.orientation, 6);
  EXPECT_EQ(info.stored_width, 64);
  EXPECT_EQ(info.stored_height, 32);
  ASSERT_EQ(image.width, 32);
  ASSERT_EQ(image.height, 64);
  // Rotated 90 deg clockwise: the stored left (red) half is now the top, and the stored
  // top-left green square is now at the top-right.
  EXPECT_GT(BlockMean(image, 4, 4, 8, 0), 180);   // top: red
  EXPECT_GT(BlockMean(image, 4, 44, 8, 2), 180);  // bottom: blue
  EXPECT_GT(BlockMean(image, 20, 4, 8, 1), 180);  // top-right: green
  EXPECT_LT(BlockMean(image, 4, 4, 8, 1), 60);    // top-left: not green

  const ImageInfo header = ReadImageHeader(path);
  EXPECT_EQ(header.orientation, 6);
  EXPECT_EQ(header.width, 32);
  EXPECT_EQ(header.height, 64);

  // Orientation 1 keeps the stored layout.
  WriteBytesToFile(path, testing::JpegWithOrientation(jpeg, 1));
  const Image plain = ReadImageFile(path, &info);
  EXPECT_EQ(info.orientation, 1);
  EXPECT_EQ(plain.width, 64);
}

}  // namespace
}  // namespace proj
