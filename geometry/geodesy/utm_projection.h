// WGS84 -> Universal Transverse Mercator (a projected CRS in metres, EPSG:326zz north /
// 327zz south), through PROJ; for georeferenced point clouds (LAS files carry a projected
// CRS: CloudCompare and QGIS expect easting/northing, not an ENU frame). Heights pass through
// unchanged (see local_enu_frame.h on EXIF altitudes).
#pragma once

#include <memory>

#include <Eigen/Core>

#include "geometry/geodesy/local_enu_frame.h"

namespace proj {

struct UtmZone {
  int number = 0;      // 1..60
  bool north = true;   // hemisphere
  int Epsg() const { return (north ? 32600 : 32700) + number; }
};

// The standard zone of a position (6-degree zones, with the Norway and Svalbard exceptions).
// Throws InputError for an invalid position.
UtmZone UtmZoneOf(const Wgs84Position& position);

// One instance is not thread-safe (it owns a PROJ context).
class UtmProjection {
 public:
  explicit UtmProjection(const UtmZone& zone);  // throws InputError for a zone outside 1..60
  ~UtmProjection();
  UtmProjection(const UtmProjection&) = delete;
  UtmProjection& operator=(const UtmProjection&) = delete;

  const UtmZone& zone() const { return zone_; }
  // (easting, northing, height) in metres. Throws InputError for an invalid position.
  Eigen::Vector3d FromWgs84(const Wgs84Position& position) const;
  // The inverse: (easting, northing, height) to WGS84. Throws InputError when PROJ cannot
  // invert them (far outside the zone).
  Wgs84Position ToWgs84(const Eigen::Vector3d& easting_northing_height) const;

 private:
  struct Impl;
  UtmZone zone_;
  std::unique_ptr<Impl> impl_;
};

}  // namespace proj
