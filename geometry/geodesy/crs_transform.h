// Coordinates of a user-given coordinate reference system (a GCP file's first line) to WGS84,
// through PROJ. Accepted CRS texts: "EPSG:32632" (any CRS of PROJ's database), PROJ strings
// ("+proj=utm +zone=32 +datum=WGS84"), and OpenDroneMap's "WGS84 UTM 32N" / "WGS84 UTM 32S".
// Geographic CRSs take longitude first (x = longitude, y = latitude, as GIS tools write them).
// Heights pass through unchanged: the z of a 2D CRS is taken as the height above the
// ellipsoid (local_enu_frame.h).
#pragma once

#include <memory>
#include <string>

#include <Eigen/Core>

#include "geometry/geodesy/local_enu_frame.h"

namespace proj {

// The PROJ-readable definition of `crs_text` ("WGS84 UTM 32N" -> "EPSG:32632"; others as
// given, trimmed). Does not check that PROJ knows it.
std::string CrsDefinition(const std::string& crs_text);

// One instance is not thread-safe (it owns a PROJ context).
class CrsToWgs84 {
 public:
  // Throws InputError naming `crs_text` when PROJ does not know it as a CRS or cannot
  // transform it to WGS84.
  explicit CrsToWgs84(const std::string& crs_text);
  ~CrsToWgs84();
  CrsToWgs84(const CrsToWgs84&) = delete;
  CrsToWgs84& operator=(const CrsToWgs84&) = delete;

  // Throws InputError when the coordinates cannot be transformed (outside the CRS's domain).
  Wgs84Position Convert(const Eigen::Vector3d& xyz) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace proj
