#include "sfm/pipeline/georeference_priors.h"

#include <cmath>

#include "core/check.h"
#include "core/logging.h"

namespace proj {

void GeoreferenceOptions::Check() const {
  PROJ_REQUIRE(sigma_m >= 0 && std::isfinite(sigma_m), "--gps-sigma-m must be >= 0 (got " << sigma_m << ")");
  PROJ_REQUIRE(fallback_sigma_m > 0, "GeoreferenceOptions.fallback_sigma_m must be > 0");
}

std::optional<EnuFrame> LoadPositionPriors(const GeoreferenceOptions& options,
                                           const SceneDatabase& database,
                                           const std::vector<int>& database_image_ids,
                                           Scene* scene) {
  options.Check();
  PROJ_CHECK(database_image_ids.size() == scene->images.size(), "image ids and scene disagree");
  scene->position_priors.clear();
  if (!options.enabled) return std::nullopt;
  std::vector<int> images;
  std::vector<Wgs84Position> fixes;
  std::vector<Eigen::Vector3d> sigmas;
  for (size_t i = 0; i < database_image_ids.size(); ++i) {
    const std::optional<PosePrior> prior = database.ReadPosePrior(database_image_ids[i]);
    if (!prior || prior->coordinate_system != PosePrior::CoordinateSystem::kWgs84) continue;
    const Wgs84Position fix{prior->position[0], prior->position[1], prior->position[2]};
    if (!IsValidWgs84(fix) || !std::isfinite(fix.altitude_m)) {
      PROJ_LOG(kWarning, "image '" << scene->images[i].name
                                   << "': its GPS position is invalid; mapped without it");
      continue;
    }
    Eigen::Vector3d sigma = Eigen::Vector3d::Constant(options.sigma_m);
    if (options.sigma_m == 0) {
      const Eigen::Vector3d variance = prior->position_covariance.diagonal();
      const bool usable = variance.allFinite() && variance.minCoeff() > 0;
      sigma = usable ? Eigen::Vector3d(variance.cwiseSqrt())
                     : Eigen::Vector3d::Constant(options.fallback_sigma_m);
    }
    images.push_back(static_cast<int>(i));
    fixes.push_back(fix);
    sigmas.push_back(sigma);
  }
  if (fixes.empty()) return std::nullopt;
  // The frame extraction stored (pair selection works in it too), else the median fix.
  const EnuFrame frame = database.ReadEnuFrame().value_or(ChooseEnuFrame(fixes));
  const std::vector<Eigen::Vector3d> enu = EnuFromWgs84(frame, fixes);
  for (size_t k = 0; k < images.size(); ++k) {
    scene->position_priors[images[k]] = PositionPrior{enu[k], sigmas[k]};
  }
  PROJ_LOG(kInfo, "GPS priors: " << images.size() << "/" << scene->images.size()
                                 << " images, ENU origin " << frame.ref_latitude_deg << ", "
                                 << frame.ref_longitude_deg << ", " << frame.ref_altitude_m << " m");
  return frame;
}

}  // namespace proj
