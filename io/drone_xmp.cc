#include "io/drone_xmp.h"

#include <cmath>
#include <cstdlib>
#include <string>

namespace proj {
namespace {

std::optional<double> ParseNumber(std::string_view text) {
  const std::string value(text);
  if (value.empty()) return std::nullopt;
  char* end = nullptr;
  const double number = std::strtod(value.c_str(), &end);
  if (end == value.c_str() || !std::isfinite(number)) return std::nullopt;
  return number;
}

// The value of `name` (a qualified name such as "drone-dji:GimbalYawDegree") as an attribute
// or as a simple element.
std::optional<double> FindValue(std::string_view packet, std::string_view name) {
  const std::string attribute = std::string(name) + "=\"";
  if (const size_t at = packet.find(attribute); at != std::string_view::npos) {
    const size_t begin = at + attribute.size();
    const size_t end = packet.find('"', begin);
    if (end != std::string_view::npos) return ParseNumber(packet.substr(begin, end - begin));
  }
  const std::string element = "<" + std::string(name) + ">";
  if (const size_t at = packet.find(element); at != std::string_view::npos) {
    const size_t begin = at + element.size();
    const size_t end = packet.find('<', begin);
    if (end != std::string_view::npos) return ParseNumber(packet.substr(begin, end - begin));
  }
  return std::nullopt;
}

}  // namespace

DroneXmp ParseDroneXmp(std::string_view packet) {
  DroneXmp xmp;
  xmp.absolute_altitude_m = FindValue(packet, "drone-dji:AbsoluteAltitude");
  xmp.relative_altitude_m = FindValue(packet, "drone-dji:RelativeAltitude");
  xmp.gimbal_yaw_deg = FindValue(packet, "drone-dji:GimbalYawDegree");
  xmp.gimbal_pitch_deg = FindValue(packet, "drone-dji:GimbalPitchDegree");
  xmp.gimbal_roll_deg = FindValue(packet, "drone-dji:GimbalRollDegree");
  xmp.flight_yaw_deg = FindValue(packet, "drone-dji:FlightYawDegree");
  xmp.rtk_flag = FindValue(packet, "drone-dji:RtkFlag");
  return xmp;
}

}  // namespace proj
