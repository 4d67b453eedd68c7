#include "tests/io/test_images.h"

#include <libexif/exif-data.h>
#include <png.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <stdexcept>

#include "io/exif_writer.h"

namespace proj::testing {

Image MakeTestImage(int width, int height, int channels) {
  Image image;
  image.width = width;
  image.height = height;
  image.channels = channels;
  image.data.resize(static_cast<size_t>(width) * height * channels);
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      for (int c = 0; c < channels; ++c) {
        int value = (x * (3 + c) + y * (5 - c)) % 256;
        if (((x / 7) + (y / 5)) % 4 == 0) value = 255 - value;
        image.data[(static_cast<size_t>(y) * width + x) * channels + c] = static_cast<uint8_t>(value);
      }
    }
  }
  return image;
}

void WriteBytesToFile(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::ofstream stream(path, std::ios::binary | std::ios::trunc);
  stream.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (!stream.good()) throw std::runtime_error("cannot write " + path);
}

std::vector<uint8_t> JpegWithOrientation(const std::vector<uint8_t>& jpeg, int orientation) {
  ::ExifData* data = exif_data_new();
  exif_data_set_byte_order(data, EXIF_BYTE_ORDER_INTEL);
  ExifEntry* entry = exif_entry_new();
  exif_content_add_entry(data->ifd[EXIF_IFD_0], entry);
  exif_entry_initialize(entry, EXIF_TAG_ORIENTATION);
  exif_set_short(entry->data, EXIF_BYTE_ORDER_INTEL, static_cast<ExifShort>(orientation));
  exif_entry_unref(entry);
  unsigned char* block = nullptr;
  unsigned int size = 0;
  exif_data_save_data(data, &block, &size);
  exif_data_unref(data);
  if (block == nullptr) throw std::runtime_error("libexif save failed");
  std::vector<uint8_t> out = InsertApp1(jpeg, std::vector<uint8_t>(block, block + size));
  std::free(block);
  return out;
}

std::vector<uint8_t> InsertApp1(const std::vector<uint8_t>& jpeg, const std::vector<uint8_t>& payload) {
  return InsertApp1Segment(jpeg, payload);
}

void WriteSpecialPng(const std::string& path, PngKind kind, int width, int height,
                     const std::vector<uint16_t>& samples, const std::vector<uint8_t>& palette_rgb) {
  FILE* file = std::fopen(path.c_str(), "wb");
  if (file == nullptr) throw std::runtime_error("cannot open " + path);
  // A libpng failure here is a broken test setup: report and abort instead of longjmp.
  const auto on_error = [](png_structp, png_const_charp message) {
    std::fprintf(stderr, "libpng error in test helper: %s\n", message);
    std::abort();
  };
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, on_error, nullptr);
  png_infop info = png_create_info_struct(png);
  png_init_io(png, file);
  int color_type = PNG_COLOR_TYPE_GRAY, bit_depth = 8, channels = 1;
  switch (kind) {
    case PngKind::kGrey16: color_type = PNG_COLOR_TYPE_GRAY; bit_depth = 16; channels = 1; break;
    case PngKind::kRgb16: color_type = PNG_COLOR_TYPE_RGB; bit_depth = 16; channels = 3; break;
    case PngKind::kPalette: color_type = PNG_COLOR_TYPE_PALETTE; channels = 1; break;
    case PngKind::kGreyAlpha: color_type = PNG_COLOR_TYPE_GRAY_ALPHA; channels = 2; break;
    case PngKind::kRgbAlpha: color_type = PNG_COLOR_TYPE_RGB_ALPHA; channels = 4; break;
  }
  png_set_IHDR(png, info, width, height, bit_depth, color_type, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  std::vector<png_color> palette;
  if (kind == PngKind::kPalette) {
    for (size_t i = 0; i + 2 < palette_rgb.size(); i += 3) {
      palette.push_back({palette_rgb[i], palette_rgb[i + 1], palette_rgb[i + 2]});
    }
    png_set_PLTE(png, info, palette.data(), static_cast<int>(palette.size()));
  }
  png_write_info(png, info);
  const int bytes_per_sample = bit_depth / 8;
  std::vector<uint8_t> row(static_cast<size_t>(width) * channels * bytes_per_sample);
  for (int y = 0; y < height; ++y) {
    for (int i = 0; i < width * channels; ++i) {
      const uint16_t value = samples[static_cast<size_t>(y) * width * channels + i];
      if (bytes_per_sample == 2) {
        row[2 * i] = static_cast<uint8_t>(value >> 8);  // PNG is big-endian
        row[2 * i + 1] = static_cast<uint8_t>(value & 0xFF);
      } else {
        row[i] = static_cast<uint8_t>(value);
      }
    }
    png_write_row(png, row.data());
  }
  png_write_end(png, info);
  png_destroy_write_struct(&png, &info);
  std::fclose(file);
}

}  // namespace proj::testing
