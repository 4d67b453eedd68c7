// The KLT stage of `--matcher klt`: decodes the folder's images in name order, tracks KLT
// features through them with the pairs verified meanwhile, adds SIFT matches between
// keyframes (--klt-keyframe-sift), and writes everything to the scene database in one
// transaction: images (ids kept for names already there), cameras, keypoints (a keyframe's
// KLT points followed by its SIFT keypoints, the split in proj_klt_images), putative matches
// and two-view geometries. Tracking is sequential and fast, so the stage is all or nothing:
// it is reused when the folder and its options are unchanged, and otherwise run again whole.
#pragma once

#include <string>
#include <vector>

#include "sfm/pipeline/reconstruction_pipeline.h"

namespace proj {

StageOptions SequenceFingerprint(const ReconstructionOptions& options);

// `paths`: the folder's image files in name order. Returns the usable images' ids in name
// order; fills result's skipped files, descriptions, statistics and times.
std::vector<int> RunSequenceStage(const ReconstructionOptions& options,
                                  const std::vector<std::string>& paths, SceneDatabase* database,
                                  ReconstructionResult* result);

}  // namespace proj
