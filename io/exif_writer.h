// Writing EXIF: the subset of ExifData that synthetic images carry (make, model, focal length
// in 35 mm terms, capture time, GPS position with its altitude reference and accuracy),
// encoded with libexif into an APP1 segment.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "io/exif.h"
#include "io/image.h"

namespace proj {

// The APP1 payload ("Exif\0\0" + TIFF block) of `exif`'s make, model, focal_length_35mm,
// capture_time_s (DateTimeOriginal, SubSecTimeOriginal in milliseconds) and gps (latitude,
// longitude, altitude and its reference, horizontal error); other fields are not written.
std::vector<uint8_t> EncodeExifBlock(const ExifData& exif);

// `jpeg` with an APP1 segment holding `payload` right after its start-of-image marker.
// Throws InputError when `jpeg` does not start with SOI or the payload exceeds 65,533 bytes.
std::vector<uint8_t> InsertApp1Segment(const std::vector<uint8_t>& jpeg,
                                       const std::vector<uint8_t>& payload);

// Encodes `image` as JPEG with `exif`'s tags and writes it atomically; throws InputError
// naming `path` on failure.
void WriteJpegWithExif(const std::string& path, const Image& image, const ExifData& exif,
                       int quality = 95);

}  // namespace proj
