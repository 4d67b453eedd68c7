#include "geometry/geodesy/crs_transform.h"

#include <proj.h>

#include <cctype>
#include <cmath>
#include <regex>

#include "core/check.h"
#include "geometry/geodesy/proj_handles.h"

namespace proj {

std::string CrsDefinition(const std::string& crs_text) {
  const size_t first = crs_text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return "";
  const std::string text = crs_text.substr(first, crs_text.find_last_not_of(" \t\r\n") - first + 1);
  static const std::regex kOdmUtm(R"(WGS ?84 +UTM +(\d{1,2}) *([NS]))", std::regex::icase);
  std::smatch match;
  if (std::regex_match(text, match, kOdmUtm)) {
    const int zone = std::stoi(match[1]);
    if (zone < 1 || zone > 60) return text;  // PROJ rejects it below, naming the text
    const bool north = std::toupper(static_cast<unsigned char>(match[2].str()[0])) == 'N';
    return "EPSG:" + std::to_string((north ? 32600 : 32700) + zone);
  }
  // A PROJ string describes an operation unless it says it is a CRS.
  if (text.rfind("+proj=", 0) == 0 && text.find("+type=crs") == std::string::npos) {
    return text + " +type=crs";
  }
  return text;
}

// Members are destroyed in reverse order: the transformation before its context.
struct CrsToWgs84::Impl {
  internal::ProjContextPtr context{proj_context_create()};
  internal::ProjObjectPtr transform;
  std::string crs_text;
};

CrsToWgs84::CrsToWgs84(const std::string& crs_text) : impl_(std::make_unique<Impl>()) {
  PROJ_CHECK(impl_->context != nullptr, "PROJ could not create a context");
  PJ_CONTEXT* context = impl_->context.get();
  proj_log_level(context, PJ_LOG_NONE);
  impl_->crs_text = crs_text;
  // Without its database PROJ knows no EPSG code: say so, not that the code is unknown.
  PROJ_REQUIRE(proj_context_get_database_path(context) != nullptr,
               "PROJ's database (proj.db) was not found, so coordinate reference system '"
                   << crs_text << "' cannot be read: install PROJ's data (Debian: proj-data) or set "
                   << "PROJ_DATA to the folder holding proj.db");
  const std::string definition = CrsDefinition(crs_text);
  internal::ProjObjectPtr source(
      definition.empty() ? nullptr : proj_create(context, definition.c_str()));
  PROJ_REQUIRE(source != nullptr && proj_is_crs(source.get()),
               "unknown coordinate reference system '" << crs_text
                   << "' (expected e.g. EPSG:32632, a PROJ string, or WGS84 UTM 32N)");
  // WGS 84 with ellipsoidal heights; longitude first once normalised.
  internal::ProjObjectPtr target(proj_create(context, "EPSG:4979"));
  PROJ_REQUIRE(target != nullptr, "PROJ's database (proj.db) lacks EPSG:4979 (WGS 84 3D): install PROJ's data "
                                  "(Debian: proj-data) or set PROJ_DATA to the folder holding proj.db");
  internal::ProjObjectPtr raw(
      proj_create_crs_to_crs_from_pj(context, source.get(), target.get(), nullptr, nullptr));
  PROJ_REQUIRE(raw != nullptr, "PROJ cannot transform coordinates of '" << crs_text << "' to WGS84");
  impl_->transform.reset(proj_normalize_for_visualization(context, raw.get()));
  PROJ_CHECK(impl_->transform != nullptr, "PROJ could not normalise the axis order of '" << crs_text << "'");
}

CrsToWgs84::~CrsToWgs84() = default;

Wgs84Position CrsToWgs84::Convert(const Eigen::Vector3d& xyz) const {
  const PJ_COORD in = proj_coord(xyz.x(), xyz.y(), xyz.z(), 0);
  const PJ_COORD out = proj_trans(impl_->transform.get(), PJ_FWD, in);
  const Wgs84Position position{out.xyz.y, out.xyz.x, out.xyz.z};
  PROJ_REQUIRE(std::isfinite(out.xyz.x) && IsValidWgs84(position),
               "coordinates (" << xyz.x() << ", " << xyz.y() << ", " << xyz.z() << ") of '"
                               << impl_->crs_text << "' cannot be transformed to WGS84");
  return position;
}

}  // namespace proj
