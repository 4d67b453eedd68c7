// The first stage of a run: the photos and video frames of the input (a folder, or one video
// whose frames video_frames_stage.h picks into the folder `frames` beside the database) to
// images, cameras and features in the scene database: SIFT extraction (extraction_stage.h),
// or KLT tracking with its verification (--matcher klt, sequence_stage.h).
#pragma once

#include <string>

#include "sfm/database/scene_database.h"
#include "sfm/stages/reconstruction_options.h"
#include "sfm/stages/stage_summaries.h"

namespace proj {

// `options` resolved (ReconstructionOptions::Resolve); `database` open read-write. Throws
// InputError for a missing folder, an input without images, or options that differ from the
// stored ones under kStop. Returns the usable images' ids in name order, the skipped files,
// the videos and their picked frames.
ExtractionStageSummary RunExtractionStage(const ReconstructionOptions& options,
                                          const std::string& images_dir, SceneDatabase* database);

}  // namespace proj
