#include "io/jpeg_markers.h"

#include <cstring>

namespace proj {
namespace {

constexpr char kXmpHeader[] = "http://ns.adobe.com/xap/1.0/";  // followed by a NUL

bool IsStartOfFrame(uint8_t marker) {
  // SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC).
  return marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC;
}

}  // namespace

JpegMarkerInfo ParseJpegMarkers(const uint8_t* data, size_t size) {
  using Status = JpegMarkerInfo::Status;
  JpegMarkerInfo info;
  if (size < 2 || data[0] != 0xFF || data[1] != 0xD8) {
    info.error = "missing JPEG start-of-image marker";
    return info;
  }
  size_t pos = 2;
  while (true) {
    // A marker is one or more 0xFF fill bytes followed by a non-0xFF code. Stray bytes
    // before it are skipped, as libjpeg does (it warns about "extraneous bytes").
    while (pos < size && data[pos] != 0xFF) ++pos;
    while (pos < size && data[pos] == 0xFF) ++pos;
    if (pos >= size) break;
    const uint8_t marker = data[pos++];
    if (marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7)) continue;  // no length field
    if (marker == 0xD9 || marker == 0xDA) {
      info.error = "no JPEG frame header before the image data";
      return info;
    }
    if (pos + 2 > size) break;
    const size_t length = (static_cast<size_t>(data[pos]) << 8) | data[pos + 1];
    if (length < 2) {
      info.error = "corrupt JPEG segment length";
      return info;
    }
    if (pos + length > size) break;
    const uint8_t* payload = data + pos + 2;
    const size_t payload_size = length - 2;
    if (marker == 0xE1 && info.exif == nullptr && payload_size >= 6 &&
        std::memcmp(payload, "Exif\0\0", 6) == 0) {
      info.exif = payload;
      info.exif_size = payload_size;
    }
    if (marker == 0xE1 && info.xmp == nullptr && payload_size >= sizeof(kXmpHeader) &&
        std::memcmp(payload, kXmpHeader, sizeof(kXmpHeader)) == 0) {
      info.xmp = payload + sizeof(kXmpHeader);
      info.xmp_size = payload_size - sizeof(kXmpHeader);
    }
    if (IsStartOfFrame(marker)) {
      if (payload_size < 6) {
        info.error = "corrupt JPEG frame header";
        return info;
      }
      info.precision_bits = payload[0];
      info.height = (payload[1] << 8) | payload[2];
      info.width = (payload[3] << 8) | payload[4];
      info.components = payload[5];
      info.status = Status::kComplete;
      return info;
    }
    pos += length;
  }
  info.status = Status::kNeedMoreData;
  return info;
}

}  // namespace proj
