// Computes the planned photometric depth maps (mvs/depth_map_plan.h) with RunPatchMatch and
// writes each one's depth, normal and cost maps as soon as it completes, then its line of
// resume.txt, so a killed run keeps every finished map.
//
// Where: over every GPU of DenseOptions::device and gpus, one image per GPU at a time, the
// worker thread computing it making that GPU its current CUDA device (two workers per GPU, so
// that writing one map overlaps computing the next); on the CPU one image at a time with
// num_threads threads. A depth map a GPU fails on is redone on another GPU, then on
// the CPU with every later one (cuda/gpu_fallback.h). The images of the next depth maps are
// decoded (in parallel) while the workers compute, through a DenseViewCache
// (mvs/dense_view_cache.h) of cache_size_mb. Ctrl-C stops between depth maps (maps under way
// finish and are written first).
#pragma once

#include <string>
#include <vector>

#include "mvs/dense_options.h"
#include "mvs/dense_resume.h"
#include "mvs/dense_summary.h"
#include "mvs/dense_workspace.h"
#include "mvs/depth_map_plan.h"
#include "sfm/scene/scene.h"

namespace proj::mvs {

struct DepthMapRun {
  std::vector<int> computed;               // image ids, in completion order
  std::vector<double> seconds;             // RunPatchMatch's time of each
  std::vector<SkippedDenseImage> skipped;  // an image that could not be read
  int num_gpu_failures = 0;
};

// Throws InputError when a map cannot be written, Interrupted on Ctrl-C (the record is
// written as each map completes). `record` loses the lines of every task's maps (written at
// once, before any map is rewritten) and gets a line per map written.
DepthMapRun ComputeDepthMaps(const Scene& pinhole, const std::vector<DepthMapTask>& tasks,
                             const DenseWorkspace& workspace, const DenseOptions& options, ResumeRecord* record);

}  // namespace proj::mvs
