// Global positioning: camera centres and 3D points at once from known rotations and the
// observed bearing of each point in each image (GLOMAP, Pan et al., "Global Structure-from-
// Motion Revisited", ECCV 2024; the loss of BATA, Zhuang et al., CVPR 2018). Each observation
// asks that the bearing v (unit, world frame) equal s * (X - c) for a free per-observation
// scale s > 0: unlike the reprojection error this is smooth everywhere and does not care how
// far the point is, so the problem converges from random positions and no initial
// reconstruction is needed. A Huber loss caps wrong observations.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <Eigen/Geometry>

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
  double function_tolerance = 1e-10;
  int num_threads = 0;          // 0 = all cores
  uint64_t seed = 0;
  void Check() const;
};

struct GlobalPositioningResult {
  bool success = false;
  std::vector<Eigen::Vector3d> centres;  // per image; only those observed are meaningful
  std::vector<Eigen::Vector3d> points;   // per input track
  int num_iterations = 0;
  double time_s = 0;
  std::string message;
};

// Positions every image observed by `tracks` (each a list of bearings of one point, in
// distinct images). The result is defined up to translation and scale (rotations are given).
GlobalPositioningResult PositionCamerasAndPoints(const GlobalPositioningOptions& options,
                                                 int num_images,
                                                 const std::vector<std::vector<BearingObservation>>& tracks);

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
