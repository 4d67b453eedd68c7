#include "sfm/pipeline/reconstruction_pipeline.h"

#include <algorithm>

#include "core/check.h"
#include "core/logging.h"
#include "core/timer.h"
#include "cuda/device.h"
#include "features/compute_device.h"
#include "sfm/pipeline/gps_priors.h"
#include "sfm/pipeline/matching_stage.h"
#include "sfm/pipeline/sequence_stage.h"
#include "sfm/pipeline/verification_stage.h"
#include "sfm/track_builder.h"
#include "sfm/view_graph.h"

namespace proj {

void ReconstructionOptions::Check() const {
  PROJ_REQUIRE(run.num_threads >= 0, "--threads must be >= 0 (got " << run.num_threads << ")");
  SelectGpus(run.device, run.gpus);  // --gpus naming GPUs that are not there: refused before any work
  video.Check();
  if (correspondences == CorrespondenceSource::kKltTracks) klt.Check();
  if (correspondences == CorrespondenceSource::kDescriptors || keyframe_sift.enabled) {
    extraction.Check();
  }
  cameras.Check();
  keyframe_sift.Check();
  PROJ_REQUIRE(!keyframe_sift.enabled || correspondences == CorrespondenceSource::kKltTracks,
               "--klt-keyframe-sift needs --matcher klt");
  pair_selection.Check();
  matching.Check();
  two_view.Check();
  mapper.Check();
  keyframes.Check();
  loop_closure.Check();
  georeference.Check();
  global_mapper.Check();
  PROJ_REQUIRE(auto_global_min_images >= 0,
               "--mapper-auto-min-images must be >= 0 (got " << auto_global_min_images << ")");
  if (ba_solver == BaSolverChoice::kGpu) UseGpu(ComputeDevice::kGpu, "--ba-solver gpu");
  PROJ_REQUIRE(max_chunk_images >= 2, "--max-chunk-images must be >= 2 (got " << max_chunk_images << ")");
}

ReconstructionOptions ReconstructionOptions::Resolve() const {
  ReconstructionOptions resolved = *this;
  resolved.extraction.features.device = run.device;
  resolved.matching.device = run.device;
  resolved.extraction.features.gpus = run.gpus;
  resolved.matching.gpus = run.gpus;
  resolved.klt.sequence.device = run.device;
  resolved.extraction.features.num_threads = run.num_threads;
  resolved.extraction.num_threads = run.num_threads;
  resolved.matching.num_threads = run.num_threads;
  resolved.klt.num_threads = run.num_threads;
  resolved.mapper.num_threads = run.num_threads;
  resolved.two_view.seed = run.seed;
  resolved.mapper.seed = run.seed;
  // Bundle adjustment: the mapper's adjustments run on the GPU (its solver kAuto) when asked,
  // else on its CPU solvers.
  const bool device_is_gpu = run.device == ComputeDevice::kGpu ||
                             (run.device == ComputeDevice::kAuto && cuda::DeviceAvailable());
  resolved.mapper.global_ba_gpu = resolved.mapper.local_ba_gpu =
      ba_solver == BaSolverChoice::kGpu || (ba_solver == BaSolverChoice::kAuto && device_is_gpu);
  if (ba_solver == BaSolverChoice::kCeres || ba_solver == BaSolverChoice::kCpu) {
    resolved.mapper.global_ba_solver = resolved.mapper.local_ba_solver =
        ba_solver == BaSolverChoice::kCeres ? BundleAdjustmentOptions::Solver::kCeres
                                            : BundleAdjustmentOptions::Solver::kCpu;
  }
  resolved.loop_closure.retrieval.seed = run.seed;
  resolved.loop_closure.retrieval.num_threads = run.num_threads;
  resolved.klt.max_image_size = extraction.max_image_size;
  resolved.klt.decode = extraction.decode;
  return resolved;
}

std::vector<Camera> ImageCameras(const CameraOptions& options, const std::vector<ImageRecord>& records) {
  std::vector<Camera> cameras;
  std::string first_name;
  for (const ImageRecord& record : records) {
    PROJ_REQUIRE(!options.single_camera || (record.width == records[0].width && record.height == records[0].height),
                 "--single-camera needs images of one size, but '"
                     << records[0].name << "' is " << records[0].width << "x" << records[0].height
                     << " and '" << record.name << "' is " << record.width << "x" << record.height);
    ImageFileInfo info;
    info.width = record.width;
    info.height = record.height;
    info.exif_focal_px = options.single_camera ? records[0].exif_focal_px : record.exif_focal_px;
    cameras.push_back(PriorCamera(options, info));
  }
  return cameras;
}

KltStageResult TrackAndVerifyFrames(const ReconstructionOptions& options,
                                    const DecodedSequence& sequence, KltTracker* tracker) {
  return TrackAndVerifyDecodedSequence(options.klt, options.two_view, sequence,
                                       ImageCameras(options.cameras, sequence.images), tracker);
}

std::vector<int> ImageIdsInNameOrder(const SceneDatabase& database) {
  std::vector<DatabaseImage> images = database.ReadImages();
  std::sort(images.begin(), images.end(),
            [](const DatabaseImage& a, const DatabaseImage& b) { return a.name < b.name; });
  std::vector<int> ids;
  for (const DatabaseImage& image : images) ids.push_back(image.image_id);
  return ids;
}

std::vector<int> RunExtractionStage(const ReconstructionOptions& options, const std::string& images_dir,
                                    SceneDatabase* database, ReconstructionResult* result) {
  InputImages input = PrepareInputImages(options.video, images_dir, FramesDirFor(database->path()));
  if (!input.videos.empty()) result->times.Add("video_decoding", input.decode_seconds);
  const std::vector<std::string>& paths = input.paths;
  result->statistics.num_input_files = static_cast<int>(paths.size() + input.skipped_videos.size());
  PROJ_REQUIRE(!paths.empty(), "'" << images_dir << "' holds no image file (.jpg, .jpeg, .png) and no readable video");
  Timer timer;
  std::vector<int> ids;
  if (options.correspondences == CorrespondenceSource::kKltTracks) {
    ids = RunSequenceStage(options, paths, database, result);
  } else {
    ExtractionSummary summary =
        ExtractFolder(options.extraction, options.cameras, options.on_option_change, paths, database);
    result->times.Add("feature_extraction", timer.ElapsedSeconds());
    result->extractor = summary.extractor_description;
    result->skipped = std::move(summary.skipped);
    result->statistics.num_features = summary.num_features;
    result->statistics.num_images_extracted = summary.num_extracted;
    result->statistics.num_images_reused = summary.num_reused;
    result->statistics.num_images_removed = summary.num_removed;
    ids = std::move(summary.image_ids);
  }
  for (SkippedFile& video : input.skipped_videos) result->skipped.push_back(std::move(video));
  result->videos = std::move(input.videos);
  result->video_frames = std::move(input.frames);
  result->frames_dir = std::move(input.frames_dir);
  result->statistics.num_usable_images = static_cast<int>(ids.size());
  result->statistics.num_gps_priors = ReviewGpsPriors(options.extraction.gps, ids, database).num_with_gps;
  PROJ_LOG(kInfo, "features: " << result->statistics.num_features << " in " << ids.size() << " images");
  return ids;
}

void RunMatchingStages(const ReconstructionOptions& options, const std::vector<int>& image_ids,
                       SceneDatabase* database, ReconstructionResult* result, bool verify) {
  if (database->ReadStageOptions("klt")) {
    PROJ_LOG(kInfo, "matching: the database holds KLT tracks, already verified");
    return;
  }
  const std::optional<std::string> extraction = database->ReadStageOptions("extraction");
  const StageOptions features =
      extraction ? StageOptions::FromText(*extraction) : StageOptions().Add("features", "foreign");
  Timer timer;
  const PairSelectionReport selection =
      SelectImagePairs(options.pair_selection, PriorPositionsEnu(*database, image_ids));
  if (!selection.note.empty()) PROJ_LOG(kInfo, "pair selection: " << selection.note);
  PROJ_LOG(kInfo, "pair selection: " << PairSelectionName(selection.mode) << ", "
                                     << selection.pairs.size() << " pairs");
  std::vector<ImagePair> pairs;
  for (const ImagePair& pair : selection.pairs) pairs.push_back({image_ids[pair.image1], image_ids[pair.image2]});
  std::vector<ImagePair> loop_pairs;
  if (selection.mode == PairSelection::kSequential && options.loop_closure.enabled) {
    loop_pairs = SelectLoopClosurePairs(options.loop_closure, *database, image_ids,
                                        options.pair_selection.overlap);
    pairs.insert(pairs.end(), loop_pairs.begin(), loop_pairs.end());
    PROJ_LOG(kInfo, "loop closure: " << loop_pairs.size()
                                     << " pairs of images far apart in name order that look alike");
  }
  const MatchingSummary matching = MatchImagePairs(options.matching, options.max_chunk_images, features,
                                                   options.on_option_change, pairs, database);
  result->times.Add("matching", timer.ElapsedSeconds());
  result->matcher = matching.matcher_description;
  result->statistics.num_pairs_matched = matching.num_pairs;
  result->statistics.num_putative_matches = matching.num_putative_matches;
  result->statistics.num_pairs_matched_now = matching.num_matched;
  result->statistics.num_pairs_match_reused = matching.num_reused;
  if (!verify) return;

  timer.Restart();
  StageOptions upstream = MatchingFingerprint(options.matching);
  upstream.Add(features).Add(options.cameras.Fingerprint());
  const VerificationSummary verification =
      VerifyImagePairs(options.two_view, options.run.num_threads, options.max_chunk_images, upstream,
                       options.on_option_change, pairs, database);
  result->times.Add("geometric_verification", timer.ElapsedSeconds());
  result->statistics.num_pairs_verified_now = verification.num_verified;
  result->statistics.num_pairs_verify_reused = verification.num_reused;
  result->statistics.num_loop_pairs = static_cast<int>(loop_pairs.size());
  for (const ImagePair& pair : loop_pairs) {
    const auto geometry = database->ReadTwoViewGeometry(pair.image1, pair.image2);
    if (geometry && geometry->configuration != TwoViewConfiguration::kDegenerate) {
      ++result->statistics.num_loop_pairs_verified;
    }
  }
  if (!loop_pairs.empty()) {
    PROJ_LOG(kInfo, "loop closure: " << result->statistics.num_loop_pairs_verified << "/"
                                     << loop_pairs.size() << " loop pairs verified");
  }
}

namespace {

// Marks the frames of ordered input that add no baseline (keyframes.h), in name order.
void MarkKeyframes(const ReconstructionOptions& options, const TrackSet& tracks, Scene* scene,
                   ReconstructionStatistics* statistics) {
  const bool ordered = options.correspondences == CorrespondenceSource::kKltTracks ||
                       options.pair_selection.mode == PairSelection::kSequential;
  if (options.keyframe_mode == KeyframeMode::kOff ||
      (options.keyframe_mode == KeyframeMode::kAuto && !ordered)) {
    return;
  }
  std::vector<int> order(scene->images.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return scene->images[a].name < scene->images[b].name; });
  const KeyframeSelection selection = SelectParallaxKeyframes(*scene, tracks, order, options.keyframes);
  for (size_t i = 0; i < scene->images.size(); ++i) scene->images[i].keyframe = selection.is_keyframe[i];
  statistics->num_parallax_keyframes = selection.num_keyframes;
  PROJ_LOG(kInfo, "keyframes: " << selection.num_keyframes << " of " << order.size()
                                << " frames (parallax of at least " << options.keyframes.min_parallax_deg
                                << " deg); the others are registered afterwards");
}

}  // namespace

void RunMappingStage(const ReconstructionOptions& options, const std::vector<int>& image_ids,
                     const SceneDatabase& database, ReconstructionResult* result) {
  Timer timer;
  const double cpu_start = ProcessCpuSeconds();
  ViewGraph graph = LoadViewGraph(database, image_ids);
  ReconstructionStatistics& statistics = result->statistics;
  statistics.num_cameras = static_cast<int>(graph.scene.cameras.size());
  if (statistics.num_pairs_matched == 0) {
    statistics.num_pairs_matched = static_cast<int>(database.ReadMatchedPairIds().size());
  }
  statistics.num_pairs_verified = static_cast<int>(graph.pairs.size());
  statistics.num_verified_matches = 0;
  for (const VerifiedPair& pair : graph.pairs) statistics.num_verified_matches += pair.geometry.inlier_matches.size();
  if (statistics.num_usable_images == 0) statistics.num_usable_images = static_cast<int>(graph.scene.images.size());
  PROJ_LOG(kInfo, "view graph: " << graph.scene.images.size() << " images, " << graph.pairs.size()
                                 << " verified pairs (" << statistics.num_verified_matches << " matches)");
  PROJ_REQUIRE(graph.scene.images.size() >= 2,
               "the scene database '" << database.path() << "' holds " << graph.scene.images.size()
                                      << " usable image(s); at least two are needed");

  std::vector<int> num_keypoints;
  std::vector<PairMatches> verified_matches;
  for (const auto& image : graph.scene.images) num_keypoints.push_back(static_cast<int>(image.keypoints.size()));
  for (const auto& pair : graph.pairs) verified_matches.push_back({pair.pair, pair.geometry.inlier_matches});
  const TrackSet tracks = BuildTracks(num_keypoints, verified_matches);
  statistics.num_tracks = static_cast<int>(tracks.tracks.size());
  PROJ_LOG(kInfo, "tracks: " << tracks.tracks.size() << " (" << tracks.num_dropped_inconsistent
                             << " inconsistent dropped)");
  MarkKeyframes(options, tracks, &graph.scene, &statistics);
  result->enu_frame =
      LoadPositionPriors(options.georeference, database, graph.database_image_ids, &graph.scene);
  const bool global = options.mapper_choice == MapperChoice::kGlobal ||
                      (options.mapper_choice == MapperChoice::kAuto && options.auto_global_min_images > 0 &&
                       static_cast<int>(graph.scene.images.size()) >= options.auto_global_min_images);
  result->mapper_name = global ? "global" : "incremental";
  PROJ_LOG(kInfo, "mapper: " << result->mapper_name);
  if (global) {
    GlobalMapperOptions global_options = options.global_mapper;
    global_options.refinement = options.mapper;
    result->mapper = RunGlobalMapper(global_options, tracks, graph.pairs, &graph.scene);
  } else {
    result->mapper = RunIncrementalMapper(options.mapper, tracks, graph.pairs, &graph.scene);
  }
  // Georeferencing reads the summary: aligned here whichever mapper ran.
  GeoreferenceModel(options.mapper.priors, options.mapper.seed + 104729, &graph.scene, &result->mapper);
  result->scene = std::move(graph.scene);
  result->database_image_ids = std::move(graph.database_image_ids);
  result->times.Add("mapping", timer.ElapsedSeconds());
  for (const auto& [step, seconds] : result->mapper.times.Entries()) {
    result->times.Add("mapping." + step, seconds);
  }
  // CPU seconds beside: on a shared machine wall time measures the load as much as the work.
  result->times.Add("mapping_cpu", ProcessCpuSeconds() - cpu_start);
  for (const auto& [step, seconds] : result->mapper.cpu_times.Entries()) {
    result->times.Add("mapping_cpu." + step, seconds);
  }
}

ReconstructionResult ReconstructFolder(const ReconstructionOptions& unresolved,
                                       const std::string& images_dir,
                                       const std::string& database_path) {
  unresolved.Check();
  const ReconstructionOptions options = unresolved.Resolve();
  ReconstructionResult result;
  result.database_path = database_path;
  Timer total;
  SceneDatabase database(database_path, SceneDatabase::Mode::kReadWrite);
  PROJ_LOG(kInfo, "scene database: " << database_path);
  const std::vector<int> image_ids = RunExtractionStage(options, images_dir, &database, &result);
  PROJ_REQUIRE(image_ids.size() >= 2,
               "only " << image_ids.size() << " of " << result.statistics.num_input_files << " files in '"
                       << images_dir << "' could be read as images; at least two are needed");
  RunMatchingStages(options, image_ids, &database, &result);
  RunMappingStage(options, image_ids, database, &result);
  result.times.Add("total", total.ElapsedSeconds());
  return result;
}

}  // namespace proj
