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

#include "sfm/stages/reconstruction_options.h"
#include "sfm/stages/stage_summaries.h"

namespace proj {

StageOptions SequenceFingerprint(const ReconstructionOptions& options);

// `paths`: the folder's image files in name order. Returns the usable images' ids in name
// order with the skipped files, descriptions, counts (of images and of pairs) and times.
ExtractionStageSummary RunSequenceStage(const ReconstructionOptions& options,
                                        const std::vector<std::string>& paths, SceneDatabase* database);

// Tracking of decoded frames, with the pairs verified (options.two_view) on the CPU threads
// while later frames are tracked (klt_stage.h). RunSequenceStage runs this; bench/klt_bench
// times it on frames in memory. `tracker`: see TrackAndVerifyDecodedSequence.
KltStageResult TrackAndVerifyFrames(const ReconstructionOptions& options,
                                    const DecodedSequence& sequence, KltTracker* tracker = nullptr);

}  // namespace proj
