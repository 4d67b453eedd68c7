// Helpers for the io tests: synthetic test images and small file utilities.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "io/image.h"

namespace proj::testing {

// A deterministic image with smooth gradients plus a few sharp blocks.
Image MakeTestImage(int width, int height, int channels);

void WriteBytesToFile(const std::string& path, const std::vector<uint8_t>& bytes);

// `jpeg` with an APP1 EXIF block (made with libexif) holding the Orientation tag, inserted
// right after the SOI marker.
std::vector<uint8_t> JpegWithOrientation(const std::vector<uint8_t>& jpeg, int orientation);
// `jpeg` with an APP1 segment holding `payload` (e.g. "Exif\0\0" and a TIFF block) right
// after the SOI marker.
std::vector<uint8_t> InsertApp1(const std::vector<uint8_t>& jpeg, const std::vector<uint8_t>& payload);

// Writes a PNG with libpng directly: 16-bit grey/RGB, palette or alpha variants that the
// project's encoder does not produce. `samples` holds width*height*channels values
// (0..65535 for 16 bits, palette indices for palette images).
enum class PngKind { kGrey16, kRgb16, kPalette, kGreyAlpha, kRgbAlpha };
void WriteSpecialPng(const std::string& path, PngKind kind, int width, int height,
                     const std::vector<uint16_t>& samples,
                     const std::vector<uint8_t>& palette_rgb = {});

}  // namespace proj::testing
