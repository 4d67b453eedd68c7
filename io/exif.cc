#include "io/exif.h"

#include <libexif/exif-data.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <string_view>
#include <vector>

#include "io/file_bytes.h"
#include "io/jpeg_markers.h"

namespace proj {
namespace {

// libexif's own type is ::ExifData; ours is proj::ExifData.
using LibExifData = ::ExifData;

ExifEntry* FindEntry(LibExifData* data, ExifIfd ifd, int tag) {
  return exif_content_get_entry(data->ifd[ifd], static_cast<ExifTag>(tag));
}

std::optional<double> RationalAt(const ExifEntry* entry, ExifByteOrder order, unsigned index) {
  if (entry == nullptr || index >= entry->components) return std::nullopt;
  const size_t offset = 8 * static_cast<size_t>(index);
  if (entry->size < offset + 8) return std::nullopt;
  if (entry->format == EXIF_FORMAT_RATIONAL) {
    const ExifRational r = exif_get_rational(entry->data + offset, order);
    if (r.denominator == 0) return std::nullopt;
    return static_cast<double>(r.numerator) / r.denominator;
  }
  if (entry->format == EXIF_FORMAT_SRATIONAL) {
    const ExifSRational r = exif_get_srational(entry->data + offset, order);
    if (r.denominator == 0) return std::nullopt;
    return static_cast<double>(r.numerator) / r.denominator;
  }
  return std::nullopt;
}

// First component of an integer-typed entry.
std::optional<long> IntegerValue(const ExifEntry* entry, ExifByteOrder order) {
  if (entry == nullptr || entry->components < 1 || entry->data == nullptr) return std::nullopt;
  switch (entry->format) {
    case EXIF_FORMAT_BYTE:
      if (entry->size >= 1) return entry->data[0];
      break;
    case EXIF_FORMAT_SHORT:
      if (entry->size >= 2) return exif_get_short(entry->data, order);
      break;
    case EXIF_FORMAT_SSHORT:
      if (entry->size >= 2) return exif_get_sshort(entry->data, order);
      break;
    case EXIF_FORMAT_LONG:
      if (entry->size >= 4) return static_cast<long>(exif_get_long(entry->data, order));
      break;
    case EXIF_FORMAT_SLONG:
      if (entry->size >= 4) return exif_get_slong(entry->data, order);
      break;
    case EXIF_FORMAT_RATIONAL:
    case EXIF_FORMAT_SRATIONAL: {
      const auto value = RationalAt(entry, order, 0);
      if (value) return std::lround(*value);
      break;
    }
    default:
      break;
  }
  return std::nullopt;
}

std::string AsciiValue(const ExifEntry* entry) {
  if (entry == nullptr || entry->data == nullptr) return "";
  std::string value(reinterpret_cast<const char*>(entry->data), entry->size);
  value = value.substr(0, value.find('\0'));
  const auto not_space = [](char c) { return c != ' ' && c != '\t' && c != '\n' && c != '\r'; };
  value.erase(value.begin(), std::find_if(value.begin(), value.end(), not_space));
  value.erase(std::find_if(value.rbegin(), value.rend(), not_space).base(), value.end());
  return value;
}

std::optional<double> PositiveRational(const ExifEntry* entry, ExifByteOrder order) {
  const auto value = RationalAt(entry, order, 0);
  if (value && std::isfinite(*value) && *value > 0) return value;
  return std::nullopt;
}

// Degrees, minutes, seconds -> signed degrees, using the N/S or E/W reference.
std::optional<double> GpsCoordinate(const ExifEntry* value, const ExifEntry* ref,
                                    ExifByteOrder order, char negative_ref) {
  if (value == nullptr || value->components < 3) return std::nullopt;
  const auto deg = RationalAt(value, order, 0);
  const auto min = RationalAt(value, order, 1);
  const auto sec = RationalAt(value, order, 2);
  if (!deg || !min || !sec) return std::nullopt;
  double result = *deg + *min / 60.0 + *sec / 3600.0;
  const std::string reference = AsciiValue(ref);
  if (!reference.empty() && (reference[0] == negative_ref)) result = -result;
  if (!std::isfinite(result)) return std::nullopt;
  return result;
}

// "YYYY:MM:DD HH:MM:SS" (and "123" fractional digits) -> seconds since 1970-01-01 of the same
// clock; nullopt for anything else (blank "    :  :     :  :  " included).
std::optional<double> CaptureTimeSeconds(const std::string& date_time, const std::string& sub_seconds) {
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  char tail = 0;
  if (std::sscanf(date_time.c_str(), "%4d:%2d:%2d %2d:%2d:%2d%c", &year, &month, &day, &hour,
                  &minute, &second, &tail) != 6) {
    return std::nullopt;
  }
  if (year < 1900 || month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 ||
      minute > 59 || second > 60) {
    return std::nullopt;
  }
  // Days since the epoch of a proleptic Gregorian date (Howard Hinnant's days_from_civil).
  const int y = year - (month <= 2);
  const int era = (y >= 0 ? y : y - 399) / 400;
  const int year_of_era = y - era * 400;
  const int day_of_year = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
  const int day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
  const double days = era * 146097.0 + day_of_era - 719468;
  double seconds = days * 86400 + hour * 3600 + minute * 60 + second;
  if (!sub_seconds.empty() &&
      std::all_of(sub_seconds.begin(), sub_seconds.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    seconds += std::stod("0." + sub_seconds);
  }
  return seconds;
}

ExifData Extract(LibExifData* data) {
  ExifData exif;
  const ExifByteOrder order = exif_data_get_byte_order(data);

  const ExifEntry* focal = FindEntry(data, EXIF_IFD_EXIF, EXIF_TAG_FOCAL_LENGTH);
  exif.focal_length_mm = PositiveRational(focal, order);
  const ExifEntry* focal_35mm = FindEntry(data, EXIF_IFD_EXIF, EXIF_TAG_FOCAL_LENGTH_IN_35MM_FILM);
  if (const auto f35 = IntegerValue(focal_35mm, order); f35 && *f35 > 0) {
    exif.focal_length_35mm = static_cast<double>(*f35);
  }
  exif.invalid_focal_tag = (focal != nullptr && !exif.focal_length_mm) ||
                           (focal_35mm != nullptr && !exif.focal_length_35mm);
  exif.focal_plane_x_resolution = PositiveRational(
      FindEntry(data, EXIF_IFD_EXIF, EXIF_TAG_FOCAL_PLANE_X_RESOLUTION), order);
  if (const auto unit = IntegerValue(
          FindEntry(data, EXIF_IFD_EXIF, EXIF_TAG_FOCAL_PLANE_RESOLUTION_UNIT), order)) {
    exif.focal_plane_resolution_unit = static_cast<int>(*unit);
  }
  if (const auto x = IntegerValue(FindEntry(data, EXIF_IFD_EXIF, EXIF_TAG_PIXEL_X_DIMENSION), order);
      x && *x > 0) {
    exif.pixel_x_dimension = static_cast<int>(*x);
  }
  if (const auto y = IntegerValue(FindEntry(data, EXIF_IFD_EXIF, EXIF_TAG_PIXEL_Y_DIMENSION), order);
      y && *y > 0) {
    exif.pixel_y_dimension = static_cast<int>(*y);
  }
  exif.make = AsciiValue(FindEntry(data, EXIF_IFD_0, EXIF_TAG_MAKE));
  exif.model = AsciiValue(FindEntry(data, EXIF_IFD_0, EXIF_TAG_MODEL));
  if (const auto orientation = IntegerValue(FindEntry(data, EXIF_IFD_0, EXIF_TAG_ORIENTATION), order)) {
    exif.has_orientation_tag = true;
    if (*orientation >= 1 && *orientation <= 8) exif.orientation = static_cast<int>(*orientation);
  }

  exif.capture_time_s =
      CaptureTimeSeconds(AsciiValue(FindEntry(data, EXIF_IFD_EXIF, EXIF_TAG_DATE_TIME_ORIGINAL)),
                         AsciiValue(FindEntry(data, EXIF_IFD_EXIF, EXIF_TAG_SUB_SEC_TIME_ORIGINAL)));
  const auto latitude = GpsCoordinate(FindEntry(data, EXIF_IFD_GPS, EXIF_TAG_GPS_LATITUDE),
                                      FindEntry(data, EXIF_IFD_GPS, EXIF_TAG_GPS_LATITUDE_REF),
                                      order, 'S');
  const auto longitude = GpsCoordinate(FindEntry(data, EXIF_IFD_GPS, EXIF_TAG_GPS_LONGITUDE),
                                       FindEntry(data, EXIF_IFD_GPS, EXIF_TAG_GPS_LONGITUDE_REF),
                                       order, 'W');
  if (latitude && longitude && std::abs(*latitude) <= 90 && std::abs(*longitude) <= 180) {
    GpsPosition gps;
    gps.latitude_deg = *latitude;
    gps.longitude_deg = *longitude;
    if (const auto altitude =
            RationalAt(FindEntry(data, EXIF_IFD_GPS, EXIF_TAG_GPS_ALTITUDE), order, 0)) {
      const auto ref = IntegerValue(FindEntry(data, EXIF_IFD_GPS, EXIF_TAG_GPS_ALTITUDE_REF), order);
      gps.altitude_m = (ref && (*ref == 1 || *ref == 3)) ? -*altitude : *altitude;
      if (ref && (*ref == 2 || *ref == 3)) gps.altitude_reference = GpsAltitudeReference::kEllipsoid;
    }
    gps.horizontal_error_m = PositiveRational(
        FindEntry(data, EXIF_IFD_GPS, EXIF_TAG_GPS_H_POSITIONING_ERROR), order);
    gps.dop = PositiveRational(FindEntry(data, EXIF_IFD_GPS, EXIF_TAG_GPS_DOP), order);
    exif.gps = gps;
  }
  return exif;
}

}  // namespace

ExifData ParseExif(const uint8_t* data, size_t size) {
  if (data == nullptr || size == 0 || size > 0xFFFFFFFFu) return ExifData();
  LibExifData* exif_data = exif_data_new();
  if (exif_data == nullptr) return ExifData();
  // Report what the file says: "following the specification" would make libexif insert
  // default values (e.g. an Orientation or resolution unit) for absent mandatory tags.
  exif_data_unset_option(exif_data, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION);
  exif_data_load_data(exif_data, data, static_cast<unsigned int>(size));
  ExifData result = Extract(exif_data);
  exif_data_unref(exif_data);
  return result;
}

ExifData ReadExif(const std::string& path) {
  // The EXIF block precedes the frame header; read a growing prefix until it is reached.
  size_t file_size = 0;
  size_t prefix = 256 * 1024;
  while (true) {
    const std::vector<uint8_t> bytes = ReadFilePrefix(path, prefix, &file_size);
    if (bytes.size() < 2 || bytes[0] != 0xFF || bytes[1] != 0xD8) return ExifData();
    const JpegMarkerInfo info = ParseJpegMarkers(bytes.data(), bytes.size());
    const bool complete =
        info.status != JpegMarkerInfo::Status::kNeedMoreData || bytes.size() >= file_size;
    // EXIF and XMP both precede the frame header; stop early once both are in.
    if (complete || (info.exif != nullptr && info.xmp != nullptr)) {
      ExifData exif = info.exif != nullptr ? ParseExif(info.exif, info.exif_size) : ExifData();
      if (info.xmp != nullptr) {
        exif.drone = ParseDroneXmp(
            std::string_view(reinterpret_cast<const char*>(info.xmp), info.xmp_size));
      }
      return exif;
    }
    prefix *= 4;
  }
}

std::optional<double> FocalPlaneResolutionPxPerMm(const ExifData& exif) {
  if (!exif.focal_plane_x_resolution) return std::nullopt;
  double unit_mm = 25.4;  // EXIF default unit: inch
  switch (exif.focal_plane_resolution_unit.value_or(2)) {
    case 2: unit_mm = 25.4; break;
    case 3: unit_mm = 10.0; break;
    case 4: unit_mm = 1.0; break;
    case 5: unit_mm = 0.001; break;
    default: return std::nullopt;  // 1 = "no unit" and unknown codes carry no scale
  }
  return *exif.focal_plane_x_resolution / unit_mm;
}

namespace {

// The focal length in pixels the tags state, plausible or not.
std::optional<double> StatedFocalLengthPixels(const ExifData& exif, int width, int height) {
  const double max_side = std::max(width, height);
  std::optional<double> focal_px;
  if (exif.focal_length_35mm) {
    focal_px = *exif.focal_length_35mm / 36.0 * max_side;
  } else if (exif.focal_length_mm) {
    if (const auto px_per_mm = FocalPlaneResolutionPxPerMm(exif)) {
      double scale = 1.0;
      if (exif.pixel_x_dimension && exif.pixel_y_dimension) {
        scale = max_side / std::max(*exif.pixel_x_dimension, *exif.pixel_y_dimension);
      }
      focal_px = *exif.focal_length_mm * *px_per_mm * scale;
    }
  }
  return focal_px;
}

bool PlausibleFocal(double focal_px, int width, int height) {
  const double max_side = std::max(width, height);
  return std::isfinite(focal_px) && focal_px >= 0.05 * max_side && focal_px <= 50 * max_side;
}

}  // namespace

std::optional<double> FocalLengthPixelsFromExif(const ExifData& exif, int width, int height) {
  if (width <= 0 || height <= 0) return std::nullopt;
  const std::optional<double> focal_px = StatedFocalLengthPixels(exif, width, height);
  if (!focal_px || !PlausibleFocal(*focal_px, width, height)) return std::nullopt;
  return focal_px;
}

std::string IgnoredFocalLengthReason(const ExifData& exif, int width, int height) {
  if (width <= 0 || height <= 0) return "";
  const std::optional<double> focal_px = StatedFocalLengthPixels(exif, width, height);
  if (focal_px && !PlausibleFocal(*focal_px, width, height)) {
    std::ostringstream reason;
    reason << "it gives " << *focal_px << " px, outside 0.05..50 x the longer image side";
    return reason.str();
  }
  if (!focal_px && exif.invalid_focal_tag) return "a focal length tag is zero, negative or not a number";
  return "";
}

}  // namespace proj
