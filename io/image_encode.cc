#include "io/image_encode.h"

#include <png.h>
#include <turbojpeg.h>

#include <cstdio>
#include <cstring>
#include <memory>

#include "core/check.h"
#include "io/atomic_file.h"

namespace proj {
namespace {

void RequireValidImage(const Image& image, const char* what) {
  PROJ_REQUIRE(image.width > 0 && image.height > 0,
               what << ": invalid image size " << image.width << "x" << image.height);
  PROJ_REQUIRE(image.channels == 1 || image.channels == 3,
               what << ": unsupported channel count " << image.channels << " (need 1 or 3)");
  PROJ_REQUIRE(image.data.size() == static_cast<size_t>(image.width) * image.height * image.channels,
               what << ": pixel buffer holds " << image.data.size() << " bytes, expected "
                    << static_cast<size_t>(image.width) * image.height * image.channels);
}

void WriteBytes(const std::string& path, const std::vector<uint8_t>& bytes) {
  WriteFileAtomically(
      path,
      [&](std::ostream& stream) {
        stream.write(reinterpret_cast<const char*>(bytes.data()),
                     static_cast<std::streamsize>(bytes.size()));
      },
      /*binary=*/true);
}

struct TjDeleter {
  void operator()(void* handle) const { tjDestroy(handle); }
};

// libpng reports errors by longjmp; PngEncodeRows holds no C++ objects with destructors.
struct PngWriteState {
  std::vector<uint8_t>* out = nullptr;
  char error[256] = {0};
};

void PngError(png_structp png, png_const_charp message) {
  auto* state = static_cast<PngWriteState*>(png_get_error_ptr(png));
  std::snprintf(state->error, sizeof(state->error), "%s", message);
  png_longjmp(png, 1);
}

void PngWarning(png_structp /*png*/, png_const_charp /*message*/) {}

void PngWrite(png_structp png, png_bytep data, size_t count) {
  auto* state = static_cast<PngWriteState*>(png_get_io_ptr(png));
  state->out->insert(state->out->end(), data, data + count);
}

void PngFlush(png_structp /*png*/) {}

bool PngEncodeRows(png_structp png, png_infop info, PngWriteState* state, const Image* image) {
  if (setjmp(png_jmpbuf(png))) return false;
  png_set_write_fn(png, state, PngWrite, PngFlush);
  png_set_IHDR(png, info, static_cast<png_uint_32>(image->width),
               static_cast<png_uint_32>(image->height), 8,
               image->channels == 1 ? PNG_COLOR_TYPE_GRAY : PNG_COLOR_TYPE_RGB,
               PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_set_compression_level(png, 6);
  png_write_info(png, info);
  const size_t stride = static_cast<size_t>(image->width) * image->channels;
  for (int y = 0; y < image->height; ++y) {
    png_write_row(png, const_cast<png_bytep>(&image->data[y * stride]));
  }
  png_write_end(png, info);
  return true;
}

}  // namespace

std::vector<uint8_t> EncodeJpeg(const Image& image, int quality) {
  RequireValidImage(image, "JPEG encoding");
  PROJ_REQUIRE(quality >= 1 && quality <= 100, "JPEG quality must be in [1, 100], got " << quality);
  std::unique_ptr<void, TjDeleter> handle(tjInitCompress());
  PROJ_CHECK(handle != nullptr, "tjInitCompress failed: " << tjGetErrorStr2(nullptr));
  const int pixel_format = image.channels == 1 ? TJPF_GRAY : TJPF_RGB;
  const int subsampling = image.channels == 1 ? TJSAMP_GRAY : quality >= 90 ? TJSAMP_444 : TJSAMP_420;
  unsigned char* buffer = nullptr;
  unsigned long size = 0;
  const int result = tjCompress2(handle.get(), image.data.data(), image.width, 0, image.height,
                                 pixel_format, &buffer, &size, subsampling, quality, 0);
  std::unique_ptr<unsigned char, decltype(&tjFree)> owned(buffer, &tjFree);
  PROJ_CHECK(result == 0, "JPEG encoding failed: " << tjGetErrorStr2(handle.get()));
  return std::vector<uint8_t>(buffer, buffer + size);
}

std::vector<uint8_t> EncodePng(const Image& image) {
  RequireValidImage(image, "PNG encoding");
  std::vector<uint8_t> bytes;
  PngWriteState state;
  state.out = &bytes;
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &state, PngError, PngWarning);
  PROJ_CHECK(png != nullptr, "png_create_write_struct failed");
  png_infop info = png_create_info_struct(png);
  PROJ_CHECK(info != nullptr, "png_create_info_struct failed");
  const bool ok = PngEncodeRows(png, info, &state, &image);
  png_destroy_write_struct(&png, &info);
  PROJ_CHECK(ok, "PNG encoding failed: " << state.error);
  return bytes;
}

void WriteJpeg(const std::string& path, const Image& image, int quality) {
  RequireValidImage(image, ("'" + path + "'").c_str());
  WriteBytes(path, EncodeJpeg(image, quality));
}

void WritePng(const std::string& path, const Image& image) {
  RequireValidImage(image, ("'" + path + "'").c_str());
  WriteBytes(path, EncodePng(image));
}

}  // namespace proj
