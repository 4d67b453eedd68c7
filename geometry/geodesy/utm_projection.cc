#include "geometry/geodesy/utm_projection.h"

#include <proj.h>

#include <cmath>
#include <sstream>

#include "core/check.h"
#include "geometry/geodesy/proj_handles.h"

namespace proj {

UtmZone UtmZoneOf(const Wgs84Position& position) {
  PROJ_REQUIRE(IsValidWgs84(position), "invalid WGS84 position (latitude "
                                           << position.latitude_deg << ", longitude "
                                           << position.longitude_deg << ")");
  const double lat = position.latitude_deg, lon = position.longitude_deg;
  UtmZone zone;
  zone.north = lat >= 0;
  zone.number = static_cast<int>(std::floor((lon + 180.0) / 6.0)) % 60 + 1;
  if (lat >= 56 && lat < 64 && lon >= 3 && lon < 12) zone.number = 32;  // south-west Norway
  if (lat >= 72 && lat < 84 && lon >= 0 && lon < 42) {                  // Svalbard
    zone.number = lon < 9 ? 31 : lon < 21 ? 33 : lon < 33 ? 35 : 37;
  }
  return zone;
}

// Its own PROJ context (PROJ objects of one context must not be used from two threads at once);
// members are destroyed in reverse order, the projection before its context.
struct UtmProjection::Impl {
  internal::ProjContextPtr context{proj_context_create()};
  internal::ProjObjectPtr projection;
};

UtmProjection::UtmProjection(const UtmZone& zone) : zone_(zone), impl_(std::make_unique<Impl>()) {
  PROJ_REQUIRE(zone.number >= 1 && zone.number <= 60,
               "UTM zone must be in 1..60, got " << zone.number);
  PROJ_CHECK(impl_->context != nullptr, "PROJ could not create a context");
  proj_log_level(impl_->context.get(), PJ_LOG_NONE);
  std::ostringstream definition;
  definition << "+proj=utm +zone=" << zone.number << (zone.north ? "" : " +south")
             << " +ellps=WGS84";
  impl_->projection.reset(proj_create(impl_->context.get(), definition.str().c_str()));
  PROJ_CHECK(impl_->projection != nullptr, "PROJ rejected '" << definition.str() << "'");
}

UtmProjection::~UtmProjection() = default;

Eigen::Vector3d UtmProjection::FromWgs84(const Wgs84Position& position) const {
  PROJ_REQUIRE(IsValidWgs84(position), "invalid WGS84 position (latitude "
                                           << position.latitude_deg << ", longitude "
                                           << position.longitude_deg << ")");
  const PJ_COORD geodetic = proj_coord(proj_torad(position.longitude_deg),
                                       proj_torad(position.latitude_deg), position.altitude_m, 0);
  const PJ_COORD projected = proj_trans(impl_->projection.get(), PJ_FWD, geodetic);
  PROJ_CHECK(std::isfinite(projected.xyz.x), "PROJ failed to project to UTM zone " << zone_.number);
  return Eigen::Vector3d(projected.xyz.x, projected.xyz.y, position.altitude_m);
}

Wgs84Position UtmProjection::ToWgs84(const Eigen::Vector3d& enh) const {
  PROJ_REQUIRE(enh.allFinite(), "invalid UTM coordinates " << enh.transpose());
  const PJ_COORD projected = proj_coord(enh.x(), enh.y(), enh.z(), 0);
  const PJ_COORD geodetic = proj_trans(impl_->projection.get(), PJ_INV, projected);
  PROJ_REQUIRE(std::isfinite(geodetic.lp.lam) && std::isfinite(geodetic.lp.phi),
               "UTM coordinates " << enh.transpose() << " lie outside zone " << zone_.number);
  return {proj_todeg(geodetic.lp.phi), proj_todeg(geodetic.lp.lam), enh.z()};
}

}  // namespace proj
