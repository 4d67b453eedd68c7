// EXIF metadata relevant to SfM (focal length, sensor resolution, orientation, GPS), read
// with libexif from JPEG files.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "io/drone_xmp.h"

namespace proj {

// What GPSAltitudeRef says the altitude is measured from: sea level (0 above, 1 below; the
// EXIF default) or, since Exif 3.0, the WGS84 ellipsoid (2 above, 3 below).
enum class GpsAltitudeReference { kSeaLevel, kEllipsoid };

struct GpsPosition {
  double latitude_deg = 0;   // WGS84, north positive
  double longitude_deg = 0;  // WGS84, east positive
  std::optional<double> altitude_m;  // above altitude_reference (negative below it)
  std::optional<double> horizontal_error_m;  // GPSHPositioningError, when stated
  std::optional<double> dop;                 // GPSDOP (dilution of precision), when stated
  GpsAltitudeReference altitude_reference = GpsAltitudeReference::kSeaLevel;
};

// Only what the file states: absent or zero/invalid tags are nullopt.
struct ExifData {
  std::optional<double> focal_length_mm;          // FocalLength
  std::optional<double> focal_length_35mm;        // FocalLengthIn35mmFilm, in mm
  std::optional<double> focal_plane_x_resolution;  // FocalPlaneXResolution, pixels per unit
  // FocalPlaneResolutionUnit as stored: 2 inch (the EXIF default), 3 cm; some cameras write
  // the non-standard 4 mm and 5 um.
  std::optional<int> focal_plane_resolution_unit;
  std::optional<int> pixel_x_dimension;  // PixelXDimension: image width the tags refer to
  std::optional<int> pixel_y_dimension;
  std::string make;   // trimmed, "" when absent
  std::string model;
  // Orientation tag, 1..8 (1 = upright, 6 = stored image needs a 90 deg clockwise rotation).
  int orientation = 1;
  std::optional<GpsPosition> gps;  // present when latitude and longitude are
  // DateTimeOriginal ("YYYY:MM:DD HH:MM:SS", camera clock, no time zone) with
  // SubSecTimeOriginal, as seconds since 1970-01-01 of that clock; nullopt when absent or
  // malformed. Differences between images of one camera are what it is good for.
  std::optional<double> capture_time_s;
  DroneXmp drone;  // flight metadata of the XMP packet (ReadExif only; empty when absent)

  bool has_orientation_tag = false;
  // FocalLength or FocalLengthIn35mmFilm is present but zero, negative or not a number.
  bool invalid_focal_tag = false;
};

// Reads the EXIF block (and the XMP packet, for `drone`) of a JPEG. A file without EXIF (or a PNG) gives a default ExifData;
// a missing or unreadable file throws InputError naming it.
ExifData ReadExif(const std::string& path);

// Parses an EXIF block: either a whole JPEG stream or an APP1 payload starting with "Exif\0\0".
// Malformed or absent EXIF gives a default ExifData (EXIF is advisory, never fatal).
ExifData ParseExif(const uint8_t* data, size_t size);

// FocalPlaneXResolution converted to pixels per millimetre (of the PixelXDimension image).
std::optional<double> FocalPlaneResolutionPxPerMm(const ExifData& exif);

// Focal length in pixels of an image of width x height pixels:
//  1. 35 mm equivalent:  f_px = f35 / 36 * max(width, height);
//  2. else f_mm * focal-plane resolution (px/mm), scaled by max(width, height) /
//     max(PixelXDimension, PixelYDimension) when the image was resized;
//  3. else nullopt. Implausible results (outside 0.05..50 x max(width, height)) are nullopt.
std::optional<double> FocalLengthPixelsFromExif(const ExifData& exif, int width, int height);

// Why the file's focal length tags give no prior for a width x height image: "" when they
// give one or there are none to use; otherwise the reason (an invalid tag, or a result
// outside 0.05..50 x the longer side), for a warning.
std::string IgnoredFocalLengthReason(const ExifData& exif, int width, int height);

}  // namespace proj
