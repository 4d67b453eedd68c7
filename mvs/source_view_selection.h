// What PatchMatch needs of the sparse model for each reference image: its source images,
// the depth range to search and the sparse points it sees (seeds).
//
// Source images. A pair of registered images scores the sum, over the 3D points both observe,
// of w_angle(triangulation angle) * w_scale(resolution ratio):
//  - w_angle is 0 below min_angle_deg (no depth from so small a baseline), rises smoothly to 1
//    at full_angle_deg, stays 1 up to max_full_angle_deg and falls smoothly to 0 at
//    max_angle_deg (wide baselines see the surface too differently for a window to match);
//  - w_scale compares the size of a pixel on the point in both images (depth / focal length):
//    1 while one is at most max_scale_ratio times the other, then (max_scale_ratio / ratio)^2.
// This is the weighting of Goesele et al. ("Multi-view stereo for community photo
// collections", ICCV 2007) and OpenMVS, shaped like ACMM's Gaussian around a preferred angle
// but flat between 5 and 40 degrees; COLMAP counts shared points above a minimum angle. The
// best max_num_sources images by score are kept, those scoring less than min_relative_score
// times the best left out (they add PatchMatch time, not depth).
//
// Depth range (COLMAP's): the low_percentile and high_percentile of the camera-frame depths
// of the points the image observes, the first shrunk and the second stretched by `margin`.
// With fewer than min_points observed points, every point in front of the camera that
// projects into the image counts instead.
#pragma once

#include <optional>
#include <vector>

#include "mvs/patch_match.h"
#include "sfm/scene/scene.h"

namespace proj::mvs {

struct SourceViewOptions {
  int max_num_sources = 10;          // per reference image
  double min_angle_deg = 1.0;        // w_angle: 0 at and below
  double full_angle_deg = 5.0;       //   1 from here ...
  double max_full_angle_deg = 40.0;  //   ... to here
  double max_angle_deg = 60.0;       //   0 at and above
  double max_scale_ratio = 1.25;     // w_scale: 1 within this ratio of pixel footprints, >= 1
  double min_relative_score = 0.05;  // of the best source's score, in [0, 1]
  void Check() const;                // throws InputError naming the field
};

struct DepthRangeOptions {
  double low_percentile = 1.0;    // in [0, 100)
  double high_percentile = 99.0;  // in (low_percentile, 100]
  double margin = 0.25;           // in [0, 1): min *= 1 - margin, max *= 1 + margin
  int min_points = 5;             // observed points below which projected points count
  void Check() const;             // throws InputError naming the field
};

struct DepthRange {
  float min = 0, max = 0;  // camera-frame z, 0 < min < max
};

// w_angle and w_scale above (exposed for tests).
double TriangulationAngleWeight(double angle_deg, const SourceViewOptions& options);
double ScaleRatioWeight(double ratio, const SourceViewOptions& options);

// For every image id of `scene`: its source image ids, best first (empty for unregistered
// images and images sharing no well-triangulated point). Any camera model: only poses, mean
// focal lengths and points are used. Only registered images count in tracks.
std::vector<std::vector<int>> SelectSourceViews(const Scene& scene, const SourceViewOptions& options);

// The depth range of registered image `image_id` as above; nullopt when no point lies in
// front of it.
std::optional<DepthRange> ComputeDepthRange(const Scene& scene, int image_id, const DepthRangeOptions& options);

// The points registered image `image_id` observes, where they project in its PINHOLE camera
// (the pixel holding the projection) and at which depth; points behind it or projecting
// outside the image are left out. InputError for a camera other than PINHOLE.
std::vector<DepthSeed> ComputeDepthSeeds(const Scene& scene, int image_id);

}  // namespace proj::mvs
