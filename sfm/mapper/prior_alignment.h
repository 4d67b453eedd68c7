// Georeferencing a model by its images' GPS priors (Scene::position_priors): a robust
// similarity from the registered camera centres to their priors (RANSAC + Umeyama,
// geometry/ransac/estimate_similarity.h) is applied to the whole scene, so the model's world
// frame becomes the priors' frame (metric, local East-North-Up). Priors that disagree with the
// alignment by more than max_error_m are outliers (a wrong fix): they take no further part.
// The incremental mapper aligns before each global adjustment once enough images with priors
// are registered, then keeps the inlier priors as residuals in that adjustment, and aligns a
// last time at the end.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "geometry/sim3.h"
#include "sfm/scene/scene.h"

namespace proj {

struct PriorAlignmentOptions {
  bool enabled = true;       // use the scene's priors at all
  int min_images = 3;        // registered images with a prior needed to align; >= 3
  // Inlier threshold on |aligned centre - prior|, metres; > 0. Consumer GNSS is good to a few
  // metres horizontally and worse vertically; a wrong fix is off by tens of metres or more.
  double max_error_m = 10.0;
  // Once aligned, refined focal lengths with an EXIF value (Scene::focal_priors_px) are held to
  // it with this standard deviation, as a fraction of it (0: no focal prior; >= 0). Nadir views
  // of flat ground cannot tell focal length from height: with the cameras held by GPS, a
  // drifting focal length moves the ground up or down. Brighton Beach: the reprojection error
  // is the same (0.55-0.56 px) for focal lengths 2298-2657 px; with 5% the focal drifts to
  // 2657 px (+20% from EXIF's 2222, ground 7.7 m low), with 1% it settles at 2298 px, the
  // lens' nominal 3.61 mm on the 6.3 mm sensor (ground 2.1 m from the reference cloud).
  double focal_prior_relative_sigma = 0.01;

  void Check() const;  // throws InputError naming the field
};

// One registered image with a prior, after an alignment.
struct PriorResidual {
  int image_id = -1;
  Eigen::Vector3d residual_m = Eigen::Vector3d::Zero();  // aligned centre - prior (E, N, U)
  bool inlier = false;  // used as a prior; false: rejected as an outlier
};

struct PriorAlignment {
  bool aligned = false;
  std::string failure_reason;  // when !aligned: why (too few priors, degenerate, no consensus)
  Sim3d priors_from_model;     // the transform that was applied to the scene
  std::vector<PriorResidual> residuals;  // by increasing image id
  double inlier_rms_m = 0;  // of |residual| over inliers
  double inlier_max_m = 0;

  int NumInliers() const;
  // The inliers' priors, by image id, for BundleAdjustmentConfig::position_priors.
  std::map<int, PositionPrior> InlierPriors(const Scene& scene) const;
};

struct BundleAdjustmentConfig;

// Adds the priors of an aligned model to an adjustment's config: the inlier position priors
// (for global adjustments) and the focal priors (options.focal_prior_relative_sigma).
void AddGeoreferencePriors(const PriorAlignmentOptions& options, const PriorAlignment& alignment,
                           const Scene& scene, bool with_positions, BundleAdjustmentConfig* config);

// Aligns the registered cameras (and points) of `scene` to their priors. On success the scene
// is transformed by the returned priors_from_model; otherwise it is unchanged and
// failure_reason says why. Deterministic for a given seed.
PriorAlignment AlignSceneToPriors(const PriorAlignmentOptions& options, uint64_t seed,
                                  Scene* scene);

// Recomputes each residual of `alignment` (its image ids and inlier flags as they are) from
// the scene's registered poses and priors, and the inliers' RMS and maximum: after the model
// moved (a georeference by ground control points). Precondition: every image has a prior.
void MeasurePriorResiduals(const Scene& scene, PriorAlignment* alignment);

// Moves the whole scene (registered poses and points) by new_from_old. Precondition: scale > 0.
void TransformScene(const Sim3d& new_from_old, Scene* scene);

}  // namespace proj
