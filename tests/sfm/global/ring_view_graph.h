// A synthetic view graph verified as the pipeline verifies one: cameras all around a box of
// points on surfaces (a closed ring, as `sfm synth` renders), keypoints with pixel noise, every pair
// verified by EstimateTwoViewGeometry under the cameras' focal priors, which may be wrong (no
// EXIF: the pipeline guesses 1.2 x the image width), tracks built from the verified inliers.
#pragma once

#include <cstdint>
#include <vector>

#include "sfm/scene/scene.h"
#include "sfm/scene/track_builder.h"
#include "sfm/scene/view_graph.h"

namespace proj::testing {

struct RingViewGraphOptions {
  int num_images = 16;
  int num_points = 400;
  int width = 1280;
  int height = 960;
  double true_focal_px = 1100;
  // Focal prior per camera; images use the cameras in turn (image i: camera i % size).
  std::vector<double> prior_focal_px = {1536};
  double radius_m = 10;
  // A point is seen from directions within this angle of its surface normal (horizontal,
  // random): images far apart on the ring share no points, as around real objects.
  double max_view_angle_deg = 70;
  double noise_px = 0.3;
  uint64_t seed = 7;
};

struct SyntheticViewGraph {
  Scene truth;  // true cameras, all images registered, points at their true positions
  Scene input;  // the priors' cameras and the noisy keypoints, nothing registered, no points
  TrackSet tracks;
  std::vector<VerifiedPair> pairs;  // the pairs verification keeps (not degenerate)
};
using RingViewGraph = SyntheticViewGraph;

// Every pair of `truth`'s images verified under the focal priors (camera c: prior_focal_px[c])
// from the true points' noisy keypoints, and the tracks of the verified inliers. The input
// keeps truth's position priors.
SyntheticViewGraph VerifyViewGraph(Scene truth, const std::vector<double>& prior_focal_px);

RingViewGraph MakeRingViewGraph(const RingViewGraphOptions& options);

// Largest distance between true and estimated points after the best similarity (Umeyama)
// from the estimate to the truth, relative to `scale`.
double MaxAlignedDistance(const std::vector<Eigen::Vector3d>& truth,
                          const std::vector<Eigen::Vector3d>& estimate, double scale);

// The centres of the images registered in `estimate`, and the true ones of the same images.
void RegisteredCentres(const Scene& truth, const Scene& estimate, std::vector<Eigen::Vector3d>* true_centres,
                       std::vector<Eigen::Vector3d>* centres);

}  // namespace proj::testing
