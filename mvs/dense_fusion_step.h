// The dense stage's last step, after the photometric depth maps: the geometric-consistency
// filter (mvs/geometric_filter.h) of every map against its source images' maps, written as
// the geometric maps (what COLMAP's stereo_fusion reads with --input_type geometric), then
// the fusion of the filtered maps into one cloud (mvs/fusion.h), written to
// OUT/dense/points.ply. Both are recomputed on every run (seconds, against minutes of
// PatchMatch), so they never mix maps of different runs. points.las, in the sparse outputs'
// georeferenced frame, is written above mvs (sfm/pipeline, sfm/app), where the georeference
// is known.
#pragma once

#include <vector>

#include "mvs/dense_cloud.h"
#include "mvs/dense_options.h"
#include "mvs/dense_workspace.h"
#include "sfm/scene/scene.h"

namespace proj::mvs {

struct DenseFusionSummary {
  int num_depth_maps = 0;            // photometric maps given (computed now or reused)
  long long num_pixels_with_depth = 0;  // in the photometric maps
  long long num_pixels_kept = 0;        // after the filter
  long long num_points = 0;             // of the fused cloud
  double filter_seconds = 0;
};

// `image_ids`: the registered images of the PINHOLE model `pinhole` whose photometric maps
// (depth, normal, cost) are in `workspace` (increasing ids); `sources`: by image id, the
// source images each of those maps was computed against, best first (the views the filter
// checks it against and fusion's neighbours; sources without a map are left out). The
// undistorted colour images are read from workspace.ImagesDir(). Returns the cloud written.
// InputError naming the file when a map or image cannot be read.
DenseCloud FuseDenseCloud(const Scene& pinhole, const DenseWorkspace& workspace, const std::vector<int>& image_ids,
                          const std::vector<std::vector<int>>& sources, const DenseOptions& options,
                          DenseFusionSummary* summary);

}  // namespace proj::mvs
