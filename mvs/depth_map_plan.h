// Which photometric depth maps the dense stage computes, from what, and which it keeps from
// an earlier run: for every registered image of the PINHOLE model its source images, depth
// range and seeds (mvs/source_view_selection.h), and the hash of everything its maps are
// computed from (mvs/dense_resume.h).
#pragma once

#include <cstdint>
#include <vector>

#include "mvs/dense_options.h"
#include "mvs/dense_resume.h"
#include "mvs/dense_summary.h"
#include "mvs/dense_workspace.h"
#include "sfm/scene/scene.h"

namespace proj::mvs {

struct DepthMapTask {
  int image_id = -1;
  std::vector<int> source_ids;  // best first
  DepthRange depth_range;
  std::vector<DepthSeed> seeds;
  uint64_t inputs_hash = 0;  // what resume.txt records once its maps are written
};

struct DepthMapPlan {
  std::vector<DepthMapTask> to_compute;    // in image id order
  std::vector<int> reused;                 // image ids whose maps of an earlier run are kept
  std::vector<SkippedDenseImage> skipped;  // no source image, or no depth range
  // By image id: the source images of each image with a depth map (computed or reused),
  // best first; empty for the others. What the filter checks a map against and fusion merges.
  std::vector<std::vector<int>> sources;
};

// `image_hashes`: of each undistorted image, by image id (mvs/dense_undistortion.h). An
// image's maps are reused when resume.txt records the hash of its inputs and its depth,
// normal and cost maps are there with the sizes its camera gives.
DepthMapPlan PlanDepthMaps(const Scene& pinhole, const std::vector<uint64_t>& image_hashes,
                           const DenseWorkspace& workspace, const DenseOptions& options, const ResumeRecord& record);

// Whether `path` holds a float raster (io/float_raster_file.h) of that size, judged by its
// length: enough for maps written atomically, without reading them.
bool RasterFileHasSize(const std::string& path, int width, int height, int channels);

}  // namespace proj::mvs
