// WGS84 geodetic coordinates <-> a local East-North-Up (ENU) metric frame around a reference
// point, through PROJ (cartesian + topocentric conversions on the WGS84 ellipsoid). Used for
// GPS-tagged images: positions become metres that pair selection, bundle adjustment and the
// similarity alignment can work with.
//
// Frames: ENU x = east, y = north, z = up, in metres, with the origin at the reference point
// on (or above) the ellipsoid; the axes are the local tangent plane at the reference.
// Altitudes are treated as heights above the WGS84 ellipsoid. EXIF altitudes are above mean sea
// level; over a survey area the geoid offset is nearly constant, so using them as they are only
// shifts the frame vertically by that offset (tens of metres) and keeps distances exact to
// millimetres within a few kilometres.
#pragma once

#include <memory>
#include <vector>

#include <Eigen/Core>

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
};

// Componentwise median of the positions (robust to a few wrong fixes); the frame of a set of
// GPS images. Throws InputError when `positions` is empty.
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
