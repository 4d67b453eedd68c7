// The dense stage's last step, after the photometric depth maps: the geometric-consistency
// filter (mvs/geometric_filter.h) and the fusion of the filtered maps into one cloud
// (mvs/fusion.h: OUT/dense/points.ply). points.las, in the sparse outputs' georeferenced
// frame, is written above mvs (sfm/pipeline, sfm/app), where the georeference is known.
//
// NOT WIRED YET: FuseDenseCloud only counts the depth maps it was given. The filter
// (FilterDepthMap) and fusion (FuseDepthMaps) are to be called from FuseDenseCloud
// (dense_fusion_step.cc), the one place to wire them.
#pragma once

#include <vector>

#include "mvs/dense_options.h"
#include "mvs/dense_workspace.h"
#include "sfm/scene/scene.h"

namespace proj::mvs {

struct DenseFusionSummary {
  int num_depth_maps = 0;    // photometric maps given (computed now or reused)
  long long num_points = 0;  // of the fused cloud
};

// `image_ids`: the registered images of the PINHOLE model `pinhole` whose photometric maps
// (depth, normal, cost) are in `workspace` (increasing ids); `sources`: by image id, the
// source images each of those maps was computed against, best first (the views the filter
// checks it against and fusion's neighbours). The undistorted colour images are in
// workspace.ImagesDir() (mvs/dense_view_cache.h loads them with colour).
DenseFusionSummary FuseDenseCloud(const Scene& pinhole, const DenseWorkspace& workspace,
                                  const std::vector<int>& image_ids, const std::vector<std::vector<int>>& sources,
                                  const DenseOptions& options);

}  // namespace proj::mvs
