// The geometric-consistency filter of dense stereo: keeps a pixel of a photometric depth map
// only where other views' depth maps confirm it, so that fusion (mvs/fusion.h) sees only
// depths that several views agree on. Per reference image, so it can be streamed: it needs
// that image's maps and its source views' depth maps, nothing else.
//
// A pixel (x, y) of depth d > 0 keeps its depth and normal when
//  - its photometric cost (PatchMatchResult::cost) is at most max_cost, when a cost is given;
//  - its normal faces the camera: the angle between the normal and the ray back to the
//    camera is at most max_grazing_angle_deg (a zero normal fails);
//  - at least min_consistent_views source views pass the forward-backward check (as in ACMM,
//    Xu & Tao 2019, and COLMAP's geometric consistency): the point at depth d on the pixel's
//    ray projects into the source view at (u, v), in front of it and inside it; the source's
//    depth d_s there is > 0; the source's point at (u, v) and depth d_s projects back into the
//    reference within max_reprojection_px of (x + 0.5, y + 0.5), at a reference depth within
//    max_relative_depth_diff * d of d.
//    d_s is interpolated bilinearly in inverse depth between the four pixel centres around
//    (u, v) (exact on planes) when all four have depths within 5% of each other; else it is
//    the nearest pixel's, (floor(u), floor(v)). Back-projecting (u, v) itself rather than
//    the nearest pixel's centre keeps the sampling grid out of the error: with the pixel
//    centre, the error of a true depth reaches 0.7 source pixels times the scale between the
//    views, several reference pixels on slanted surfaces.
// Other pixels get depth 0 and normal (0, 0, 0).
#pragma once

#include <cstdint>
#include <vector>

#include "io/float_raster_file.h"
#include "mvs/dense_view.h"
#include "mvs/depth_map.h"
#include "mvs/normal_map.h"

namespace proj::mvs {

struct GeometricFilterOptions {
  // Source views that must agree; clamped to the number of source views given (an image with
  // a single source view needs that one). An image with no source view keeps nothing.
  int min_consistent_views = 1;  // fusion then asks for 3 views (FusionOptions::min_views)
  double max_reprojection_px = 1.0;       // forward-backward error in the reference, pixels
  double max_relative_depth_diff = 0.01;  // |d_back - d| / d
  // Largest photometric cost kept, in PatchMatchResult::cost's unit ([0, 2], 1 - ZNCC):
  // 0.9 is COLMAP's filter_min_ncc of 0.1. Only applies when a cost raster is given.
  double max_cost = 0.9;
  double max_grazing_angle_deg = 80;  // normal vs the ray to the camera, in (0, 90]
  void Check() const;                 // throws InputError naming the field
};

// A source view as the filter reads it (non-owning; the depth map is of the camera's size).
struct SourceDepth {
  const ViewGeometry* geometry = nullptr;
  const DepthMap* depth = nullptr;
};

struct FilterCounts {
  int64_t num_input = 0;            // pixels with a depth > 0
  int64_t num_kept = 0;
  int64_t num_rejected_cost = 0;    // the first test each rejected pixel failed
  int64_t num_rejected_normal = 0;
  int64_t num_rejected_inconsistent = 0;
};

struct FilteredDepthMap {
  DepthMap depth;
  NormalMap normals;
  FilterCounts counts;
};

// Filters one reference image's photometric maps. `cost` may be null (no cost test); maps,
// cost and every source's depth map must be of their camera's size (InputError otherwise).
// Rows run on `num_threads` threads (<= 0: all); the result does not depend on it.
FilteredDepthMap FilterDepthMap(const ViewGeometry& reference, const DepthMap& depth,
                                const NormalMap& normals, const FloatRaster* cost,
                                const std::vector<SourceDepth>& sources,
                                const GeometricFilterOptions& options, int num_threads = 0);

}  // namespace proj::mvs
