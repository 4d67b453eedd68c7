#include "tests/reliability/image_bytes.h"

#include <zlib.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>

namespace proj::testing {
namespace {

uint32_t BigEndian32(const Bytes& bytes, size_t offset) {
  return (static_cast<uint32_t>(bytes[offset]) << 24) | (bytes[offset + 1] << 16) |
         (bytes[offset + 2] << 8) | bytes[offset + 3];
}

void AppendBigEndian32(uint32_t value, Bytes* out) {
  for (int shift = 24; shift >= 0; shift -= 8) out->push_back(static_cast<uint8_t>(value >> shift));
}

void AppendPngChunk(const char type[4], const Bytes& data, Bytes* png) {
  const size_t offset = png->size();
  AppendBigEndian32(static_cast<uint32_t>(data.size()), png);
  png->insert(png->end(), type, type + 4);
  png->insert(png->end(), data.begin(), data.end());
  AppendBigEndian32(0, png);
  FixPngCrc(png, offset);
}

}  // namespace

size_t FindPngChunk(const Bytes& png, const char type[4]) {
  for (size_t offset = 8; offset + 12 <= png.size();) {
    if (std::memcmp(&png[offset + 4], type, 4) == 0) return offset;
    offset += 12 + BigEndian32(png, offset);
  }
  throw std::runtime_error(std::string("PNG chunk not found: ") + std::string(type, 4));
}

void FixPngCrc(Bytes* png, size_t offset) {
  const uint32_t length = BigEndian32(*png, offset);
  const uint32_t crc = static_cast<uint32_t>(crc32(0, png->data() + offset + 4, length + 4));
  for (int i = 0; i < 4; ++i) (*png)[offset + 8 + length + i] = static_cast<uint8_t>(crc >> (24 - 8 * i));
}

Bytes PngHeaderClaiming(uint32_t width, uint32_t height) {
  Bytes png = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
  Bytes header;
  AppendBigEndian32(width, &header);
  AppendBigEndian32(height, &header);
  header.insert(header.end(), {8, 2, 0, 0, 0});  // 8-bit RGB, deflate, no filter, no interlace
  AppendPngChunk("IHDR", header, &png);
  AppendPngChunk("IDAT", {0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01}, &png);  // empty zlib
  AppendPngChunk("IEND", {}, &png);
  return png;
}

size_t JpegScanStart(const Bytes& jpeg) {
  for (size_t offset = 2; offset + 4 <= jpeg.size();) {
    if (jpeg[offset] != 0xFF) break;
    const uint8_t marker = jpeg[offset + 1];
    const size_t length = (jpeg[offset + 2] << 8) | jpeg[offset + 3];
    if (marker == 0xDA) return offset + 2 + length;
    offset += 2 + length;
  }
  throw std::runtime_error("JPEG without a scan");
}

Bytes JpegClaiming(const Bytes& jpeg, uint16_t width, uint16_t height) {
  Bytes out = jpeg;
  for (size_t offset = 2; offset + 9 <= out.size();) {
    const uint8_t marker = out[offset + 1];
    if (marker >= 0xC0 && marker <= 0xC2) {  // SOF0..2: length, precision, height, width
      out[offset + 5] = static_cast<uint8_t>(height >> 8);
      out[offset + 6] = static_cast<uint8_t>(height & 0xFF);
      out[offset + 7] = static_cast<uint8_t>(width >> 8);
      out[offset + 8] = static_cast<uint8_t>(width & 0xFF);
      return out;
    }
    offset += 2 + ((out[offset + 2] << 8) | out[offset + 3]);
  }
  throw std::runtime_error("JPEG without a frame header");
}

Bytes ReadBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  return Bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace proj::testing
