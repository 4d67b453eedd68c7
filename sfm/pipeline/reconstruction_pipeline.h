// The whole reconstruction of a photo folder: extraction, pair selection, matching,
// geometric verification, tracks, incremental mapping. Each stage is timed and reports
// progress on stderr.
#pragma once

#include <string>
#include <vector>

#include "core/timer.h"
#include "matching/descriptor_matcher.h"
#include "matching/pair_selection.h"
#include "matching/two_view_geometry.h"
#include "sfm/mapper/incremental_mapper.h"
#include "sfm/pipeline/extraction_stage.h"
#include "sfm/pipeline/keyframe_sift_stage.h"
#include "sfm/pipeline/klt_stage.h"
#include "sfm/scene.h"

namespace proj {

// Where putative correspondences come from: descriptor matching of selected pairs, or KLT
// tracking through the images in name order (ordered sequences), optionally with SIFT matches
// between keyframes (keyframe_sift).
enum class CorrespondenceSource { kDescriptors, kKltTracks };

struct ReconstructionOptions {
  CorrespondenceSource correspondences = CorrespondenceSource::kDescriptors;
  ExtractionOptions extraction;
  KltStageOptions klt;
  KeyframeSiftOptions keyframe_sift;  // KLT only; SIFT runs with `extraction`, `matching`
  PairSelectionOptions pair_selection;
  DescriptorMatchOptions matching;
  TwoViewGeometryOptions two_view;
  IncrementalMapperOptions mapper;
  CameraModelId camera_model = CameraModelId::kSimpleRadial;
  bool single_camera = false;          // all images share one intrinsics block
  double default_focal_factor = 1.2;   // focal prior without EXIF: factor x longer side
  void Check() const;
};

struct ReconstructionStatistics {
  int num_input_files = 0;
  int num_usable_images = 0;
  long long num_features = 0;
  int num_pairs_matched = 0;
  int num_pairs_verified = 0;
  long long num_putative_matches = 0;
  long long num_verified_matches = 0;
  int num_tracks = 0;
  int num_cameras = 0;
  // --klt-keyframe-sift (included in the counts above).
  int num_keyframes = 0;
  int num_keyframe_pairs_matched = 0;
  int num_keyframe_pairs_verified = 0;
};

struct ReconstructionResult {
  Scene scene;                          // images in input order; registered ones have poses
  std::vector<ImageRecord> records;     // per scene image: features and keypoint colours
  std::vector<SkippedImage> skipped;    // unreadable files
  MapperSummary mapper;
  ReconstructionStatistics statistics;
  StageTimes times;
  std::string extractor;
  std::string matcher;
};

// Throws InputError for a missing/unreadable folder or fewer than two usable images.
// A run that cannot build a model returns result.mapper.success == false.
ReconstructionResult ReconstructFolder(const ReconstructionOptions& options,
                                       const std::string& images_dir);

// The scene of `records` before mapping: their keypoints, and cameras with focal priors (one
// per image size, focal prior and camera label; one for all with single_camera).
Scene SceneFromRecords(const ReconstructionOptions& options, const std::vector<ImageRecord>& records);
// Each record's camera, as SceneFromRecords assigns them.
std::vector<Camera> ImageCameras(const ReconstructionOptions& options,
                                 const std::vector<ImageRecord>& records);

// --matcher klt after decoding: tracking, with the pairs verified (options.two_view) on the
// CPU threads while later frames are tracked (sfm/pipeline/klt_stage.h). ReconstructFolder runs
// this; bench/klt_bench times it on frames in memory. `tracker`: see
// TrackAndVerifyDecodedSequence.
KltStageResult TrackAndVerifyFrames(const ReconstructionOptions& options,
                                    const DecodedSequence& sequence, KltTracker* tracker = nullptr);

// Mean colour of each point's observations, from the keypoint colours.
void ColorPoints(const std::vector<ImageRecord>& records, Scene* scene);

}  // namespace proj
