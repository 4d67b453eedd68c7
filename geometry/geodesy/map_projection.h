// The projected CRS of a georeferenced model's map outputs (points.las, the surface model, the
// orthophoto): WGS 84 / UTM in the zone of the ENU frame's origin, with heights in the datum the
// photos' GPS stated theirs in (EnuFrame::output_heights) where the geoid grid allows the
// conversion, else in the frame's own datum (heights() says which). GIS tools, CloudCompare and
// CAD want easting/northing in metres, not an ENU frame.
#pragma once

#include <memory>
#include <string>

#include <Eigen/Core>

#include "geometry/geodesy/local_enu_frame.h"
#include "geometry/geodesy/utm_projection.h"
#include "geometry/geodesy/vertical_datum.h"

namespace proj {

// The UTM zone of the frame's origin.
UtmZone MapZoneOf(const EnuFrame& frame);

// "WGS 84 / UTM zone 32N".
std::string UtmCrsName(const UtmZone& zone);

// Converts between a model's ENU frame and its map CRS. Conversions take about a microsecond.
// One instance is not thread-safe (PROJ contexts inside): one per thread.
class MapProjection {
 public:
  // `warn`: log a warning when the geoid grid needed for the heights is missing (once per
  // output, so not from the extra instances of worker threads). Throws InputError for an
  // invalid frame.
  explicit MapProjection(const EnuFrame& frame, bool warn = true);
  ~MapProjection();
  MapProjection(const MapProjection&) = delete;
  MapProjection& operator=(const MapProjection&) = delete;

  const UtmZone& zone() const { return utm_.zone(); }
  VerticalDatum heights() const { return heights_; }
  // "EPSG:32615", or with a vertical CRS the compound "EPSG:32615+5773".
  std::string CrsCode() const;
  // "WGS 84 / UTM zone 15N", with " + EGM96 height" for a vertical CRS.
  std::string CrsName() const;

  // The WGS84 position of an ENU position, its altitude in heights().
  Wgs84Position Wgs84FromEnu(const Eigen::Vector3d& position_enu) const;
  // (easting, northing, height) of an ENU position, and the inverse.
  Eigen::Vector3d MapFromEnu(const Eigen::Vector3d& position_enu) const;
  Eigen::Vector3d EnuFromMap(const Eigen::Vector3d& easting_northing_height) const;

 private:
  LocalEnuConverter enu_;
  UtmProjection utm_;
  VerticalDatum frame_heights_;
  VerticalDatum heights_;
  std::unique_ptr<HeightConverter> height_converter_;  // null when the datums are equal
};

}  // namespace proj
