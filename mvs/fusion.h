// Fusion of filtered depth maps (mvs/geometric_filter.h) into one dense cloud, with
// visibility-based de-duplication so that the cloud grows with the surface seen, not with the
// number of views that see it (as COLMAP's StereoFusion, without its recursion over
// neighbours of neighbours).
//
// Views are visited in order, the pixels of each in row-major order. A pixel with a depth
// that no earlier cluster took seeds a cluster: its point is carried into each of the view's
// neighbours; the neighbour's nearest pixel (floor(u), floor(v)) joins when it has a depth,
// no cluster took it yet, its depth is within max_relative_depth_diff of the point's depth in
// that view and its normal within max_normal_angle_deg of the seed's. A cluster of at least
// min_views views (the seed's included) becomes one point: the mean of the members' points,
// their normalised mean normal, their mean colour; its pixels are then taken. Smaller clusters
// take nothing, so their pixels may still join or seed a later cluster.
// Optionally the cloud is then thinned on a voxel grid (one point per occupied voxel).
//
// Memory: the inputs are read in place (no copy); the extra is one byte per pixel of every
// view (taken masks) and candidate lists for a band of rows. Deterministic: the result does
// not depend on the number of threads (candidates are gathered in parallel, then committed in
// pixel order).
#pragma once

#include <vector>

#include "io/image.h"
#include "mvs/dense_cloud.h"
#include "mvs/dense_view.h"
#include "mvs/depth_map.h"
#include "mvs/normal_map.h"

namespace proj::mvs {

struct FusionOptions {
  // Views a cluster needs to become a point (the seed's and its neighbours'), clamped to 1 +
  // the number of the seed view's neighbours.
  int min_views = 3;
  double max_relative_depth_diff = 0.01;  // |depth in the neighbour - point's depth| / point's depth
  double max_normal_angle_deg = 15;       // between the seed's and a member's normal
  // Edge of the voxels that thin the cloud afterwards, in the model's unit (metres when
  // georeferenced); 0: no thinning. A voxel's point is the mean of its points (normals and
  // colours too), its num_views their sum (saturated).
  double voxel_size = 0;
  void Check() const;  // throws InputError naming the field
};

// One filtered view (non-owning; every map of its camera's size).
struct FusionView {
  const ViewGeometry* geometry = nullptr;
  const DepthMap* depth = nullptr;    // 0: no depth
  const NormalMap* normals = nullptr;
  const Image* colour = nullptr;      // RGB or grey of the camera's size; null or empty: grey points
  // Indices of other views seeing the same surfaces (e.g. its PatchMatch source views): a
  // cluster gathers pixels of these only, so more neighbours de-duplicate more.
  std::vector<int> neighbours;
};

// InputError when a map or colour image is not of its camera's size or a neighbour index is
// out of range; a view listed as its own neighbour, or twice, counts once. Pixel bands run on
// `num_threads` threads (<= 0: all).
DenseCloud FuseDepthMaps(const std::vector<FusionView>& views, const FusionOptions& options,
                         int num_threads = 0);

// The thinning step alone (as FusionOptions::voxel_size describes; voxel_size > 0).
DenseCloud VoxelDownsample(const DenseCloud& cloud, double voxel_size);

}  // namespace proj::mvs
