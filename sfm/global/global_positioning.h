// Global positioning: camera centres and 3D points at once from known rotations and the
// observed bearing of each point in each image (GLOMAP, Pan et al., "Global Structure-from-
// Motion Revisited", ECCV 2024; the loss of BATA, Zhuang et al., CVPR 2018). Each observation
// asks that the bearing v (unit, world frame) equal s * (X - c) for a free per-observation
// scale s > 0: unlike the reprojection error this is smooth everywhere and does not care how
// far the point is, so the problem converges from random positions and no initial
// reconstruction is needed. A Huber loss caps wrong observations.
//
// With position priors (GPS fixes, scene.position_priors) the centres are also pulled towards
// them, so that the positions are in the priors' frame from the start and parts of the view
// graph that the bearings tie only weakly (flight lines linked by few tracks, a scale along a
// straight line) take the fixes' shape instead of drifting.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <Eigen/Geometry>

#include "sfm/scene/position_prior.h"
#include "sfm/scene/scene.h"
#include "sfm/scene/track_builder.h"

namespace proj {

struct BearingObservation {
  int image_id = kInvalidId;
  Eigen::Vector3d direction = Eigen::Vector3d::UnitZ();  // unit, world frame
};

struct GlobalPositioningOptions {
  double loss_scale = 0.1;      // Huber threshold on the bearing residual (unit vectors)
  double init_extent = 100;     // random initial positions in [-extent, extent]^3
  int max_iterations = 200;
  // Relative cost decrease to stop at, GLOMAP's: the bundle adjustments refine the positions
  // anyway. 1e-10 took 2.7x the time (200-image flight: 211 iterations, 68 s on 2 cores, against
  // 76 and 25 s) for the same models (20.5-21.5 against 21.8 mm; Strecha equal).
  double function_tolerance = 1e-5;
  // Priors: the bearings' solution is brought into the priors' frame by the similarity that
  // fits most of them (RANSAC, inliers within prior_loss_scale sigmas), then solved once more
  // with each prior's residual (centre - prior) / sigma, under a Huber loss at
  // prior_loss_scale sigmas (a wrong fix pulls no harder than that), times prior_weight. A
  // bearing residual is about offset / distance (1.5 m at 80 m: 0.02) for each of hundreds of
  // observations per image, so at 0.1 the fixes weigh about a tenth of the bearings of a
  // well-tied image: they settle what the bearings leave free without bending what they fix.
  // Used when at least min_priors positioned images have one and their centres spread across
  // their principal line by more than prior_min_spread_sigmas of their sigmas.
  double prior_weight = 0.1;
  double prior_loss_scale = 3;
  int min_priors = 3;
  double prior_min_spread_sigmas = 3;
  int num_threads = 0;          // 0 = all cores
  uint64_t seed = 0;
  void Check() const;
};

struct GlobalPositioningResult {
  bool success = false;
  std::vector<Eigen::Vector3d> centres;  // per image; only those observed are meaningful
  std::vector<Eigen::Vector3d> points;   // per input track
  // With priors used, the result is in their frame: the rotations given turn into it as
  // cam_from_world * priors_from_bearings^-1.
  bool used_priors = false;
  Eigen::Quaterniond priors_from_bearings = Eigen::Quaterniond::Identity();
  int num_iterations = 0;
  double time_s = 0;
  std::string message;
};

// Positions every image observed by `tracks` (each a list of bearings of one point, in
// distinct images), from random starts, or from `start_centres` (per image, in the bearings'
// frame; sfm/global/prior_start.h) when given: the points are then first solved with the
// centres held. Without priors (or too few) the result is defined up to translation and scale
// (rotations are given); with them, in the priors' frame.
GlobalPositioningResult PositionCamerasAndPoints(const GlobalPositioningOptions& options,
                                                 int num_images,
                                                 const std::vector<std::vector<BearingObservation>>& tracks,
                                                 const std::map<int, PositionPrior>& priors = {},
                                                 const std::vector<Eigen::Vector3d>& start_centres = {});

// The tracks positioning uses: those with at least min_length observations in images of
// `in_use`, longest first (ties: lower id), each kept while one of its images has fewer than
// per_image tracks kept (a few hundred well-spread tracks per image fix the positions; all of
// them would only slow the solve). Returns track ids.
std::vector<int> SelectPositioningTracks(const TrackSet& tracks, const std::vector<char>& in_use,
                                         int min_length, int per_image);

// The bearings of a track's observations in images of `in_use`, under the images' rotations
// (cam_from_world) and cameras (undistorted).
std::vector<BearingObservation> TrackBearings(const Scene& scene,
                                              const std::vector<TrackElement>& track,
                                              const std::vector<Eigen::Quaterniond>& rotations,
                                              const std::vector<char>& in_use);

}  // namespace proj
