// The dense stage: from a sparse model to depth maps and a dense cloud, in a workspace laid
// out as mvs/dense_workspace.h says (COLMAP's layout), in three steps:
//  1. the model's images undistorted to PINHOLE cameras at max_image_size_px
//     (mvs/dense_undistortion.h), the PINHOLE model written to sparse/ and read back;
//  2. a photometric depth, normal and cost map per registered image by PatchMatch stereo
//     (mvs/depth_map_plan.h: sources, depth range, seeds; mvs/depth_map_runner.h: GPUs or
//     CPU, each map written as it completes);
//  3. the geometric filter and fusion (mvs/dense_fusion_step.h).
// Every file is written atomically and recorded with the hash of its inputs
// (mvs/dense_resume.h), so a killed run, run again, computes only what is missing or stale.
#pragma once

#include <string>

#include "mvs/dense_options.h"
#include "mvs/dense_summary.h"
#include "sfm/image_source/image_source.h"
#include "sfm/scene/scene.h"

namespace proj::mvs {

// `scene`: the sparse model with its original cameras (any supported model), its images
// found through `images`; `dense_root`: the workspace (OUT/dense), created when missing.
// Images that cannot be used are named in the log and in DenseSummary::skipped. Throws
// InputError for bad options, a model without registered images, no image that could be
// undistorted, or a workspace that cannot be written; Interrupted on Ctrl-C.
DenseSummary ReconstructDense(const Scene& scene, const ImageSource& images, const std::string& dense_root,
                              const DenseOptions& options);

// "dense: 11 depth maps (9 computed, 2 reused), 0.84 s per depth map (median), 1 image
// skipped, 12.3 s in all": the closing line of the stage.
std::string DenseSummaryLine(const DenseSummary& summary);

}  // namespace proj::mvs
