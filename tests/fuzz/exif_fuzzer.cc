// libFuzzer target: EXIF parsing (io/exif.h) of arbitrary bytes, as a whole JPEG stream or an
// APP1 payload, and the focal length derived from what it finds. Malformed EXIF is advisory:
// ParseExif must return, never throw or crash.
#include <cstddef>
#include <cstdint>

#include "io/exif.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const proj::ExifData exif = proj::ParseExif(data, size);
  // Both the stored size and a resized one reach the scaling branch of the focal prior.
  for (const int width : {640, 4000}) {
    proj::FocalLengthPixelsFromExif(exif, width, width * 3 / 4);
    proj::IgnoredFocalLengthReason(exif, width, width * 3 / 4);
  }
  proj::FocalPlaneResolutionPxPerMm(exif);
  return 0;
}
