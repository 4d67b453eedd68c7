// Georeferencing a model by its images' GPS priors (Scene::position_priors): a robust
// similarity from the registered camera centres to their priors (RANSAC + Umeyama,
// geometry/ransac/estimate_similarity.h) is applied to the whole scene, so the model's world
// frame becomes the priors' frame (metric, local East-North-Up). Priors that disagree with the
// alignment by more than max_error_m are outliers (a wrong fix): they take no further part.
// The incremental mapper aligns before each global adjustment once enough images with priors
// are registered, then keeps the inlier priors as residuals in that adjustment, and aligns a
// last time at the end.
//
// An alignment is refused (not a georeference) when its inliers cannot fix the model's
// orientation, or when the model disagrees with most of the fixes:
//  - inlier centres nearly on a line: the similarity's roll about that line is undetermined
//    (Umeyama returns an arbitrary one; a user saw a survey rolled 63 deg off nadir that way).
//    The GPS heights cannot fix it either, for they lie on the same line; the cameras' nadir
//    attitude could, but an aligned model is then still only as good as that assumption. So
//    a single-strip flight is not georeferenced by GPS (use --gcp): refused when the roll
//    about the inliers' principal line is known to worse than max_roll_uncertainty_deg;
//  - inliers fewer than min_inlier_share of the registered fixes (from min_fixes_for_share
//    fixes on): the model is then more likely wrong than most of the GPS fixes.
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
  // Refusals (above). The roll about the inliers' principal line is determined to about
  // sigma / (d * sqrt(n)) radians, sigma the fixes' standard deviation, d the RMS distance of
  // the n aligned inlier centres from that line; > 0.
  double max_roll_uncertainty_deg = 5.0;
  double min_inlier_share = 0.5;  // in [0, 1]
  int min_fixes_for_share = 6;    // registered fixes from which the share is required

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
  double inlier_median_m = 0;
  // |residual| over every registered fix, inliers and outliers: how far the model is from
  // the GPS as a whole (a wrong model keeps a few inliers and drops the rest).
  double all_median_m = 0;
  double all_rms_m = 0;
  double all_max_m = 0;
  // The roll uncertainty of the (last attempted) alignment, degrees (above); 180 when the
  // inliers are all on one point.
  double roll_uncertainty_deg = 0;

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
// is transformed by the returned priors_from_model; otherwise (no consensus, or a refusal
// above) it is unchanged and failure_reason says why; a refused alignment keeps its residuals
// (as if applied) for the record. Deterministic for a given seed.
PriorAlignment AlignSceneToPriors(const PriorAlignmentOptions& options, uint64_t seed,
                                  Scene* scene);

// Recomputes each residual of `alignment` (its image ids and inlier flags as they are) from
// the scene's registered poses and priors, and the figures over inliers and over all fixes:
// after the model moved (a georeference by ground control points, a later adjustment).
// Precondition: every image has a prior.
void MeasurePriorResiduals(const Scene& scene, PriorAlignment* alignment);

// The roll uncertainty above, degrees, of fixes with standard deviation `sigma_m` at the
// aligned centres `centers_m` (metres); 180 with fewer than two distinct centres.
double RollUncertaintyDeg(const std::vector<Eigen::Vector3d>& centers_m, double sigma_m);

// Moves the whole scene (registered poses and points) by new_from_old. Precondition: scale > 0.
void TransformScene(const Sim3d& new_from_old, Scene* scene);

}  // namespace proj
