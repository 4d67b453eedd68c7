// WGS84 geodetic coordinates <-> a local East-North-Up (ENU) metric frame around a reference
// point, through PROJ (cartesian + topocentric conversions on the WGS84 ellipsoid). Used for
// GPS-tagged images: positions become metres that pair selection, bundle adjustment and the
// similarity alignment can work with.
//
// Frames: ENU x = east, y = north, z = up, in metres, with the origin at the reference point
// on (or above) the ellipsoid; the axes are the local tangent plane at the reference.
// Altitudes are heights above the WGS84 ellipsoid (geometry/geodesy/vertical_datum.h converts
// heights above sea level). A frame built from sea-level heights because the geoid grid was
// missing (EnuFrame::heights) sits that far (the geoid height, tens of metres) off
// vertically; distances within a few kilometres stay exact to millimetres.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include <Eigen/Core>

#include "geometry/geodesy/vertical_datum.h"

namespace proj {

struct Wgs84Position {
  double latitude_deg = 0;   // north positive, in [-90, 90]
  double longitude_deg = 0;  // east positive, in [-180, 180]
  double altitude_m = 0;     // height above the ellipsoid (see the header comment)
};

// The reference point of a local ENU frame. Plain data, recorded with a reconstruction.
struct EnuFrame {
  double ref_latitude_deg = 0;
  double ref_longitude_deg = 0;
  double ref_altitude_m = 0;
  // The datum of the frame's heights (ref_altitude_m and the altitudes of Wgs84FromEnu):
  // the ellipsoid, or EGM96 heights used as ellipsoidal ones when the geoid grid was missing.
  VerticalDatum heights = VerticalDatum::kEllipsoid;
  // The datum the GPS fixes stated their altitudes in; georeferenced outputs give heights in it.
  VerticalDatum output_heights = VerticalDatum::kEllipsoid;
  // The datum every fix's altitude was taken in when one was imposed (sfm's
  // --gps-altitude-datum); nullopt: each fix's own.
  std::optional<VerticalDatum> fixes_datum = std::nullopt;
};

// Componentwise median of the positions (robust to a few wrong fixes); the frame of a set of
// GPS images (heights ellipsoidal). Throws InputError when `positions` is empty.
EnuFrame ChooseEnuFrame(const std::vector<Wgs84Position>& positions);

// Converts between WGS84 and one ENU frame. Creating one builds a PROJ pipeline (tens of
// microseconds); conversions then cost about a microsecond. One instance is not thread-safe
// (it owns a PROJ context); separate instances may be used from separate threads.
class LocalEnuConverter {
 public:
  // Throws InputError when the reference is not a valid WGS84 position.
  explicit LocalEnuConverter(const EnuFrame& frame);
  ~LocalEnuConverter();
  LocalEnuConverter(const LocalEnuConverter&) = delete;
  LocalEnuConverter& operator=(const LocalEnuConverter&) = delete;

  const EnuFrame& frame() const { return frame_; }

  // Throws InputError when `position` is not a valid WGS84 position (latitude beyond +-90,
  // longitude beyond +-180, or not finite).
  Eigen::Vector3d EnuFromWgs84(const Wgs84Position& position) const;
  Wgs84Position Wgs84FromEnu(const Eigen::Vector3d& enu_m) const;

 private:
  struct Impl;
  EnuFrame frame_;
  std::unique_ptr<Impl> impl_;
};

// Convenience for a batch: one converter, every position.
std::vector<Eigen::Vector3d> EnuFromWgs84(const EnuFrame& frame,
                                          const std::vector<Wgs84Position>& positions);

// Checks a position (finite, latitude in [-90, 90], longitude in [-180, 180]).
bool IsValidWgs84(const Wgs84Position& position);

}  // namespace proj
