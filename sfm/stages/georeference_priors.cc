#include "sfm/stages/georeference_priors.h"

#include <cmath>
#include <map>

#include "core/check.h"
#include "core/logging.h"
#include "sfm/stages/gps_priors.h"

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
  const std::optional<EnuFrame> frame = database.ReadEnuFrame();
  if (!options.enabled || !frame) return std::nullopt;
  const std::vector<std::optional<Eigen::Vector3d>> positions =
      PriorPositionsEnu(database, database_image_ids);
  for (size_t i = 0; i < positions.size(); ++i) {
    if (!positions[i]) continue;
    Eigen::Vector3d sigma = Eigen::Vector3d::Constant(options.sigma_m);
    if (options.sigma_m == 0) {
      const Eigen::Vector3d variance =
          database.ReadPosePrior(database_image_ids[i])->position_covariance.diagonal();
      const bool usable = variance.allFinite() && variance.minCoeff() > 0;
      sigma = usable ? Eigen::Vector3d(variance.cwiseSqrt())
                     : Eigen::Vector3d::Constant(options.fallback_sigma_m);
    }
    scene->position_priors[static_cast<int>(i)] = PositionPrior{*positions[i], sigma};
  }
  if (scene->position_priors.empty()) return std::nullopt;
  // EXIF focal lengths, by scene camera: the scene's cameras start at the database's values.
  scene->focal_priors_px.clear();
  std::map<int, bool> exif_focal;  // database camera id -> the focal came from EXIF
  for (const DatabaseCamera& camera : database.ReadCameras()) {
    exif_focal[camera.camera_id] = camera.prior_focal_length;
  }
  std::map<int, int> database_camera_of;  // database image id -> database camera id
  for (const DatabaseImage& image : database.ReadImages()) database_camera_of[image.image_id] = image.camera_id;
  for (size_t i = 0; i < scene->images.size(); ++i) {
    const int camera_id = scene->images[i].camera_id;
    if (exif_focal[database_camera_of[database_image_ids[i]]]) {
      scene->focal_priors_px[camera_id] = scene->cameras[camera_id].MeanFocal();
    }
  }
  PROJ_LOG(kInfo, "GPS priors for the mapper: " << scene->position_priors.size() << "/"
                                                << scene->images.size() << " images");
  return frame;
}

void GeoreferenceModel(const PriorAlignmentOptions& options, uint64_t seed, Scene* scene,
                       MapperSummary* summary) {
  if (!summary->success || !options.enabled || scene->position_priors.empty()) return;
  PriorAlignment alignment = AlignSceneToPriors(options, seed, scene);
  const bool refused = !alignment.aligned && !alignment.residuals.empty();
  if (refused) {
    // A mapper's earlier alignment no longer describes this model: the refusal does.
    PROJ_LOG(kWarning, "GPS: the model is not georeferenced: " << alignment.failure_reason);
  } else if (!alignment.aligned && summary->georeference.aligned) {
    PROJ_LOG(kWarning, "GPS: the final model could not be aligned to the GPS positions again ("
                           << alignment.failure_reason << "); the mapper's alignment stands");
    return;
  }
  if (alignment.aligned && !summary->georeference.aligned) {
    PROJ_LOG(kInfo, "model aligned to the GPS positions: scale " << alignment.priors_from_model.scale
                                                                 << ", " << alignment.NumInliers() << "/"
                                                                 << alignment.residuals.size()
                                                                 << " inliers, rms " << alignment.inlier_rms_m << " m");
  }
  summary->georeference = std::move(alignment);
}

}  // namespace proj
