// What a reconstruction produced: the model, the counts and times of every stage, and the
// files it could not use. Each stage runner returns its own summary (stage_summaries.h);
// the run gathers them here, and every output writer (sfm/outputs) reads this one record.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/timer.h"
#include "mvs/dense_summary.h"
#include "mvs/map_products.h"
#include "sfm/image_source/image_source.h"
#include "sfm/stages/stage_summaries.h"

namespace proj {

// Every count of the run, read flat (statistics.num_features) by the writers.
struct ReconstructionStatistics : InputCounts, PairCounts, MappingCounts {};

struct ReconstructionResult {
  Scene scene;  // images in increasing database id; registered ones have poses
  std::vector<int> database_image_ids;  // of scene.images[i]
  std::vector<SkippedFile> skipped;     // unusable files of the folder (videos included)
  std::vector<VideoSummary> videos;     // videos of the input, with their picked frames'
  std::vector<VideoFrameRecord> video_frames;  // names and times
  std::string frames_dir;               // where those frames are ("" without videos)
  // Where the model's images are: the input folder, then the picked video frames' folder
  // (set when the run finishes; written beside the model as image_source.json).
  ImageSource images;
  MapperSummary mapper;  // mapper.georeference: the alignment to the GPS priors
  // The local ENU frame of the GPS priors (scene.position_priors); the model is in it when
  // mapper.georeference.aligned. nullopt: no image had GPS (or --no-georeference).
  std::optional<EnuFrame> enu_frame;
  std::string mapper_name;  // "incremental" or "global": the one that ran
  std::string mapper_reason;  // why that one (mapper_choice.h)
  int num_mapping_parts = 1;  // > 1: mapped in parts and merged (partitioned_mapping.h)
  // --gcp: the georeference by ground control points, their residuals (report.json "gcp").
  std::optional<GroundControlSummary> ground_control;
  // The model's self-check (model_quality.h; report.json "quality"), and whether it is the
  // GPS-constrained second attempt (MappingStageSummary).
  ModelQuality quality;
  bool rebuilt_with_gps = false;
  std::optional<ModelQuality> first_attempt;
  // The models of the images `scene` leaves out (model_components.h), written as
  // OUT/models/1, 2, ... (output_writer.h), in the ENU frame too when aligned to their GPS.
  std::vector<ComponentModel> components;
  std::vector<RejectedComponent> rejected_components;  // failed their self-check: not written
  ReconstructionStatistics statistics;
  StageTimes times;
  std::string extractor;
  std::string matcher;
  std::string database_path;
  // The dense stage, when it ran (sfm reconstruct --dense): report.json's "dense" object.
  std::optional<mvs::DenseSummary> dense;
  // The map products, when they were made (sfm reconstruct --products): report.json's
  // "products" object and report.html's map view.
  std::optional<mvs::MapProductsSummary> products;
};

// Gathers each stage's summary into `result`: its counts, times, descriptions and files.
void AddStageSummary(ExtractionStageSummary summary, ReconstructionResult* result);
void AddStageSummary(const PairStageSummary& summary, ReconstructionResult* result);
void AddStageSummary(MappingStageSummary summary, ReconstructionResult* result);

}  // namespace proj
