// The first stage of a run: the photos and video frames of the input (a folder, or one video
// whose frames video_frames_stage.h picks into the folder `frames` beside the database) to
// images, cameras and features in the scene database: SIFT extraction (extraction_stage.h),
// or KLT tracking with its verification (--matcher klt, sequence_stage.h).
#pragma once

#include <optional>
#include <string>

#include "sfm/database/scene_database.h"
#include "sfm/stages/reconstruction_options.h"
#include "sfm/stages/shard.h"
#include "sfm/stages/stage_summaries.h"

namespace proj {

// `options` resolved (ReconstructionOptions::Resolve); `database` open read-write. Throws
// InputError for a missing folder, an input without images, or options that differ from the
// stored ones under kStop. Returns the usable images' ids in name order, the skipped files,
// the videos and their picked frames.
// With `shard`, only the shard's photos go into `database` (shard.h; videos and KLT are an
// InputError), the database is marked as that shard, complete once done, and the GPS priors
// are left unreviewed: the review needs the whole flight, so the merge does it.
ExtractionStageSummary RunExtractionStage(const ReconstructionOptions& options,
                                          const std::string& images_dir, SceneDatabase* database,
                                          const std::optional<Shard>& shard = std::nullopt);

// The --gps-altitude-datum an extraction shard was made with, from its record's options
// (ShardRecord::options); nullopt for auto.
std::optional<VerticalDatum> ShardAltitudeDatum(const StageOptions& shard_options);

}  // namespace proj
