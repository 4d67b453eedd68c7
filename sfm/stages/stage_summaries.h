// What each stage runner returns: its own counts, times and descriptions. The run gathers them
// into one ReconstructionResult (reconstruction_result.h); the counts are the fields of
// ReconstructionStatistics, grouped by the stage that computes them.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/timer.h"
#include "geometry/geodesy/local_enu_frame.h"
#include "sfm/database/scene_database.h"
#include "sfm/gcp/ground_control.h"
#include "sfm/mapper/incremental_mapper.h"
#include "sfm/scene/scene.h"
#include "sfm/stages/model_components.h"
#include "sfm/stages/model_quality.h"
#include "sfm/stages/video_frames_stage.h"

namespace proj {

// Images and features: extraction, or KLT tracking (--matcher klt).
struct InputCounts {
  int num_input_files = 0;
  int num_usable_images = 0;
  int num_gps_priors = 0;  // usable images with a GPS pose prior (outliers dropped)
  long long num_features = 0;
  // Work reused from the scene database.
  int num_images_extracted = 0;
  int num_images_reused = 0;
  int num_images_removed = 0;
  bool sequence_reused = false;  // --matcher klt: the stored tracking was reused
  // --klt-keyframe-sift (included in the pair counts).
  int num_keyframes = 0;
  int num_keyframe_pairs_matched = 0;
  int num_keyframe_pairs_verified = 0;
};

// Pairs: matching and verification (filled by the KLT stage for tracked sequences).
struct PairCounts {
  int num_pairs_matched = 0;           // selected pairs with stored matches
  long long num_putative_matches = 0;  // of the pairs matched in this run
  int num_pairs_matched_now = 0;
  int num_pairs_match_reused = 0;
  int num_pairs_verified_now = 0;
  int num_pairs_verify_reused = 0;
  // Loop closure of sequential matching (included in the pair counts above).
  int num_loop_pairs = 0;
  int num_loop_pairs_verified = 0;
};

// The view graph and tracks the mapper started from.
struct MappingCounts {
  int num_pairs_verified = 0;  // pairs with a non-degenerate geometry
  long long num_verified_matches = 0;
  int num_tracks = 0;
  int num_matched_features = 0;    // observations in a verified match (track_builder.h)
  int num_features_in_tracks = 0;  // of those, the ones the tracks hold
  int num_refused_track_matches = 0;  // matches that would have made a track inconsistent
  int num_cameras = 0;
  // Keyframes by parallax of ordered input (keyframe_mode), 0 when not used.
  int num_parallax_keyframes = 0;
};

struct ExtractionStageSummary {
  std::vector<int> image_ids;  // the usable images, in name order
  InputCounts counts;
  std::optional<PairCounts> pair_counts;  // KLT tracking matches and verifies as it goes
  std::vector<SkippedFile> skipped;       // unusable files of the input (videos included)
  std::vector<VideoSummary> videos;       // videos of the input, with their picked frames'
  std::vector<VideoFrameRecord> video_frames;  // names and times
  std::string frames_dir;                 // where those frames are ("" without videos)
  std::string extractor;
  std::string matcher;  // KLT tracking only
  StageTimes times;
};

struct PairStageSummary {
  bool tracked_by_klt = false;  // the database holds KLT tracks: nothing was matched
  PairCounts counts;
  std::string matcher;
  StageTimes times;
};

struct MappingStageSummary {
  Scene scene;  // images in increasing database id; registered ones have poses
  std::vector<int> database_image_ids;  // of scene.images[i]
  int num_images = 0;                   // in the view graph
  int num_pairs_with_matches = 0;       // in the database
  MappingCounts counts;
  MapperSummary mapper;  // mapper.georeference: the alignment to the GPS priors
  // The local ENU frame of the GPS priors (scene.position_priors); the model is in it when
  // mapper.georeference.aligned. nullopt: no image had GPS (or --no-georeference).
  std::optional<EnuFrame> enu_frame;
  std::string mapper_name;  // "incremental" or "global": the one that ran
  std::string mapper_reason;  // why (mapper_choice.h), and why --mapper auto fell back
  int num_parts = 1;        // > 1: partitioned mapping (partitioned_mapping.h) in this many parts
  // --gcp: the ground control points' georeference (ground_control_stage.h); when it
  // succeeded, enu_frame is the GCPs' frame and the model is in it.
  std::optional<GroundControlSummary> ground_control;
  // The model's self-check (model_quality.h), when it was built; `rebuilt_with_gps`: it is
  // the second attempt, mapped with the GPS as a constraint from the start, after the first
  // disagreed with the GPS (`first_attempt` then holds the first's verdict).
  ModelQuality quality;
  bool rebuilt_with_gps = false;
  std::optional<ModelQuality> first_attempt;
  // The models of the images `scene` leaves out (model_components.h), largest group first,
  // and those not kept for failing their self-check.
  std::vector<ComponentModel> components;
  std::vector<RejectedComponent> rejected_components;
  StageTimes times;
};

}  // namespace proj
