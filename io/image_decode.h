// Image file decoding: JPEG through TurboJPEG, PNG through libpng. The format is detected
// from the file's signature (magic bytes), never from its extension.
//
// Output is an 8-bit Image with 1 (grey) or 3 (RGB) channels:
//  - JPEG: greyscale stays grey; YCbCr/RGB and CMYK become RGB. 12-bit JPEGs are rejected.
//  - PNG: grey (any bit depth) stays grey; RGB and palette become RGB; 16-bit samples are
//    scaled to 8 bits (round(v * 255 / 65535)); an alpha channel is composited onto black.
//    Gamma chunks are ignored (samples are used as stored).
//  - The EXIF orientation of a JPEG is applied, so the returned pixels are upright; PNG
//    orientation metadata is not interpreted.
// Images larger than DecodeOptions::max_pixels are refused from their header, before any
// pixel memory is allocated (a few bytes can claim 100,000 x 100,000 pixels).
// Every bad file (missing, empty, truncated, corrupt, unsupported) throws proj::InputError
// whose message starts with the quoted file name and gives the reason. Decoder warnings
// about missing or corrupt data count as errors, so a truncated JPEG is never accepted with
// grey filler. Thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "io/image.h"

namespace proj {

enum class ImageFormat { kJpeg, kPng };

struct ImageInfo {
  ImageFormat format = ImageFormat::kJpeg;
  int width = 0;     // upright, i.e. after the EXIF orientation is applied
  int height = 0;
  int channels = 0;  // channels ReadImageFile returns: 1 or 3
  int orientation = 1;  // EXIF orientation applied (1..8; 1 when absent)
  int stored_width = 0;   // as stored in the file, before the orientation
  int stored_height = 0;
};

// 250 megapixels: a 3-channel image of this size takes 750 MB.
constexpr long long kDefaultMaxImagePixels = 250'000'000;

struct DecodeOptions {
  // Width x height above which an image is refused; the message names the limit and the
  // option that raises it (--max-image-pixels).
  long long max_pixels = kDefaultMaxImagePixels;
};

// Decodes the file. `info` (optional) receives the format, size and applied orientation.
Image ReadImageFile(const std::string& path, ImageInfo* info = nullptr,
                    const DecodeOptions& options = {});

// Same, from bytes in memory; `name` is used in error messages.
Image DecodeImage(const uint8_t* data, size_t size, const std::string& name,
                  ImageInfo* info = nullptr, const DecodeOptions& options = {});

// Size, channels and orientation from the file's headers only (reads the first kilobytes
// of the file, no pixel decoding). Throws InputError like ReadImageFile for bad headers; a
// file whose pixel data is damaged may still pass here.
ImageInfo ReadImageHeader(const std::string& path, const DecodeOptions& options = {});

}  // namespace proj
