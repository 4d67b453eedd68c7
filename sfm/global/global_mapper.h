// Global Structure-from-Motion (as GLOMAP does it): all cameras at once instead of one by one.
//   0. focal lengths of the cameras without an EXIF focal length from the pairs' fundamental
//      matrices, and the relative poses of their pairs estimated again under them
//      (view_graph_calibration.h, the incremental mapper's first step too), or where that finds
//      none, from a small incremental model (focal_bootstrap.h);
//   1. view graph: pairs with a relative pose (planar ones with less weight), largest
//      connected component;
//   2. rotation averaging (rotation_averaging.h), dropping pairs inconsistent with the averaged
//      rotations and averaging again;
//   3. global positioning of camera centres and a subset of points (global_positioning.h),
//      pulled towards the GPS priors when the scene has them;
//   4. refinement shared with the incremental mapper: triangulation of every track from the
//      positioned cameras, then rounds of global bundle adjustment (lens distortion held, as
//      the incremental mapper holds it while growing), filtering and re-triangulation with a
//      reprojection threshold tightened to the incremental mapper's; the images steps 1-3 left out registered as the incremental
//      mapper registers them (GrowModel); its final refinement
//      (RefineFinalModel: rounds until stable, then the principal point where the views
//      constrain it).
// Cost grows with the number of images and pairs, not with the number of registration steps;
// see README "Mappers" for when it beats the incremental mapper.
#pragma once

#include "sfm/mapper/view_graph_calibration.h"
#include "sfm/global/focal_bootstrap.h"
#include "sfm/global/global_positioning.h"
#include "sfm/global/prior_start.h"
#include "sfm/global/rotation_averaging.h"
#include "sfm/global/scale_check.h"
#include "sfm/mapper/incremental_mapper.h"

namespace proj {

struct GlobalMapperOptions {
  // Step 0 (focal calibration and relative poses again): refinement.calibration; a camera it
  // leaves at its prior (no EXIF, no minimum) from a small incremental model instead.
  FocalBootstrapOptions focal_bootstrap;
  int min_pair_inliers = 30;           // pairs with fewer inlier matches are not averaged
  double planar_pair_weight = 0.1;     // UsableRelativeRotations; 0: planar pairs not averaged
  double max_rotation_error_deg = 10;  // pairs farther from the averaged rotations are dropped
  RotationAveragingOptions rotation_averaging;
  GlobalPositioningOptions positioning;
  // With GPS priors, positioning starts from the fixes turned into the rotations' frame, not
  // from random positions (sfm/global/prior_start.h).
  bool start_from_priors = true;
  PriorStartOptions prior_start;
  ScaleCheckOptions scale_check;  // images positioned at another scale: registered incrementally
  int positioning_min_track_length = 3;
  int positioning_tracks_per_image = 300;
  // Refinement: triangulation and filtering start at this multiple of
  // refinement.max_reproj_error_px, divided by reproj_error_factor_step each round while above
  // 1; then the incremental mapper's final rounds at 1. Each round is a full bundle adjustment,
  // and positioned cameras are close enough (fountain-P11: mean error 0.43 px after the first
  // round) that one round before the final ones gives the same model (6.10 mm) as five.
  double initial_reproj_error_factor = 16;
  double reproj_error_factor_step = 16;
  // Triangulation, filtering and bundle adjustment thresholds, iterations, threads, seed and
  // final rounds: those of the incremental mapper.
  IncrementalMapperOptions refinement;
  void Check() const;
};

struct GlobalMapperTrace {
  std::vector<CameraFocalCalibration> focal_calibration;  // per camera
  int num_pairs_reestimated = 0;  // relative poses estimated again under calibrated focals
  int num_pairs_used = 0;  // after both view graph filters
  int num_pairs_dropped_rotation = 0;
  RotationAveragingSummary rotation_averaging;
  int num_positioning_tracks = 0;
  int num_off_scale = 0;  // positioned at another scale than the rest, registered incrementally instead
  GlobalPositioningResult positioning;  // centres and points cleared after use
};

// Same contract as RunIncrementalMapper: `scene` holds cameras and images with keypoints,
// nothing registered; on return it holds the model (images that neither the global steps nor
// the incremental registration place, or left with no observation, stay unregistered).
MapperSummary RunGlobalMapper(const GlobalMapperOptions& options, const TrackSet& tracks,
                              const std::vector<VerifiedPair>& verified_pairs, Scene* scene,
                              GlobalMapperTrace* trace = nullptr);

// Steps 1-2: cam_from_world rotations per image, and per image whether the model can hold it
// (in the largest component of the consistent pairs).
struct GlobalRotations {
  std::vector<Eigen::Quaterniond> rotations;
  std::vector<char> in_model;
};
GlobalRotations EstimateGlobalRotations(const GlobalMapperOptions& options, int num_images,
                                        const std::vector<VerifiedPair>& verified_pairs,
                                        GlobalMapperTrace* trace = nullptr);

}  // namespace proj
