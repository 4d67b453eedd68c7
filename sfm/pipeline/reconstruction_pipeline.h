// The reconstruction of a photo folder as a sequence of stages around one scene database
// (sfm/database/scene_database.h):
//   extract  -> images, cameras, keypoints, descriptors       (extraction_stage.h)
//   match    -> putative matches of the selected pairs         (matching_stage.h)
//   verify   -> two-view geometries                            (verification_stage.h)
//   map      -> view graph, tracks, incremental mapper         (sfm/view_graph.h)
// or, for ordered sequences (--matcher klt), one KLT stage that writes images, keypoints,
// matches and geometries (sequence_stage.h). Each stage reads what it needs from the
// database and writes its results there as they complete, so a killed run resumes where it
// stopped and a re-run on a grown folder only computes what is new. Each stage is timed and
// reports progress on stderr.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/timer.h"
#include "matching/descriptor_matcher.h"
#include "matching/pair_selection.h"
#include "matching/two_view_geometry.h"
#include "sfm/database/scene_database.h"
#include "sfm/global/global_mapper.h"
#include "sfm/mapper/incremental_mapper.h"
#include "sfm/mapper/keyframes.h"
#include "sfm/pipeline/camera_assignment.h"
#include "sfm/pipeline/extraction_stage.h"
#include "sfm/pipeline/georeference_priors.h"
#include "sfm/pipeline/keyframe_sift_stage.h"
#include "sfm/pipeline/klt_stage.h"
#include "sfm/pipeline/loop_closure.h"
#include "sfm/pipeline/stage_options.h"
#include "sfm/pipeline/video_frames_stage.h"
#include "sfm/scene.h"

namespace proj {

// Where putative correspondences come from: descriptor matching of selected pairs, or KLT
// tracking through the images in name order (ordered sequences), optionally with SIFT matches
// between keyframes (keyframe_sift).
enum class CorrespondenceSource { kDescriptors, kKltTracks };

// Which mapper builds the model: incremental (image by image), global (rotation averaging and
// global positioning, sfm/global/global_mapper.h), or auto: global from
// auto_global_min_images images on (0: never). No size where the global mapper is faster at
// equal accuracy has been measured yet (README "Mappers"), so auto stays incremental unless
// given a threshold.
enum class MapperChoice { kIncremental, kGlobal, kAuto };

// Solver of the mapper's bundle adjustments (sfm/ba/bundle_adjuster.h): auto is our LM + Schur
// + PCG solver on the GPU when the run's device is a GPU (--device gpu, or auto with a usable
// GPU) and the same solver on the CPU otherwise; ceres, cpu and gpu choose one (gpu without a
// usable GPU is an error). Our solvers sum in a fixed order on both devices, so one input gives
// one model on one machine (resume included).
enum class BaSolverChoice { kAuto, kCeres, kCpu, kGpu };
// Keyframes by parallax (sfm/mapper/keyframes.h) for ordered input: auto uses them with KLT
// tracks and sequential matching, whose images are a sequence in name order.
enum class KeyframeMode { kAuto, kOn, kOff };

// Options of the whole run, declared once and given to every stage by Resolve().
struct RunOptions {
  ComputeDevice device = ComputeDevice::kAuto;  // extraction, matching, KLT tracking
  GpuSelection gpus;  // GPUs extraction and matching spread over (--gpus; all by default)
  int num_threads = 0;                          // CPU threads of every stage; 0 = all
  uint64_t seed = 0;                            // RANSAC seeds of verification and mapping
};

struct ReconstructionOptions {
  RunOptions run;
  VideoOptions video;  // videos in the input (video_frames_stage.h)
  CorrespondenceSource correspondences = CorrespondenceSource::kDescriptors;
  ExtractionOptions extraction;
  CameraOptions cameras;
  KltStageOptions klt;
  KeyframeSiftOptions keyframe_sift;  // KLT only; SIFT runs with `extraction`, `matching`
  PairSelectionOptions pair_selection;
  DescriptorMatchOptions matching;
  TwoViewGeometryOptions two_view;
  IncrementalMapperOptions mapper;  // also the global mapper's refinement thresholds
  KeyframeMode keyframe_mode = KeyframeMode::kAuto;  // incremental mapper only
  KeyframeOptions keyframes;
  // Sequential matching and KLT keyframe SIFT: pairs of images far apart in the sequence that
  // look alike (loop_closure.h).
  LoopClosureOptions loop_closure;
  MapperChoice mapper_choice = MapperChoice::kIncremental;
  BaSolverChoice ba_solver = BaSolverChoice::kAuto;  // written into `mapper` by Resolve()
  GlobalMapperOptions global_mapper;  // its `refinement` is replaced by `mapper`
  int auto_global_min_images = 0;
  GeoreferenceOptions georeference;  // GPS priors of the mapper
  // Matching and verification hold the features of at most this many images at once.
  int max_chunk_images = 100;
  OptionChangePolicy on_option_change = OptionChangePolicy::kStop;

  void Check() const;
  // A copy with `run` written into every stage's device, thread and seed fields.
  ReconstructionOptions Resolve() const;
};

struct ReconstructionStatistics {
  int num_input_files = 0;
  int num_usable_images = 0;
  int num_gps_priors = 0;  // usable images with a GPS pose prior (outliers dropped)
  long long num_features = 0;
  int num_pairs_matched = 0;   // selected pairs with stored matches
  int num_pairs_verified = 0;  // pairs with a non-degenerate geometry
  long long num_putative_matches = 0;  // of the pairs matched in this run
  long long num_verified_matches = 0;
  int num_tracks = 0;
  int num_cameras = 0;
  // Work reused from the scene database.
  int num_images_extracted = 0;
  int num_images_reused = 0;
  int num_images_removed = 0;
  int num_pairs_matched_now = 0;
  int num_pairs_match_reused = 0;
  int num_pairs_verified_now = 0;
  int num_pairs_verify_reused = 0;
  bool sequence_reused = false;  // --matcher klt: the stored tracking was reused
  // --klt-keyframe-sift (included in the counts above).
  int num_keyframes = 0;
  int num_keyframe_pairs_matched = 0;
  int num_keyframe_pairs_verified = 0;
  // Keyframes by parallax of ordered input (keyframe_mode), 0 when not used.
  int num_parallax_keyframes = 0;
  // Loop closure of sequential matching (included in the pair counts above).
  int num_loop_pairs = 0;
  int num_loop_pairs_verified = 0;
};

struct ReconstructionResult {
  Scene scene;  // images in increasing database id; registered ones have poses
  std::vector<int> database_image_ids;  // of scene.images[i]
  std::vector<SkippedFile> skipped;     // unusable files of the folder (videos included)
  std::vector<VideoSummary> videos;     // videos of the input, with their picked frames'
  std::vector<VideoFrameRecord> video_frames;  // names and times
  std::string frames_dir;               // where those frames are ("" without videos)
  MapperSummary mapper;  // mapper.georeference: the alignment to the GPS priors
  // The local ENU frame of the GPS priors (scene.position_priors); the model is in it when
  // mapper.georeference.aligned. nullopt: no image had GPS (or --no-georeference).
  std::optional<EnuFrame> enu_frame;
  std::string mapper_name;  // "incremental" or "global": the one that ran
  ReconstructionStatistics statistics;
  StageTimes times;
  std::string extractor;
  std::string matcher;
  std::string database_path;
};

// Stages one by one (the sub-commands extract, match and map). `database` is open
// read-write. They throw InputError for bad input (missing folder, options that differ from
// the stored ones under kStop).
//
// Extraction (or KLT tracking with its verification) of the photos and video frames of
// `images_dir`, or of one video file (frames picked by video_frames_stage.h into the folder
// `frames` beside the database): fills result's skipped files, videos, descriptions,
// statistics and times; returns the usable images' ids in name order.
std::vector<int> RunExtractionStage(const ReconstructionOptions& options, const std::string& images_dir,
                                    SceneDatabase* database, ReconstructionResult* result);
// Matching and verification of the pairs of `image_ids` (name order) that pair selection
// picks; `verify` false matches only (a later run verifies, reusing the matches). Nothing to
// do for a database filled by KLT.
void RunMatchingStages(const ReconstructionOptions& options, const std::vector<int>& image_ids,
                       SceneDatabase* database, ReconstructionResult* result, bool verify = true);
// Loads the view graph of `image_ids` (all images when empty) and maps it.
void RunMappingStage(const ReconstructionOptions& options, const std::vector<int>& image_ids,
                     const SceneDatabase& database, ReconstructionResult* result);

// All stages with the database at `database_path` (created when missing). Throws InputError
// for a missing/unreadable folder, fewer than two usable images or an unusable database. A
// run that cannot build a model returns result.mapper.success == false.
ReconstructionResult ReconstructFolder(const ReconstructionOptions& options,
                                       const std::string& images_dir,
                                       const std::string& database_path);

// The database image ids of all images of `database`, in name order.
std::vector<int> ImageIdsInNameOrder(const SceneDatabase& database);

// Each record's camera, as the extraction stage assigns them (for the KLT stage and tests).
std::vector<Camera> ImageCameras(const CameraOptions& options, const std::vector<ImageRecord>& records);

// --matcher klt after decoding: tracking, with the pairs verified (options.two_view) on the
// CPU threads while later frames are tracked (sfm/pipeline/klt_stage.h). The KLT stage runs
// this; bench/klt_bench times it on frames in memory. `tracker`: see
// TrackAndVerifyDecodedSequence.
KltStageResult TrackAndVerifyFrames(const ReconstructionOptions& options,
                                    const DecodedSequence& sequence, KltTracker* tracker = nullptr);

}  // namespace proj
