// Hand-made EXIF blocks ("Exif\0\0" + little-endian TIFF) for the bad-input corpus: values
// and links that libexif's writer would not produce (negative focal lengths, IFDs that point
// to themselves, counts past the end of the block).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace proj::testing {

enum TiffType : uint16_t { kTiffAscii = 2, kTiffShort = 3, kTiffLong = 4, kTiffRational = 5, kTiffSRational = 10 };

struct TiffEntry {
  uint16_t tag = 0;
  uint16_t type = kTiffShort;
  uint32_t count = 1;
  std::vector<uint8_t> value;  // count values, little-endian
};

TiffEntry ShortEntry(uint16_t tag, uint16_t value);
TiffEntry RationalEntry(uint16_t tag, uint32_t numerator, uint32_t denominator);
TiffEntry SRationalEntry(uint16_t tag, int32_t numerator, int32_t denominator);
TiffEntry AsciiEntry(uint16_t tag, const std::string& text);
// Degrees, minutes, seconds as three rationals (GPS latitude and longitude).
TiffEntry DegreesEntry(uint16_t tag, uint32_t degrees);

// IFD0 at offset 8 holding `ifd0` and, when `sub` is not empty, a pointer entry `sub_tag`
// (0x8769 Exif IFD, 0x8825 GPS IFD) to a second IFD holding `sub`. `ifd0_next` is IFD0's
// next-IFD offset (0: none; 8: IFD0 itself, a loop).
std::vector<uint8_t> ExifBlock(std::vector<TiffEntry> ifd0, const std::vector<TiffEntry>& sub = {},
                               uint16_t sub_tag = 0x8769, uint32_t ifd0_next = 0);

}  // namespace proj::testing
