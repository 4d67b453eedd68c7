#include "geometry/geodesy/map_projection.h"

#include "core/logging.h"

namespace proj {

UtmZone MapZoneOf(const EnuFrame& frame) {
  return UtmZoneOf({frame.ref_latitude_deg, frame.ref_longitude_deg, frame.ref_altitude_m});
}

std::string UtmCrsName(const UtmZone& zone) {
  return "WGS 84 / UTM zone " + std::to_string(zone.number) + (zone.north ? "N" : "S");
}

MapProjection::MapProjection(const EnuFrame& frame, bool warn)
    : enu_(frame), utm_(MapZoneOf(frame)), frame_heights_(frame.heights), heights_(frame.output_heights) {
  if (heights_ == frame_heights_) return;
  height_converter_ = std::make_unique<HeightConverter>();
  if (height_converter_->available()) return;
  if (warn) {
    PROJ_LOG(kWarning, MissingGeoidGridMessage() << ": georeferenced outputs give "
                                                 << VerticalDatumName(frame_heights_) << "s, not "
                                                 << VerticalDatumName(heights_) << "s as the photos");
  }
  heights_ = frame_heights_;
  height_converter_.reset();
}

MapProjection::~MapProjection() = default;

std::string MapProjection::CrsCode() const {
  const int vertical = VerticalDatumEpsg(heights_);
  return "EPSG:" + std::to_string(zone().Epsg()) + (vertical ? "+" + std::to_string(vertical) : "");
}

std::string MapProjection::CrsName() const {
  return UtmCrsName(zone()) + (VerticalDatumEpsg(heights_) ? " + " + VerticalDatumName(heights_) : "");
}

Wgs84Position MapProjection::Wgs84FromEnu(const Eigen::Vector3d& position_enu) const {
  Wgs84Position position = enu_.Wgs84FromEnu(position_enu);
  if (height_converter_) {
    position.altitude_m = height_converter_->Convert(position.latitude_deg, position.longitude_deg,
                                                     position.altitude_m, frame_heights_, heights_);
  }
  return position;
}

Eigen::Vector3d MapProjection::MapFromEnu(const Eigen::Vector3d& position_enu) const {
  return utm_.FromWgs84(Wgs84FromEnu(position_enu));
}

Eigen::Vector3d MapProjection::EnuFromMap(const Eigen::Vector3d& easting_northing_height) const {
  Wgs84Position position = utm_.ToWgs84(easting_northing_height);
  if (height_converter_) {
    position.altitude_m = height_converter_->Convert(position.latitude_deg, position.longitude_deg,
                                                     position.altitude_m, heights_, frame_heights_);
  }
  return enu_.EnuFromWgs84(position);
}

}  // namespace proj
