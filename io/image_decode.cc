#include "io/image_decode.h"

#include <png.h>
#include <turbojpeg.h>

#include <algorithm>
#include <cctype>
#include <csetjmp>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

#include "core/check.h"
#include "core/logging.h"
#include "io/exif.h"
#include "io/file_bytes.h"
#include "io/image_orientation.h"
#include "io/jpeg_markers.h"

namespace proj {
namespace {

constexpr uint8_t kPngSignature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};

enum class Signature { kJpeg, kPng, kUnknown };

Signature DetectFormat(const uint8_t* data, size_t size, const std::string& name) {
  PROJ_REQUIRE(size > 0, "'" << name << "': empty file (0 bytes)");
  if (size >= 2 && data[0] == 0xFF && data[1] == 0xD8) return Signature::kJpeg;
  if (size >= 8 && std::memcmp(data, kPngSignature, 8) == 0) return Signature::kPng;
  const auto starts_with = [&](const char* magic, size_t offset = 0) {
    const size_t n = std::strlen(magic);
    return size >= offset + n && std::memcmp(data + offset, magic, n) == 0;
  };
  const char* other = nullptr;
  if (starts_with("GIF8")) other = "GIF";
  else if (starts_with("BM")) other = "BMP";
  else if (starts_with("II*") || starts_with("MM")) other = "TIFF";
  else if (starts_with("RIFF") && starts_with("WEBP", 8)) other = "WebP";
  else if (starts_with("ftypheic", 4) || starts_with("ftypheix", 4) || starts_with("ftypmif1", 4)) other = "HEIF";
  else if (starts_with("ftypavif", 4)) other = "AVIF";
  PROJ_REQUIRE(other == nullptr, "'" << name << "': unsupported image format (" << other
                                     << "); convert it to JPEG or PNG");
  PROJ_REQUIRE(false, "'" << name << "': not a JPEG or PNG image (unrecognized file signature)");
  return Signature::kUnknown;
}

bool ContainsNoCase(std::string text, const std::string& needle) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text.find(needle) != std::string::npos;
}

void RequireSize(long long width, long long height, const std::string& name,
                 const DecodeOptions& options) {
  PROJ_REQUIRE(width > 0 && height > 0,
               "'" << name << "': invalid image size " << width << "x" << height);
  PROJ_REQUIRE(static_cast<double>(width) * height <= static_cast<double>(options.max_pixels),
               "'" << name << "': image too large (" << width << "x" << height << " = "
                   << width * height << " pixels; the limit is " << options.max_pixels
                   << " pixels, raise it with --max-image-pixels)");
}

// ---------------------------------------------------------------------------------------
// JPEG

void RequireDecodableJpeg(const JpegMarkerInfo& markers, const std::string& name,
                          const DecodeOptions& options) {
  using Status = JpegMarkerInfo::Status;
  PROJ_REQUIRE(markers.status != Status::kInvalid,
               "'" << name << "': corrupt JPEG (" << markers.error << ")");
  PROJ_REQUIRE(markers.status != Status::kNeedMoreData,
               "'" << name << "': truncated JPEG (premature end of data)");
  PROJ_REQUIRE(markers.precision_bits == 8, "'" << name << "': unsupported "
                                                << markers.precision_bits << "-bit JPEG");
  PROJ_REQUIRE(markers.components == 1 || markers.components == 3 || markers.components == 4,
               "'" << name << "': unsupported JPEG with " << markers.components
                   << " colour components");
  PROJ_REQUIRE(markers.height > 0, "'" << name << "': unsupported JPEG without a height in "
                                          "its frame header (DNL marker)");
  RequireSize(markers.width, markers.height, name, options);
}

struct TjDeleter {
  void operator()(void* handle) const { tjDestroy(handle); }
};

// After a TurboJPEG call failed: throws unless it only warned about stray bytes between
// segments (harmless: the decoder skips them). Warnings about missing or corrupt data mean
// grey or garbage pixels, so they are errors. A stream that ran out of data before its
// end-of-image marker is truncated; a complete one that stops early ("premature end of data
// segment": a marker inside the scan) is corrupt.
void RequireHarmlessTjWarning(tjhandle handle, const uint8_t* data, size_t size,
                              const std::string& name) {
  const std::string message = tjGetErrorStr2(handle);
  const bool warning = tjGetErrorCode(handle) == TJERR_WARNING;
  const bool ends_with_eoi = size >= 2 && data[size - 2] == 0xFF && data[size - 1] == 0xD9;
  PROJ_REQUIRE(ends_with_eoi || !(ContainsNoCase(message, "premature end") ||
                                  ContainsNoCase(message, "missing sos")),
               "'" << name << "': truncated JPEG (premature end of data)");
  PROJ_REQUIRE(warning && ContainsNoCase(message, "extraneous bytes"),
               "'" << name << "': corrupt JPEG (" << message << ")");
}

Image DecodeJpeg(const uint8_t* data, size_t size, const std::string& name, ImageInfo* info,
                 const DecodeOptions& options) {
  const JpegMarkerInfo markers = ParseJpegMarkers(data, size);
  RequireDecodableJpeg(markers, name, options);
  std::unique_ptr<void, TjDeleter> handle(tjInitDecompress());
  PROJ_CHECK(handle != nullptr, "tjInitDecompress failed: " << tjGetErrorStr2(nullptr));
  int width = 0, height = 0, subsampling = 0, colorspace = 0;
  const unsigned long jpeg_size = static_cast<unsigned long>(size);
  if (tjDecompressHeader3(handle.get(), data, jpeg_size, &width, &height, &subsampling,
                          &colorspace) != 0) {
    RequireHarmlessTjWarning(handle.get(), data, size, name);
  }
  RequireSize(width, height, name, options);
  const bool cmyk = colorspace == TJCS_CMYK || colorspace == TJCS_YCCK;
  const int pixel_format = colorspace == TJCS_GRAY ? TJPF_GRAY : cmyk ? TJPF_CMYK : TJPF_RGB;
  const int decoded_channels = tjPixelSize[pixel_format];
  std::vector<uint8_t> pixels(static_cast<size_t>(width) * height * decoded_channels);
  if (tjDecompress2(handle.get(), data, jpeg_size, pixels.data(), width, 0, height,
                    pixel_format, 0) != 0) {
    RequireHarmlessTjWarning(handle.get(), data, size, name);
    PROJ_LOG(kWarning, "'" << name << "': " << tjGetErrorStr2(handle.get()));
  }
  Image image;
  image.width = width;
  image.height = height;
  if (cmyk) {
    // Adobe CMYK JPEGs store inverted inks, so channel * K / 255 is the RGB value.
    image.channels = 3;
    image.data.resize(static_cast<size_t>(width) * height * 3);
    for (size_t i = 0, n = static_cast<size_t>(width) * height; i < n; ++i) {
      const int k = pixels[4 * i + 3];
      for (int c = 0; c < 3; ++c) image.data[3 * i + c] = static_cast<uint8_t>((pixels[4 * i + c] * k + 127) / 255);
    }
  } else {
    image.channels = decoded_channels;
    image.data = std::move(pixels);
  }
  int orientation = 1;
  if (markers.exif != nullptr) orientation = ParseExif(markers.exif, markers.exif_size).orientation;
  if (info != nullptr) {
    info->format = ImageFormat::kJpeg;
    info->stored_width = width;
    info->stored_height = height;
    info->orientation = orientation;
    info->channels = image.channels;
  }
  if (orientation != 1) image = ApplyExifOrientation(image, orientation);
  if (info != nullptr) {
    info->width = image.width;
    info->height = image.height;
  }
  return image;
}

// ---------------------------------------------------------------------------------------
// PNG. libpng reports errors by longjmp; the functions that call setjmp hold no C++
// objects with destructors, so no destructor is skipped.

struct PngReadState {
  const uint8_t* data = nullptr;
  size_t size = 0;
  size_t position = 0;
  char error[256] = {0};
};

void PngError(png_structp png, png_const_charp message) {
  auto* state = static_cast<PngReadState*>(png_get_error_ptr(png));
  std::snprintf(state->error, sizeof(state->error), "%s", message);
  png_longjmp(png, 1);
}

void PngWarning(png_structp /*png*/, png_const_charp /*message*/) {}

void PngRead(png_structp png, png_bytep out, size_t count) {
  auto* state = static_cast<PngReadState*>(png_get_io_ptr(png));
  if (state->size - state->position < count) png_error(png, "premature end of data");
  std::memcpy(out, state->data + state->position, count);
  state->position += count;
}

struct PngLayout {
  png_uint_32 width = 0;
  png_uint_32 height = 0;
  int channels = 0;  // after the transforms: 1 grey, 2 grey+alpha, 3 RGB, 4 RGBA
  size_t row_bytes = 0;
};

// Reads the header and sets up the 8-bit transforms. Returns false with state->error set.
bool PngReadHeader(png_structp png, png_infop png_info, PngReadState* state, PngLayout* layout) {
  if (setjmp(png_jmpbuf(png))) return false;
  png_set_read_fn(png, state, PngRead);
  png_read_info(png, png_info);
  const int color_type = png_get_color_type(png, png_info);
  const int bit_depth = png_get_bit_depth(png, png_info);
  if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
  if (color_type == PNG_COLOR_TYPE_GRAY && bit_depth < 8) png_set_expand_gray_1_2_4_to_8(png);
  if (png_get_valid(png, png_info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(png);
  if (bit_depth == 16) png_set_scale_16(png);
  png_set_interlace_handling(png);
  png_read_update_info(png, png_info);
  layout->width = png_get_image_width(png, png_info);
  layout->height = png_get_image_height(png, png_info);
  layout->channels = png_get_channels(png, png_info);
  layout->row_bytes = png_get_rowbytes(png, png_info);
  return true;
}

bool PngReadPixels(png_structp png, png_infop png_info, const PngLayout& layout, uint8_t* out) {
  if (setjmp(png_jmpbuf(png))) return false;
  const int passes = png_set_interlace_handling(png);
  for (int pass = 0; pass < passes; ++pass) {
    for (png_uint_32 y = 0; y < layout.height; ++y) {
      png_read_row(png, out + y * layout.row_bytes, nullptr);
    }
  }
  png_read_end(png, png_info);
  return true;
}

// After libpng failed: throws, naming truncation or the corruption libpng reported.
void RequireNotTruncatedPng(const PngReadState& state, const std::string& name) {
  const bool truncated = ContainsNoCase(state.error, "premature end") ||
                         ContainsNoCase(state.error, "not enough image data");
  PROJ_REQUIRE(!truncated, "'" << name << "': truncated PNG (premature end of data)");
  PROJ_REQUIRE(false, "'" << name << "': corrupt PNG (" << state.error << ")");
}

Image DecodePng(const uint8_t* data, size_t size, const std::string& name, ImageInfo* info,
                const DecodeOptions& options) {
  PngReadState state;
  state.data = data;
  state.size = size;
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &state, PngError, PngWarning);
  PROJ_CHECK(png != nullptr, "png_create_read_struct failed");
  png_infop png_info = png_create_info_struct(png);
  PROJ_CHECK(png_info != nullptr, "png_create_info_struct failed");
  struct Cleanup {
    png_structp* png;
    png_infop* info;
    ~Cleanup() { png_destroy_read_struct(png, info, nullptr); }
  } cleanup{&png, &png_info};

  PngLayout layout;
  if (!PngReadHeader(png, png_info, &state, &layout)) RequireNotTruncatedPng(state, name);
  RequireSize(layout.width, layout.height, name, options);
  PROJ_CHECK(layout.channels >= 1 && layout.channels <= 4 &&
                 layout.row_bytes == static_cast<size_t>(layout.width) * layout.channels,
             "unexpected PNG layout after 8-bit transforms");
  std::vector<uint8_t> raw(layout.row_bytes * layout.height);
  if (!PngReadPixels(png, png_info, layout, raw.data())) RequireNotTruncatedPng(state, name);

  Image image;
  image.width = static_cast<int>(layout.width);
  image.height = static_cast<int>(layout.height);
  const bool alpha = layout.channels == 2 || layout.channels == 4;
  image.channels = alpha ? layout.channels - 1 : layout.channels;
  if (!alpha) {
    image.data = std::move(raw);
  } else {
    // Composite onto black: value * alpha / 255, rounded.
    const size_t pixels = static_cast<size_t>(image.width) * image.height;
    image.data.resize(pixels * image.channels);
    for (size_t i = 0; i < pixels; ++i) {
      const uint8_t* in = &raw[i * layout.channels];
      const int a = in[image.channels];
      for (int c = 0; c < image.channels; ++c) {
        image.data[i * image.channels + c] = static_cast<uint8_t>((in[c] * a + 127) / 255);
      }
    }
  }
  if (info != nullptr) {
    info->format = ImageFormat::kPng;
    info->width = info->stored_width = image.width;
    info->height = info->stored_height = image.height;
    info->channels = image.channels;
    info->orientation = 1;
  }
  return image;
}

// PNG header: signature, then the IHDR chunk (length, "IHDR", width, height, depth, type).
ImageInfo PngHeaderInfo(const std::vector<uint8_t>& bytes, const std::string& name,
                        const DecodeOptions& options) {
  PROJ_REQUIRE(bytes.size() >= 26 && std::memcmp(&bytes[12], "IHDR", 4) == 0,
               "'" << name << "': corrupt PNG (missing IHDR header)");
  const auto be32 = [&](size_t i) {
    return (static_cast<uint32_t>(bytes[i]) << 24) | (bytes[i + 1] << 16) | (bytes[i + 2] << 8) |
           bytes[i + 3];
  };
  ImageInfo info;
  info.format = ImageFormat::kPng;
  const long long width = be32(16), height = be32(20);
  RequireSize(width, height, name, options);
  info.width = info.stored_width = static_cast<int>(width);
  info.height = info.stored_height = static_cast<int>(height);
  const int color_type = bytes[25];
  info.channels = (color_type == PNG_COLOR_TYPE_GRAY || color_type == PNG_COLOR_TYPE_GRAY_ALPHA) ? 1 : 3;
  return info;
}

}  // namespace

Image DecodeImage(const uint8_t* data, size_t size, const std::string& name, ImageInfo* info,
                  const DecodeOptions& options) {
  switch (DetectFormat(data, size, name)) {
    case Signature::kJpeg: return DecodeJpeg(data, size, name, info, options);
    case Signature::kPng: return DecodePng(data, size, name, info, options);
    case Signature::kUnknown: break;
  }
  PROJ_CHECK(false, "unreachable");
  return Image();
}

Image ReadImageFile(const std::string& path, ImageInfo* info, const DecodeOptions& options) {
  const std::vector<uint8_t> bytes = ReadFileBytes(path);
  return DecodeImage(bytes.data(), bytes.size(), path, info, options);
}

ImageInfo ReadImageHeader(const std::string& path, const DecodeOptions& options) {
  size_t file_size = 0;
  size_t prefix = 64 * 1024;
  while (true) {
    const std::vector<uint8_t> bytes = ReadFilePrefix(path, prefix, &file_size);
    const Signature signature = DetectFormat(bytes.data(), bytes.size(), path);
    if (signature == Signature::kPng) return PngHeaderInfo(bytes, path, options);
    const JpegMarkerInfo markers = ParseJpegMarkers(bytes.data(), bytes.size());
    if (markers.status == JpegMarkerInfo::Status::kNeedMoreData && bytes.size() < file_size) {
      prefix *= 4;
      continue;
    }
    RequireDecodableJpeg(markers, path, options);
    ImageInfo info;
    info.format = ImageFormat::kJpeg;
    info.stored_width = markers.width;
    info.stored_height = markers.height;
    info.channels = markers.components == 1 ? 1 : 3;
    if (markers.exif != nullptr) info.orientation = ParseExif(markers.exif, markers.exif_size).orientation;
    const bool swap = OrientationSwapsAxes(info.orientation);
    info.width = swap ? markers.height : markers.width;
    info.height = swap ? markers.width : markers.height;
    return info;
  }
}

}  // namespace proj
