// Flight metadata drones write into the XMP packet of their JPEGs (DJI's drone-dji namespace:
// RelativeAltitude, GimbalYawDegree, ...). Read by text search for the attribute
// (name="value") or element (<name>value</name>) forms, without an XML parser: the packet is
// machine-written and flat.
#pragma once

#include <optional>
#include <string_view>

namespace proj {

struct DroneXmp {
  std::optional<double> absolute_altitude_m;  // drone-dji:AbsoluteAltitude (as the drone states)
  std::optional<double> relative_altitude_m;  // drone-dji:RelativeAltitude, above take-off
  // Gimbal attitude in degrees (DJI: yaw clockwise from north, pitch -90 = looking straight
  // down, roll about the optical axis).
  std::optional<double> gimbal_yaw_deg;
  std::optional<double> gimbal_pitch_deg;
  std::optional<double> gimbal_roll_deg;
  std::optional<double> flight_yaw_deg;  // airframe heading
  // drone-dji:RtkFlag, written by DJI's RTK aircraft and payloads (Phantom 4 RTK, Matrice
  // 300 RTK, Zenmuse P1): 0 no fix, 16 single, 34 float, 50 fixed. Their altitudes are
  // ellipsoidal heights (DJI's P1 manual: "AbsoluteAltitude: geodetic height").
  std::optional<double> rtk_flag;

  bool HasGimbal() const { return gimbal_yaw_deg && gimbal_pitch_deg && gimbal_roll_deg; }
};

// Values absent or not finite numbers are nullopt; a packet without them gives an empty result.
DroneXmp ParseDroneXmp(std::string_view packet);

}  // namespace proj
