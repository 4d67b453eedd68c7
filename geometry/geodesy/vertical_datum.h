// Vertical datums of GPS altitudes and georeferenced outputs, and the conversion between them.
// A height above the WGS84 ellipsoid (h, what GNSS measures and what ENU frames and WGS84 3D
// coordinates use) and a height above the EGM96 geoid (H, "above mean sea level": what GNSS
// receivers report in NMEA, what EXIF GPSAltitude states by default and what drone apps show)
// differ by the geoid undulation N: h = H + N. N is -50..+85 m worldwide and varies slowly
// (about a centimetre per 100 m), so over a survey it is nearly a constant offset.
//
// N comes from PROJ's EGM96 15-minute grid (egm96_15.gtx in Debian's proj-data package, or
// us_nga_egm96_15.tif of PROJ-data), found in PROJ's search path (PROJ_DATA / PROJ_LIB, then
// the installed data directory). Without the grid no conversion is possible: callers keep the
// heights in the datum they came in and say so (HeightConverter::available()).
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace proj {

enum class VerticalDatum {
  kEllipsoid,  // height above the WGS84 ellipsoid
  kEgm96,      // height above the EGM96 geoid ("above sea level"), EPSG:5773
};

// "WGS 84 ellipsoidal height" or "EGM96 height"; "ellipsoid" / "egm96" for files and options.
std::string VerticalDatumName(VerticalDatum datum);
std::string VerticalDatumKey(VerticalDatum datum);
// The inverse of VerticalDatumKey; throws InputError for any other text.
VerticalDatum VerticalDatumFromKey(const std::string& key);

// The EPSG code of the vertical CRS: 5773 for EGM96 height; 0 for ellipsoidal heights (they
// belong to the 3D geographic CRS, EPSG:4979, and have no vertical CRS of their own).
int VerticalDatumEpsg(VerticalDatum datum);

// Converts heights between the datums above. One instance is not thread-safe (it owns a PROJ
// context); creating one loads the grid (about 2 MB).
class HeightConverter {
 public:
  // Searches PROJ's data directories for the EGM96 grid, or only `grid_directories` when it is
  // not empty (tests; a bundle carrying its own grid).
  explicit HeightConverter(const std::vector<std::string>& grid_directories = {});
  ~HeightConverter();
  HeightConverter(const HeightConverter&) = delete;
  HeightConverter& operator=(const HeightConverter&) = delete;

  bool available() const { return impl_ != nullptr; }
  const std::string& grid_name() const { return grid_name_; }  // "" when unavailable

  // N at a WGS84 position, metres. Throws InputError when unavailable or the position is
  // invalid.
  double GeoidUndulationM(double latitude_deg, double longitude_deg) const;
  // `height_m` in `from` as a height in `to` at that position; the same value when the datums
  // are equal (no grid needed). Throws InputError when a conversion needs the missing grid.
  double Convert(double latitude_deg, double longitude_deg, double height_m, VerticalDatum from,
                 VerticalDatum to) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::string grid_name_;
};

// The sentence for a warning when the grid is missing (names the files and the Debian package).
std::string MissingGeoidGridMessage();

}  // namespace proj
