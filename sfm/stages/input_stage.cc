#include "sfm/stages/input_stage.h"

#include <filesystem>
#include <utility>

#include "core/check.h"
#include "core/logging.h"
#include "core/timer.h"
#include "sfm/stages/gps_priors.h"
#include "sfm/stages/sequence_stage.h"

namespace proj {

namespace {

// What every extraction shard of a run must share beyond the extraction options: the cameras
// (assigned per shard) and the datum of the GPS altitudes (for the merge's GPS review).
StageOptions ExtractionShardOptions(const ReconstructionOptions& options) {
  const std::optional<VerticalDatum>& datum = options.extraction.gps.altitude_datum;
  StageOptions shard_options = options.cameras.Fingerprint();
  shard_options.Add("--gps-altitude-datum", datum ? VerticalDatumKey(*datum) : "auto");
  return shard_options;
}

std::vector<std::string> PathsInShard(const std::vector<std::string>& paths, const Shard& shard) {
  std::vector<std::string> kept;
  for (const std::string& path : paths) {
    if (ImageInShard(std::filesystem::path(path).filename().string(), shard)) kept.push_back(path);
  }
  return kept;
}

}  // namespace

std::optional<VerticalDatum> ShardAltitudeDatum(const StageOptions& shard_options) {
  const std::string key = shard_options.Value("--gps-altitude-datum").value_or("auto");
  if (key == "auto") return std::nullopt;
  return VerticalDatumFromKey(key);
}

ExtractionStageSummary RunExtractionStage(const ReconstructionOptions& options,
                                          const std::string& images_dir, SceneDatabase* database,
                                          const std::optional<Shard>& shard) {
  StageTimes times;
  InputImages input = PrepareInputImages(options.video, images_dir, FramesDirFor(database->path()));
  if (!input.videos.empty()) times.Add("video_decoding", input.decode_seconds);
  PROJ_REQUIRE(!input.paths.empty(), "'" << images_dir << "' holds no image file (.jpg, .jpeg, .png) and no readable video");
  if (shard) {
    PROJ_REQUIRE(input.videos.empty() && input.skipped_videos.empty(),
                 "--shard: '" << images_dir << "' holds videos, whose frames every shard would "
                                 "decode again; pick the frames into a folder first (a run "
                                 "without --shard writes them beside its database) and shard that");
    PROJ_REQUIRE(options.correspondences != CorrespondenceSource::kKltTracks,
                 "--shard: KLT tracking follows the images in order and cannot be sharded");
    input.paths = PathsInShard(input.paths, *shard);
    // Images of another shard left in the database are removed below as not in the folder.
    BeginShard(database, ShardKind::kExtraction, *shard, ExtractionShardOptions(options),
               options.on_option_change);
  }
  const std::vector<std::string>& paths = input.paths;
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
  PROJ_LOG(kInfo, "features: " << counts.num_features << " in " << summary.image_ids.size() << " images");
  if (shard) {
    FinishShard(database, ShardKind::kExtraction);
    PROJ_LOG(kInfo, "extraction shard " << shard->Name()
                                        << " complete; GPS priors are reviewed when the shards are merged");
    return summary;
  }
  counts.num_gps_priors = ReviewGpsPriors(options.extraction.gps, summary.image_ids, database).num_with_gps;
  return summary;
}

}  // namespace proj
