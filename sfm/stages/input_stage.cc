#include "sfm/stages/input_stage.h"

#include <utility>

#include "core/check.h"
#include "core/logging.h"
#include "core/timer.h"
#include "sfm/stages/gps_priors.h"
#include "sfm/stages/sequence_stage.h"

namespace proj {

ExtractionStageSummary RunExtractionStage(const ReconstructionOptions& options,
                                          const std::string& images_dir, SceneDatabase* database) {
  StageTimes times;
  InputImages input = PrepareInputImages(options.video, images_dir, FramesDirFor(database->path()));
  if (!input.videos.empty()) times.Add("video_decoding", input.decode_seconds);
  const std::vector<std::string>& paths = input.paths;
  PROJ_REQUIRE(!paths.empty(), "'" << images_dir << "' holds no image file (.jpg, .jpeg, .png) and no readable video");
  Timer timer;
  ExtractionStageSummary summary;
  if (options.correspondences == CorrespondenceSource::kKltTracks) {
    summary = RunSequenceStage(options, paths, database);
  } else {
    ExtractionSummary extracted =
        ExtractFolder(options.extraction, options.cameras, options.on_option_change, paths, database);
    summary.times.Add("feature_extraction", timer.ElapsedSeconds());
    summary.extractor = extracted.extractor_description;
    summary.skipped = std::move(extracted.skipped);
    summary.counts.num_features = extracted.num_features;
    summary.counts.num_images_extracted = extracted.num_extracted;
    summary.counts.num_images_reused = extracted.num_reused;
    summary.counts.num_images_removed = extracted.num_removed;
    summary.image_ids = std::move(extracted.image_ids);
  }
  times.Merge(summary.times);
  summary.times = std::move(times);
  InputCounts& counts = summary.counts;
  counts.num_input_files = static_cast<int>(paths.size() + input.skipped_videos.size());
  for (SkippedFile& video : input.skipped_videos) summary.skipped.push_back(std::move(video));
  summary.videos = std::move(input.videos);
  summary.video_frames = std::move(input.frames);
  summary.frames_dir = std::move(input.frames_dir);
  counts.num_usable_images = static_cast<int>(summary.image_ids.size());
  counts.num_gps_priors = ReviewGpsPriors(options.extraction.gps, summary.image_ids, database).num_with_gps;
  PROJ_LOG(kInfo, "features: " << counts.num_features << " in " << summary.image_ids.size() << " images");
  return summary;
}

}  // namespace proj
