// The options of a whole reconstruction: run-wide choices (device, threads, seed) and one
// struct per stage, declared once and written into every stage by Resolve().
#pragma once

#include "core/compute_device.h"
#include "matching/descriptor_matcher.h"
#include "matching/pair_selection.h"
#include "matching/two_view_geometry.h"
#include "sfm/global/global_mapper.h"
#include "sfm/mapper/incremental_mapper.h"
#include "sfm/mapper/keyframes.h"
#include "sfm/stages/camera_assignment.h"
#include "sfm/stages/extraction_stage.h"
#include "sfm/gcp/ground_control.h"
#include "sfm/stages/georeference_priors.h"
#include "sfm/stages/keyframe_sift_stage.h"
#include "sfm/stages/klt_stage.h"
#include "sfm/stages/loop_closure.h"
#include "sfm/stages/mapper_choice.h"
#include "sfm/stages/model_components.h"
#include "sfm/stages/model_quality.h"
#include "sfm/stages/partitioned_mapping.h"
#include "sfm/stages/stage_options.h"
#include "sfm/stages/video_frames_stage.h"

namespace proj {

// Where putative correspondences come from: descriptor matching of selected pairs, or KLT
// tracking through the images in name order (ordered sequences), optionally with SIFT matches
// between keyframes (keyframe_sift).
enum class CorrespondenceSource { kDescriptors, kKltTracks };

// Which mapper builds the model: incremental (image by image), global (rotation averaging and
// global positioning, sfm/global/global_mapper.h), or auto: by the rule of mapper_choice.h
// (global for unordered input with GPS on most images, where it measured more accurate;
// incremental otherwise, and when the global model fails its checks).
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
  AutoMapperOptions auto_mapper;  // --mapper auto's rule and its check of a global model
  // The images the main model leaves out mapped into models of their own (model_components.h).
  ComponentOptions components;
  // Large view graphs cut into parts mapped on their own and merged (partitioned_mapping.h).
  PartitionedMappingOptions partitioning;
  GeoreferenceOptions georeference;  // GPS priors of the mapper
  GroundControlOptions ground_control;  // --gcp: georeference by ground control points instead
  ModelQualityOptions quality;  // the self-check of the built model (model_quality.h)
  // A model that disagrees with its GPS (GpsAgreement::Consistent) is mapped once more with
  // the GPS as a constraint from the start (mapping_stage.h); --no-gps-rebuild: never.
  bool rebuild_with_gps = true;
  // Matching and verification hold the features of at most this many images at once.
  int max_chunk_images = 100;
  OptionChangePolicy on_option_change = OptionChangePolicy::kStop;

  void Check() const;
  // A copy with `run` written into every stage's device, thread and seed fields.
  ReconstructionOptions Resolve() const;
};

}  // namespace proj
