// What a run of the dense stage did: counts, the images it could not use and why, and times;
// report.json's "dense" object (mvs/dense_report.h).
#pragma once

#include <string>
#include <vector>

#include "mvs/dense_cloud.h"

namespace proj::mvs {

struct SkippedDenseImage {
  std::string name;
  std::string reason;
};

struct DenseSummary {
  std::string workspace;  // OUT/dense
  std::string device;     // where the depth maps were computed ("cpu", "gpu: ...")
  int max_image_size_px = 0;
  int num_images = 0;  // registered images of the model
  int num_images_undistorted = 0;  // in this run
  int num_images_undistort_reused = 0;
  // Registered images without a depth map: not undistorted (missing, unreadable, not their
  // camera's size), no source image, no sparse point in front of them, unreadable later.
  std::vector<SkippedDenseImage> skipped;
  int num_depth_maps_computed = 0;  // in this run
  int num_depth_maps_reused = 0;    // from an earlier run (resume)
  int num_gpu_failures = 0;         // depth maps redone after a GPU failure
  double depth_map_seconds_median = 0;  // of the depth maps computed in this run (PatchMatch)
  double depth_map_seconds_total = 0;
  long long num_points = 0;  // of the fused cloud (0 until fusion runs)
  long long num_pixels_with_depth = 0;  // in the photometric maps
  long long num_pixels_kept = 0;        // by the geometric filter
  // The fused cloud (OUT/dense/points.ply), in the model's frame, for the outputs written
  // above mvs (the georeferenced points.las, the report page).
  DenseCloud cloud;
  double undistort_seconds = 0;
  double depth_maps_seconds = 0;  // the depth-map step, loading and writing included
  double fusion_seconds = 0;
  double total_seconds = 0;
};

}  // namespace proj::mvs
