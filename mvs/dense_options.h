// Options of the dense stage (mvs/dense_reconstruction.h): how large the undistorted images
// are, which source images and depth range each depth map uses, PatchMatch's parameters, and
// where it runs.
#pragma once

#include "core/compute_device.h"
#include "mvs/fusion.h"
#include "mvs/geometric_filter.h"
#include "mvs/patch_match_options.h"
#include "mvs/source_view_selection.h"

namespace proj::mvs {

struct DenseOptions {
  // Largest width or height of the undistorted images depth maps are computed on, px; 0 keeps
  // each camera's size. 2000 by default: about 2.7 Mpx for a 3:2 photo, where PatchMatch on a
  // GPU takes a fraction of a second and the CPU path a few minutes per image; 24-45 Mpx
  // photos at full size cost 10-20 times that for depth maps whose extra detail fusion
  // mostly merges away. COLMAP's GUI sets 2000 likewise; its automatic reconstructor uses
  // 1000, 1600 and 2400 for low, medium and high quality.
  int max_image_size_px = 2000;
  SourceViewOptions sources;  // max_num_sources (--dense-num-sources) at most kMaxPatchMatchSources
  DepthRangeOptions depth_range;
  PatchMatchOptions patch_match;
  GeometricFilterOptions filter;
  FusionOptions fusion;
  ComputeDevice device = ComputeDevice::kAuto;
  GpuSelection gpus;  // depth maps spread over these GPUs, one image per GPU at a time
  int num_threads = 0;  // CPU threads (undistortion; PatchMatch on the CPU); 0 = all
  // Decoded images kept for reuse by later depth maps (each image is a source of several),
  // MiB; the images of the depth maps in flight are held besides.
  int cache_size_mb = 2048;
  void Check() const;  // throws InputError naming the field
};

}  // namespace proj::mvs
