// JPEG marker walk (ITU T.81 Annex B) up to the frame header, for the image size, the number
// of components and the EXIF and XMP (APP1) blocks without decoding. Internal to io/.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace proj {

struct JpegMarkerInfo {
  // kComplete: the frame header was found. kNeedMoreData: the buffer ended first (read more of
  // the file, or the file is truncated). kInvalid: not a well-formed JPEG marker stream;
  // `error` says why.
  enum class Status { kComplete, kNeedMoreData, kInvalid };
  Status status = Status::kInvalid;
  std::string error;
  int width = 0;
  int height = 0;
  int components = 0;          // 1 grey, 3 YCbCr/RGB, 4 CMYK/YCCK
  int precision_bits = 0;      // 8 for baseline; 12/16 are not decodable here
  const uint8_t* exif = nullptr;  // APP1 payload starting with "Exif\0\0", or null
  size_t exif_size = 0;
  const uint8_t* xmp = nullptr;   // APP1 XMP packet (after its namespace header), or null
  size_t xmp_size = 0;
};

// `data` must start with the SOI marker (FF D8).
JpegMarkerInfo ParseJpegMarkers(const uint8_t* data, size_t size);

}  // namespace proj
