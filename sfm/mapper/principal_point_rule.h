// When the data constrain a camera's principal point (--refine-principal-point auto).
//
// A principal point shift is nearly the same, in every image, as a small rotation of that
// image, so a bundle adjustment can tell them apart only from enough views of one camera
// that look at common structure from clearly different directions, with well-triangulated
// points and many observations each. Few or similar views let it drift into the poses
// (COLMAP keeps it fixed for that reason). The mapper refines it, after a model with a fixed
// principal point is finished, for the cameras whose evidence passes the rule, and keeps the
// result only when it is plausible (near the image centre, a lower reprojection error, the
// model intact); otherwise it restores the model with the principal point at the centre.
#pragma once

#include <set>
#include <string>

#include "sfm/scene/scene.h"

namespace proj {

// What the registered images of one camera offer.
struct PrincipalPointEvidence {
  int num_images = 0;                    // registered images of the camera
  double median_points_per_image = 0;    // triangulated points each sees
  double viewing_spread_deg = 0;         // largest angle between two of their optical axes
  double median_triangulation_angle_deg = 0;  // of the points they see (widest pair of rays)
  std::string ToString() const;
};

struct PrincipalPointRule {
  int min_images = 6;
  double min_points_per_image = 300;
  double min_viewing_spread_deg = 20;
  // Forward motion (a car, a walk) sees each point over a few degrees only (synthetic street
  // with KLT tracks: 4.3 deg), and there the principal point trades against the cameras'
  // pitch: refined, it moved 3 px and tilted every camera by 0.2 deg. Strecha's scenes have
  // 13.8 to 22.6 deg and gain from it.
  double min_triangulation_angle_deg = 8;
  // The refined point must stay within this fraction of the width (x) and height (y) of the
  // image centre.
  double max_offset_fraction = 0.05;
  // The refined model must keep at least this share of the points ...
  double min_points_kept = 0.95;
  // ... and lower the mean point error by at least this fraction: Strecha's scenes gain 1.5-5%;
  // the 12-image synthetic scene (true centre) gained 0.05% for a 0.8 px shift that tilted
  // every camera by 0.04 deg.
  double min_error_reduction = 0.005;
};

// Evidence of `camera_id` in the scene's registered images and points.
PrincipalPointEvidence MeasurePrincipalPointEvidence(const Scene& scene, int camera_id);
bool PrincipalPointConstrained(const PrincipalPointEvidence& evidence, const PrincipalPointRule& rule);
// Whether the camera's principal point is within the rule's distance of its image centre.
bool PrincipalPointPlausible(const Camera& camera, const PrincipalPointRule& rule);
// Whether refining the principal point lowered the mean point error (MeanPointError) enough.
bool PrincipalPointErrorReducedEnough(double centred_error, double refined_error,
                                      const PrincipalPointRule& rule);
// The cameras whose principal point the data constrain; logs each camera's evidence.
std::set<int> CamerasWithConstrainedPrincipalPoint(const Scene& scene, const PrincipalPointRule& rule);

// Mean over the points of their mean reprojection error (px).
double MeanPointError(const Scene& scene);

}  // namespace proj
