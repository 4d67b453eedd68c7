#include "io/exif_writer.h"

#include <libexif/exif-data.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "core/check.h"
#include "io/atomic_file.h"
#include "io/image_encode.h"

namespace proj {
namespace {

using LibExifData = ::ExifData;
constexpr ExifByteOrder kOrder = EXIF_BYTE_ORDER_INTEL;

// A new entry of `components` values of `format` in `ifd`; the IFD owns it.
ExifEntry* AddEntry(LibExifData* data, ExifIfd ifd, int tag, ExifFormat format,
                    unsigned components) {
  ExifMem* memory = exif_mem_new_default();
  ExifEntry* entry = exif_entry_new_mem(memory);
  const unsigned size = exif_format_get_size(format) * components;
  entry->data = static_cast<unsigned char*>(exif_mem_alloc(memory, size));
  PROJ_CHECK(entry->data != nullptr, "out of memory writing EXIF");
  entry->size = size;
  entry->tag = static_cast<ExifTag>(tag);
  entry->format = format;
  entry->components = components;
  exif_content_add_entry(data->ifd[ifd], entry);
  exif_entry_unref(entry);
  exif_mem_unref(memory);
  return entry;
}

void AddAscii(LibExifData* data, ExifIfd ifd, int tag, const std::string& text) {
  ExifEntry* entry = AddEntry(data, ifd, tag, EXIF_FORMAT_ASCII,
                              static_cast<unsigned>(text.size() + 1));
  std::memcpy(entry->data, text.c_str(), text.size() + 1);
}

// A non-negative value as a rational with `denominator`.
ExifRational Rational(double value, uint32_t denominator) {
  return ExifRational{static_cast<ExifLong>(std::llround(value * denominator)), denominator};
}

void AddRationals(LibExifData* data, int tag, const std::vector<ExifRational>& values) {
  ExifEntry* entry = AddEntry(data, EXIF_IFD_GPS, tag, EXIF_FORMAT_RATIONAL,
                              static_cast<unsigned>(values.size()));
  for (size_t i = 0; i < values.size(); ++i) exif_set_rational(entry->data + 8 * i, kOrder, values[i]);
}

// Degrees as EXIF's degrees, minutes, seconds (seconds to a micro-arcsecond, 0.03 mm).
std::vector<ExifRational> DegreesMinutesSeconds(double degrees) {
  degrees = std::abs(degrees);
  const double whole = std::floor(degrees);
  const double minutes = std::floor((degrees - whole) * 60);
  const double seconds = ((degrees - whole) * 60 - minutes) * 60;
  return {Rational(whole, 1), Rational(minutes, 1), Rational(seconds, 1000000)};
}

void AddGps(LibExifData* data, const GpsPosition& gps) {
  ExifEntry* version = AddEntry(data, EXIF_IFD_GPS, EXIF_TAG_GPS_VERSION_ID, EXIF_FORMAT_BYTE, 4);
  const unsigned char version_2_3[4] = {2, 3, 0, 0};
  std::memcpy(version->data, version_2_3, 4);
  AddAscii(data, EXIF_IFD_GPS, EXIF_TAG_GPS_LATITUDE_REF, gps.latitude_deg < 0 ? "S" : "N");
  AddRationals(data, EXIF_TAG_GPS_LATITUDE, DegreesMinutesSeconds(gps.latitude_deg));
  AddAscii(data, EXIF_IFD_GPS, EXIF_TAG_GPS_LONGITUDE_REF, gps.longitude_deg < 0 ? "W" : "E");
  AddRationals(data, EXIF_TAG_GPS_LONGITUDE, DegreesMinutesSeconds(gps.longitude_deg));
  if (gps.altitude_m) {
    ExifEntry* ref = AddEntry(data, EXIF_IFD_GPS, EXIF_TAG_GPS_ALTITUDE_REF, EXIF_FORMAT_BYTE, 1);
    const bool ellipsoid = gps.altitude_reference == GpsAltitudeReference::kEllipsoid;
    ref->data[0] = static_cast<unsigned char>((ellipsoid ? 2 : 0) + (*gps.altitude_m < 0 ? 1 : 0));
    AddRationals(data, EXIF_TAG_GPS_ALTITUDE, {Rational(std::abs(*gps.altitude_m), 1000)});
  }
  if (gps.horizontal_error_m) {
    AddRationals(data, EXIF_TAG_GPS_H_POSITIONING_ERROR, {Rational(*gps.horizontal_error_m, 1000)});
  }
}

// Seconds since 1970-01-01 (>= 0) as DateTimeOriginal and SubSecTimeOriginal (milliseconds).
void AddCaptureTime(LibExifData* data, double time_s) {
  const int64_t milliseconds = std::llround(time_s * 1000);
  const int64_t seconds = milliseconds / 1000;
  // Civil date from days since the epoch (Howard Hinnant's civil_from_days).
  const int64_t z = seconds / 86400 + 719468;
  const int64_t era = z / 146097;
  const int64_t day_of_era = z - era * 146097;
  const int64_t year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
  const int64_t day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
  const int64_t mp = (5 * day_of_year + 2) / 153;
  const int64_t day = day_of_year - (153 * mp + 2) / 5 + 1;
  const int64_t month = mp < 10 ? mp + 3 : mp - 9;
  const int64_t year = year_of_era + era * 400 + (month <= 2);
  const int64_t of_day = seconds % 86400;
  char text[32];
  std::snprintf(text, sizeof(text), "%04d:%02d:%02d %02d:%02d:%02d", static_cast<int>(year),
                static_cast<int>(month), static_cast<int>(day), static_cast<int>(of_day / 3600),
                static_cast<int>(of_day / 60 % 60), static_cast<int>(of_day % 60));
  AddAscii(data, EXIF_IFD_EXIF, EXIF_TAG_DATE_TIME_ORIGINAL, text);
  std::snprintf(text, sizeof(text), "%03d", static_cast<int>(milliseconds % 1000));
  AddAscii(data, EXIF_IFD_EXIF, EXIF_TAG_SUB_SEC_TIME_ORIGINAL, text);
}

}  // namespace

std::vector<uint8_t> EncodeExifBlock(const ExifData& exif) {
  if (exif.gps) {
    PROJ_REQUIRE(std::isfinite(exif.gps->latitude_deg) && std::abs(exif.gps->latitude_deg) <= 90 &&
                     std::isfinite(exif.gps->longitude_deg) &&
                     std::abs(exif.gps->longitude_deg) <= 180,
                 "cannot write EXIF GPS latitude " << exif.gps->latitude_deg << ", longitude "
                                                   << exif.gps->longitude_deg);
  }
  if (exif.capture_time_s) {
    PROJ_REQUIRE(std::isfinite(*exif.capture_time_s) && *exif.capture_time_s >= 0 &&
                     *exif.capture_time_s < 253402300800.0,  // year 10000
                 "cannot write EXIF capture time " << *exif.capture_time_s << " s");
  }
  // Owned by a unique_ptr: a throw below must not leak libexif's tree (LeakSanitizer).
  const std::unique_ptr<LibExifData, void (*)(LibExifData*)> owner(exif_data_new(), exif_data_unref);
  LibExifData* data = owner.get();
  PROJ_CHECK(data != nullptr, "out of memory writing EXIF");
  exif_data_set_byte_order(data, kOrder);
  exif_data_unset_option(data, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION);
  if (!exif.make.empty()) AddAscii(data, EXIF_IFD_0, EXIF_TAG_MAKE, exif.make);
  if (!exif.model.empty()) AddAscii(data, EXIF_IFD_0, EXIF_TAG_MODEL, exif.model);
  if (exif.focal_length_35mm) {
    ExifEntry* entry = AddEntry(data, EXIF_IFD_EXIF, EXIF_TAG_FOCAL_LENGTH_IN_35MM_FILM,
                                EXIF_FORMAT_SHORT, 1);
    exif_set_short(entry->data, kOrder, static_cast<ExifShort>(std::lround(*exif.focal_length_35mm)));
  }
  if (exif.capture_time_s) AddCaptureTime(data, *exif.capture_time_s);
  if (exif.gps) AddGps(data, *exif.gps);
  unsigned char* block = nullptr;
  unsigned int size = 0;
  exif_data_save_data(data, &block, &size);
  PROJ_CHECK(block != nullptr, "libexif could not encode the EXIF block");
  std::vector<uint8_t> payload(block, block + size);
  std::free(block);
  return payload;
}

std::vector<uint8_t> InsertApp1Segment(const std::vector<uint8_t>& jpeg,
                                       const std::vector<uint8_t>& payload) {
  PROJ_REQUIRE(jpeg.size() >= 2 && jpeg[0] == 0xFF && jpeg[1] == 0xD8,
               "cannot add an APP1 segment: the data is not a JPEG stream");
  PROJ_REQUIRE(payload.size() + 2 <= 0xFFFF,
               "an APP1 segment holds at most 65,533 bytes, not " << payload.size());
  const size_t length = payload.size() + 2;
  std::vector<uint8_t> out = {0xFF, 0xD8, 0xFF, 0xE1, static_cast<uint8_t>(length >> 8),
                              static_cast<uint8_t>(length & 0xFF)};
  out.reserve(jpeg.size() + length + 2);
  out.insert(out.end(), payload.begin(), payload.end());
  out.insert(out.end(), jpeg.begin() + 2, jpeg.end());
  return out;
}

void WriteJpegWithExif(const std::string& path, const Image& image, const ExifData& exif,
                       int quality) {
  const std::vector<uint8_t> bytes = InsertApp1Segment(EncodeJpeg(image, quality), EncodeExifBlock(exif));
  WriteFileAtomically(
      path,
      [&](std::ostream& stream) {
        stream.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
      },
      /*binary=*/true);
}

}  // namespace proj
