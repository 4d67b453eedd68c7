#include "geometry/geodesy/local_enu_frame.h"

#include <proj.h>

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>

#include "core/check.h"

namespace proj {
namespace {

double Median(std::vector<double> values) {
  const size_t middle = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + middle, values.end());
  const double upper = values[middle];
  if (values.size() % 2 == 1) return upper;
  const double lower = *std::max_element(values.begin(), values.begin() + middle);
  return 0.5 * (lower + upper);
}

std::string Describe(const Wgs84Position& p) {
  std::ostringstream text;
  text << std::setprecision(12) << "(latitude " << p.latitude_deg << " deg, longitude "
       << p.longitude_deg << " deg, altitude " << p.altitude_m << " m)";
  return text.str();
}

}  // namespace

bool IsValidWgs84(const Wgs84Position& p) {
  return std::isfinite(p.latitude_deg) && std::isfinite(p.longitude_deg) &&
         std::isfinite(p.altitude_m) && std::abs(p.latitude_deg) <= 90 &&
         std::abs(p.longitude_deg) <= 180;
}

EnuFrame ChooseEnuFrame(const std::vector<Wgs84Position>& positions) {
  PROJ_REQUIRE(!positions.empty(), "an ENU frame needs at least one GPS position");
  std::vector<double> latitudes, longitudes, altitudes;
  for (const Wgs84Position& p : positions) {
    PROJ_REQUIRE(IsValidWgs84(p), "invalid WGS84 position " << Describe(p));
    latitudes.push_back(p.latitude_deg);
    longitudes.push_back(p.longitude_deg);
    altitudes.push_back(p.altitude_m);
  }
  return EnuFrame{Median(latitudes), Median(longitudes), Median(altitudes)};
}

// The pipeline geodetic (radians, metres) -> geocentric cartesian -> topocentric ENU, so the
// forward direction is WGS84 -> ENU and PJ_INV goes back.
struct LocalEnuConverter::Impl {
  PJ_CONTEXT* context = nullptr;
  PJ* pipeline = nullptr;
  ~Impl() {
    if (pipeline != nullptr) proj_destroy(pipeline);
    if (context != nullptr) proj_context_destroy(context);
  }
};

LocalEnuConverter::LocalEnuConverter(const EnuFrame& frame)
    : frame_(frame), impl_(std::make_unique<Impl>()) {
  const Wgs84Position reference{frame.ref_latitude_deg, frame.ref_longitude_deg,
                                frame.ref_altitude_m};
  PROJ_REQUIRE(IsValidWgs84(reference), "invalid ENU reference " << Describe(reference));
  impl_->context = proj_context_create();
  PROJ_CHECK(impl_->context != nullptr, "PROJ could not create a context");
  proj_log_level(impl_->context, PJ_LOG_NONE);
  std::ostringstream definition;
  definition << std::setprecision(17)
             << "+proj=pipeline +step +proj=cart +ellps=WGS84 +step +proj=topocentric"
             << " +ellps=WGS84 +lat_0=" << frame.ref_latitude_deg
             << " +lon_0=" << frame.ref_longitude_deg << " +h_0=" << frame.ref_altitude_m;
  impl_->pipeline = proj_create(impl_->context, definition.str().c_str());
  PROJ_CHECK(impl_->pipeline != nullptr,
             "PROJ rejected the ENU pipeline '" << definition.str() << "': "
                 << proj_context_errno_string(impl_->context,
                                              proj_context_errno(impl_->context)));
}

LocalEnuConverter::~LocalEnuConverter() = default;

Eigen::Vector3d LocalEnuConverter::EnuFromWgs84(const Wgs84Position& position) const {
  PROJ_REQUIRE(IsValidWgs84(position), "invalid WGS84 position " << Describe(position));
  const PJ_COORD geodetic = proj_coord(proj_torad(position.longitude_deg),
                                       proj_torad(position.latitude_deg), position.altitude_m, 0);
  const PJ_COORD enu = proj_trans(impl_->pipeline, PJ_FWD, geodetic);
  PROJ_CHECK(std::isfinite(enu.xyz.x), "PROJ failed on " << Describe(position));
  return Eigen::Vector3d(enu.xyz.x, enu.xyz.y, enu.xyz.z);
}

Wgs84Position LocalEnuConverter::Wgs84FromEnu(const Eigen::Vector3d& enu_m) const {
  const PJ_COORD enu = proj_coord(enu_m.x(), enu_m.y(), enu_m.z(), 0);
  const PJ_COORD geodetic = proj_trans(impl_->pipeline, PJ_INV, enu);
  return Wgs84Position{proj_todeg(geodetic.lpz.phi), proj_todeg(geodetic.lpz.lam),
                       geodetic.lpz.z};
}

std::vector<Eigen::Vector3d> EnuFromWgs84(const EnuFrame& frame,
                                          const std::vector<Wgs84Position>& positions) {
  const LocalEnuConverter converter(frame);
  std::vector<Eigen::Vector3d> enu;
  enu.reserve(positions.size());
  for (const Wgs84Position& p : positions) enu.push_back(converter.EnuFromWgs84(p));
  return enu;
}

}  // namespace proj
