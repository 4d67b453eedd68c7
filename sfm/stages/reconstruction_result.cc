#include "sfm/stages/reconstruction_result.h"

#include <utility>

namespace proj {
void AddStageSummary(ExtractionStageSummary summary, ReconstructionResult* result) {
  static_cast<InputCounts&>(result->statistics) = summary.counts;
  if (summary.pair_counts) static_cast<PairCounts&>(result->statistics) = *summary.pair_counts;
  result->skipped = std::move(summary.skipped);
  result->videos = std::move(summary.videos);
  result->video_frames = std::move(summary.video_frames);
  result->frames_dir = std::move(summary.frames_dir);
  result->extractor = std::move(summary.extractor);
  if (!summary.matcher.empty()) result->matcher = std::move(summary.matcher);
  result->times.Merge(summary.times);
}

void AddStageSummary(const PairStageSummary& summary, ReconstructionResult* result) {
  if (summary.tracked_by_klt) return;  // the extraction stage's KLT tracking counted them
  static_cast<PairCounts&>(result->statistics) = summary.counts;
  result->matcher = summary.matcher;
  result->times.Merge(summary.times);
}

void AddStageSummary(MappingStageSummary summary, ReconstructionResult* result) {
  ReconstructionStatistics& statistics = result->statistics;
  static_cast<MappingCounts&>(statistics) = summary.counts;
  // Mapping a database filled by other runs (sfm map): its counts come from the database.
  if (statistics.num_pairs_matched == 0) statistics.num_pairs_matched = summary.num_pairs_with_matches;
  if (statistics.num_usable_images == 0) statistics.num_usable_images = summary.num_images;
  result->scene = std::move(summary.scene);
  result->database_image_ids = std::move(summary.database_image_ids);
  result->mapper = std::move(summary.mapper);
  result->enu_frame = std::move(summary.enu_frame);
  result->mapper_name = std::move(summary.mapper_name);
  result->mapper_reason = std::move(summary.mapper_reason);
  result->components = std::move(summary.components);
  result->rejected_components = std::move(summary.rejected_components);
  result->num_mapping_parts = summary.num_parts;
  result->ground_control = std::move(summary.ground_control);
  result->quality = std::move(summary.quality);
  result->rebuilt_with_gps = summary.rebuilt_with_gps;
  result->first_attempt = std::move(summary.first_attempt);
  result->times.Merge(summary.times);
}

}  // namespace proj
