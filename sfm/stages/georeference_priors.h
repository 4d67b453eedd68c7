// The mapper's GPS priors: the WGS84 pose priors of the scene database (written and reviewed
// at extraction, sfm/stages/gps_priors.h) become Scene::position_priors in the database's
// local ENU frame (proj_enu_frame), metres, with a standard deviation per axis from each
// prior's covariance or from --gps-sigma-m. The mapper aligns the model to them and keeps them
// in its global adjustments (sfm/mapper/prior_alignment.h): the model comes out georeferenced.
#pragma once

#include <optional>
#include <vector>

#include "geometry/geodesy/local_enu_frame.h"
#include "sfm/database/scene_database.h"
#include "sfm/mapper/incremental_mapper.h"
#include "sfm/mapper/prior_alignment.h"
#include "sfm/scene/scene.h"

namespace proj {

struct GeoreferenceOptions {
  bool enabled = true;  // --no-georeference: map without priors, as for images without GPS
  // Standard deviation of a fix, metres, used for every prior; 0: from each prior's covariance
  // (the square roots of its diagonal), or fallback_sigma_m when that is missing (NaN, as
  // COLMAP stores an unknown covariance) or not positive. >= 0.
  double sigma_m = 0;
  double fallback_sigma_m = 3.0;  // consumer GNSS receivers: a few metres; > 0

  void Check() const;  // throws InputError naming the option
};

// Fills scene->position_priors for the images (scene image i is database image
// database_image_ids[i]) with a valid WGS84 prior, and returns their ENU frame; nullopt (and no
// prior) when disabled, when the database stores no ENU frame, or no image has a prior.
std::optional<EnuFrame> LoadPositionPriors(const GeoreferenceOptions& options,
                                           const SceneDatabase& database,
                                           const std::vector<int>& database_image_ids,
                                           Scene* scene);

// The model in the priors' frame, whichever mapper built it: aligns the registered cameras of
// a built model to their priors once more (RANSAC + Umeyama, sfm/mapper/prior_alignment.h)
// and records it as summary->georeference, which the georeferenced outputs read. The
// incremental mapper ends aligned already (this finds the same frame); a mapper that never
// aligned (or left its last alignment behind its final adjustment) gets it here. An attempt
// without enough fixes or consensus keeps the mapper's own alignment when it had one; a
// refused one (degenerate, or too few fixes agree: prior_alignment.h) replaces it, so the
// model is not georeferenced. Nothing happens without priors or a model.
void GeoreferenceModel(const PriorAlignmentOptions& options, uint64_t seed, Scene* scene,
                       MapperSummary* summary);

}  // namespace proj
