#include "tests/reliability/exif_bytes.h"

namespace proj::testing {
namespace {

void Append16(uint32_t value, std::vector<uint8_t>* out) {
  out->push_back(static_cast<uint8_t>(value & 0xFF));
  out->push_back(static_cast<uint8_t>((value >> 8) & 0xFF));
}

void Append32(uint32_t value, std::vector<uint8_t>* out) {
  Append16(value & 0xFFFF, out);
  Append16(value >> 16, out);
}

// One IFD placed at `offset` of the TIFF block, followed by its out-of-line values.
std::vector<uint8_t> IfdBytes(const std::vector<TiffEntry>& entries, uint32_t offset, uint32_t next) {
  std::vector<uint8_t> ifd, data;
  const uint32_t data_offset = offset + 2 + 12 * static_cast<uint32_t>(entries.size()) + 4;
  Append16(static_cast<uint32_t>(entries.size()), &ifd);
  for (const TiffEntry& entry : entries) {
    Append16(entry.tag, &ifd);
    Append16(entry.type, &ifd);
    Append32(entry.count, &ifd);
    if (entry.value.size() <= 4) {
      std::vector<uint8_t> inline_value = entry.value;
      inline_value.resize(4, 0);
      ifd.insert(ifd.end(), inline_value.begin(), inline_value.end());
    } else {
      Append32(data_offset + static_cast<uint32_t>(data.size()), &ifd);
      data.insert(data.end(), entry.value.begin(), entry.value.end());
      if (data.size() % 2 != 0) data.push_back(0);
    }
  }
  Append32(next, &ifd);
  ifd.insert(ifd.end(), data.begin(), data.end());
  return ifd;
}

}  // namespace

TiffEntry ShortEntry(uint16_t tag, uint16_t value) {
  TiffEntry entry{tag, kTiffShort, 1, {}};
  Append16(value, &entry.value);
  return entry;
}

TiffEntry RationalEntry(uint16_t tag, uint32_t numerator, uint32_t denominator) {
  TiffEntry entry{tag, kTiffRational, 1, {}};
  Append32(numerator, &entry.value);
  Append32(denominator, &entry.value);
  return entry;
}

TiffEntry SRationalEntry(uint16_t tag, int32_t numerator, int32_t denominator) {
  TiffEntry entry{tag, kTiffSRational, 1, {}};
  Append32(static_cast<uint32_t>(numerator), &entry.value);
  Append32(static_cast<uint32_t>(denominator), &entry.value);
  return entry;
}

TiffEntry AsciiEntry(uint16_t tag, const std::string& text) {
  TiffEntry entry{tag, kTiffAscii, static_cast<uint32_t>(text.size() + 1), {}};
  entry.value.assign(text.begin(), text.end());
  entry.value.push_back(0);
  return entry;
}

TiffEntry DegreesEntry(uint16_t tag, uint32_t degrees) {
  TiffEntry entry{tag, kTiffRational, 3, {}};
  for (const uint32_t value : {degrees, 0u, 0u}) {
    Append32(value, &entry.value);
    Append32(1, &entry.value);
  }
  return entry;
}

std::vector<uint8_t> ExifBlock(std::vector<TiffEntry> ifd0, const std::vector<TiffEntry>& sub,
                               uint16_t sub_tag, uint32_t ifd0_next) {
  if (!sub.empty()) {
    ifd0.push_back(TiffEntry{sub_tag, kTiffLong, 1, {0, 0, 0, 0}});
    const uint32_t sub_offset = 8 + static_cast<uint32_t>(IfdBytes(ifd0, 8, ifd0_next).size());
    ifd0.back().value.clear();
    Append32(sub_offset, &ifd0.back().value);
  }
  std::vector<uint8_t> block = {'E', 'x', 'i', 'f', 0, 0, 'I', 'I', 42, 0, 8, 0, 0, 0};
  const std::vector<uint8_t> first = IfdBytes(ifd0, 8, ifd0_next);
  block.insert(block.end(), first.begin(), first.end());
  if (!sub.empty()) {
    const std::vector<uint8_t> second = IfdBytes(sub, 8 + static_cast<uint32_t>(first.size()), 0);
    block.insert(block.end(), second.begin(), second.end());
  }
  return block;
}

}  // namespace proj::testing
