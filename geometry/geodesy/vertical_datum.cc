#include "geometry/geodesy/vertical_datum.h"

#include <proj.h>

#include <cmath>

#include "core/check.h"

namespace proj {

std::string VerticalDatumName(VerticalDatum datum) {
  return datum == VerticalDatum::kEgm96 ? "EGM96 height" : "WGS 84 ellipsoidal height";
}

std::string VerticalDatumKey(VerticalDatum datum) {
  return datum == VerticalDatum::kEgm96 ? "egm96" : "ellipsoid";
}

VerticalDatum VerticalDatumFromKey(const std::string& key) {
  PROJ_REQUIRE(key == "egm96" || key == "ellipsoid",
               "unknown vertical datum '" << key << "' (egm96 or ellipsoid)");
  return key == "egm96" ? VerticalDatum::kEgm96 : VerticalDatum::kEllipsoid;
}

int VerticalDatumEpsg(VerticalDatum datum) { return datum == VerticalDatum::kEgm96 ? 5773 : 0; }

std::string MissingGeoidGridMessage() {
  return "PROJ's EGM96 geoid grid (egm96_15.gtx, Debian package proj-data; or "
         "us_nga_egm96_15.tif) was not found in PROJ's data directories (PROJ_DATA)";
}

struct HeightConverter::Impl {
  PJ_CONTEXT* context = nullptr;
  PJ* geoid = nullptr;  // vgridshift: forward adds N to the height
  ~Impl() {
    if (geoid != nullptr) proj_destroy(geoid);
    if (context != nullptr) proj_context_destroy(context);
  }
};

HeightConverter::HeightConverter(const std::vector<std::string>& grid_directories) {
  auto impl = std::make_unique<Impl>();
  impl->context = proj_context_create();
  PROJ_CHECK(impl->context != nullptr, "PROJ could not create a context");
  proj_log_level(impl->context, PJ_LOG_NONE);
  if (!grid_directories.empty()) {
    std::vector<const char*> paths;
    for (const std::string& directory : grid_directories) paths.push_back(directory.c_str());
    proj_context_set_search_paths(impl->context, static_cast<int>(paths.size()), paths.data());
  }
  // Debian's file first; PROJ-data's name for the same grid second.
  for (const char* grid : {"egm96_15.gtx", "us_nga_egm96_15.tif"}) {
    const std::string definition = std::string("+proj=vgridshift +multiplier=1 +grids=") + grid;
    impl->geoid = proj_create(impl->context, definition.c_str());
    if (impl->geoid == nullptr) continue;
    // A grid PROJ found by name but cannot read (or cached from another search path) gives
    // no value: check one.
    const PJ_COORD probe = proj_trans(impl->geoid, PJ_FWD, proj_coord(0, 0, 0, 0));
    if (std::isfinite(probe.xyz.z) && std::abs(probe.xyz.z) < 200) {
      grid_name_ = grid;
      impl_ = std::move(impl);
      return;
    }
    proj_destroy(impl->geoid);
    impl->geoid = nullptr;
  }
}

HeightConverter::~HeightConverter() = default;

double HeightConverter::GeoidUndulationM(double latitude_deg, double longitude_deg) const {
  PROJ_REQUIRE(available(), MissingGeoidGridMessage());
  PROJ_REQUIRE(std::isfinite(latitude_deg) && std::isfinite(longitude_deg) &&
                   std::abs(latitude_deg) <= 90 && std::abs(longitude_deg) <= 180,
               "invalid WGS84 position (latitude " << latitude_deg << ", longitude "
                                                   << longitude_deg << ")");
  const PJ_COORD at = proj_coord(proj_torad(longitude_deg), proj_torad(latitude_deg), 0, 0);
  const double undulation = proj_trans(impl_->geoid, PJ_FWD, at).xyz.z;
  PROJ_CHECK(std::isfinite(undulation) && std::abs(undulation) < 200,
             "the EGM96 grid gave no geoid height at latitude " << latitude_deg << ", longitude "
                                                                << longitude_deg);
  return undulation;
}

double HeightConverter::Convert(double latitude_deg, double longitude_deg, double height_m,
                                VerticalDatum from, VerticalDatum to) const {
  if (from == to) return height_m;
  const double undulation = GeoidUndulationM(latitude_deg, longitude_deg);
  return from == VerticalDatum::kEgm96 ? height_m + undulation : height_m - undulation;
}

}  // namespace proj
