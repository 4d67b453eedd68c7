// A start for global positioning from the GPS priors. From random positions the bearings' solve
// takes most of the global mapper's time on a large flight (1,000 images: 59 iterations, 95 s
// on 16 cores); the fixes are within metres of the answer. They are in the priors' frame (East,
// North, Up) and the averaged rotations in a frame of their own: the turn between the two is
// the rotation that takes the verified pairs' baseline directions (relative pose and rotations)
// onto the fixes' (Kabsch on unit vectors, RANSAC over the pairs; pairs whose fixes are too
// close to give a direction left out). The positioning then solves from there as from
// a random start: the bearings decide, and a wrong fix only slows it down.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include <Eigen/Geometry>

#include "sfm/scene/position_prior.h"
#include "sfm/scene/view_graph.h"

namespace proj {

struct PriorStartOptions {
  // A pair's fixes give its direction when they are further apart than this many times the
  // sum of their sigmas (1.5 m horizontal fixes 20 m apart: about 4 degrees).
  double min_baseline_sigmas = 5;
  int min_pairs = 10;  // agreeing with the turn
  double max_direction_error_deg = 10;  // a pair agrees when its directions are this close
  int ransac_iterations = 200;  // at most (Ransac stops earlier once confident)
  uint64_t seed = 0;
  void Check() const;
};

struct PriorStart {
  // Per image (rotations' frame, metres): the fix turned, for images with one; the mean of the
  // fixes for the others (the solve moves them).
  std::vector<Eigen::Vector3d> centres;
  Eigen::Quaterniond priors_from_rotations = Eigen::Quaterniond::Identity();
  int num_pairs = 0;               // pairs that agree with the turn
  double median_error_deg = 0;     // their directions' disagreement with it
};

// nullopt when fewer than min_pairs pairs of images in `in_model` give a direction, or their
// directions lie on a line (the turn about it is free).
std::optional<PriorStart> StartFromPriors(const PriorStartOptions& options, const std::vector<VerifiedPair>& pairs,
                                          const std::vector<Eigen::Quaterniond>& rotations,
                                          const std::vector<char>& in_model,
                                          const std::map<int, PositionPrior>& priors);

}  // namespace proj
