#include "sfm/stages/mapping_stage.h"

#include <algorithm>
#include <iomanip>
#include <optional>
#include <utility>

#include "core/check.h"
#include "core/logging.h"
#include "core/parallel_for.h"
#include "core/timer.h"
#include "sfm/database/view_graph_loader.h"
#include "sfm/stages/georeference_priors.h"
#include "sfm/stages/gps_rebuild.h"
#include "sfm/stages/mapper_choice.h"
#include "sfm/stages/model_components.h"
#include "sfm/scene/track_builder.h"
#include "sfm/stages/ground_control_stage.h"
#include "sfm/stages/part_files.h"
#include "sfm/stages/partitioned_mapping.h"

namespace proj {
namespace {

// Marks the frames of ordered input that add no baseline (keyframes.h), in name order.
void MarkKeyframes(const ReconstructionOptions& options, const TrackSet& tracks, Scene* scene,
                   MappingCounts* statistics) {
  if (options.keyframe_mode == KeyframeMode::kOff ||
      (options.keyframe_mode == KeyframeMode::kAuto && !IsOrderedInput(options))) {
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

// The images the view graph links to each other: its largest connected group.
int NumLinkedImages(const ViewGraph& graph) {
  const std::vector<char> linked =
      LargestConnectedComponent(static_cast<int>(graph.scene.images.size()), PairsWithInliers(graph.pairs));
  return static_cast<int>(std::count(linked.begin(), linked.end(), 1));
}

const char* MapperName(MapperChoice choice) {
  return choice == MapperChoice::kGlobal ? "global" : "incremental";
}

}  // namespace

MappingStageSummary RunMappingStage(const ReconstructionOptions& options, const std::vector<int>& image_ids,
                                    const SceneDatabase& database, const std::string& merge_parts_dir) {
  Timer timer;
  const double cpu_start = ProcessCpuSeconds();
  ViewGraph graph = LoadViewGraph(database, image_ids);
  MappingStageSummary summary;
  MappingCounts& statistics = summary.counts;
  statistics.num_cameras = static_cast<int>(graph.scene.cameras.size());
  summary.num_pairs_with_matches = static_cast<int>(database.ReadMatchedPairIds().size());
  summary.num_images = static_cast<int>(graph.scene.images.size());
  statistics.num_pairs_verified = static_cast<int>(graph.pairs.size());
  statistics.num_verified_matches = 0;
  for (const VerifiedPair& pair : graph.pairs) statistics.num_verified_matches += pair.geometry.inlier_matches.size();
  PROJ_LOG(kInfo, "view graph: " << graph.scene.images.size() << " images, " << graph.pairs.size()
                                 << " verified pairs (" << statistics.num_verified_matches << " matches)");
  PROJ_REQUIRE(graph.scene.images.size() >= 2,
               "the scene database '" << database.path() << "' holds " << graph.scene.images.size()
                                      << " usable image(s); at least two are needed");

  const TrackSet tracks = BuildViewGraphTracks(graph.scene, graph.pairs);
  statistics.num_tracks = static_cast<int>(tracks.tracks.size());
  statistics.num_matched_features = tracks.num_matched_features;
  statistics.num_features_in_tracks = tracks.num_features_in_tracks;
  statistics.num_refused_track_matches = tracks.num_refused_matches;
  PROJ_LOG(kInfo, "tracks: " << tracks.tracks.size() << ", holding " << tracks.num_features_in_tracks << " of "
                             << tracks.num_matched_features << " matched features ("
                             << std::fixed << std::setprecision(1) << 100 * tracks.KeptShare() << "%); "
                             << tracks.num_dropped_chains << " conflicting chains dropped, "
                             << tracks.num_refused_matches << " matches refused (two keypoints of one image in a "
                             << "track), " << tracks.num_contested_tracks << " tracks dropped for them, "
                             << tracks.num_colocated_keypoints << " co-located keypoints merged");
  std::optional<GcpFile> gcp_file;  // checked against the images before the mapper's work
  if (!options.ground_control.gcp_path.empty()) gcp_file = ReadGcpFileForScene(options.ground_control, graph.scene);
  MarkKeyframes(options, tracks, &graph.scene, &statistics);
  summary.enu_frame =
      LoadPositionPriors(options.georeference, database, graph.database_image_ids, &graph.scene);
  const int num_images = static_cast<int>(graph.scene.images.size());
  // Decided once here: the parts, the GPS rebuild and the other components follow it.
  const MapperDecision decision = ChooseMapper(options, graph.scene);
  ReconstructionOptions chosen = options;
  chosen.mapper_choice = decision.global ? MapperChoice::kGlobal : MapperChoice::kIncremental;
  summary.mapper_name = MapperName(chosen.mapper_choice);
  summary.mapper_reason = decision.reason;
  PROJ_LOG(kInfo, "mapper: " << summary.mapper_name << " (" << decision.reason << ")");
  summary.num_parts = merge_parts_dir.empty()
                          ? options.partitioning.NumParts(num_images, ResolveNumThreads(options.run.num_threads))
                          : PartCountInFolder(merge_parts_dir);
  const bool may_rebuild = options.rebuild_with_gps && !graph.scene.position_priors.empty();
  // An automatic choice of the global mapper is checked, and mapped incrementally when it fails.
  const bool may_fall_back = options.mapper_choice == MapperChoice::kAuto && decision.global &&
                             merge_parts_dir.empty() && summary.num_parts == 1;
  std::optional<Scene> unmapped;  // for a second attempt
  if (may_rebuild || may_fall_back) unmapped = graph.scene;
  if (!merge_parts_dir.empty()) {
    const ImagePartition partition =
        PartitionViewGraph(options.partitioning, summary.num_parts, graph.scene, graph.pairs);
    const std::vector<PartModel> parts =
        ReadPartModels(merge_parts_dir, partition.parts, graph.scene, graph.pairs.size());
    PartitionedMappingTrace trace;
    summary.mapper =
        MergeAndCompleteParts(chosen, parts, partition.core_part, tracks, graph.pairs, &graph.scene, &trace);
    summary.times.Add("mapping.merge", trace.merge_seconds);
  } else if (summary.num_parts > 1) {
    PartitionedMappingTrace trace;
    summary.mapper = MapPartitioned(chosen, summary.num_parts, tracks, graph.pairs, &graph.scene, &trace);
    summary.times.Add("mapping.parts", trace.parts_seconds);
    summary.times.Add("mapping.merge", trace.merge_seconds);
  } else {
    summary.mapper = MapAndGeoreference(chosen, tracks, graph.pairs, &graph.scene);
  }
  ModelQuality first = AssessModelQuality(options.quality, graph.scene, summary.mapper, graph.pairs);
  if (may_fall_back) {
    const std::string fault =
        GlobalModelFault(options.auto_mapper, summary.mapper, first, NumLinkedImages(graph));
    if (!fault.empty()) {
      PROJ_LOG(kWarning, "mapper auto: the global model is not kept (" << fault
                                                                     << "); mapping with the incremental mapper");
      Timer fallback_timer;
      chosen.mapper_choice = MapperChoice::kIncremental;
      summary.mapper_name = MapperName(chosen.mapper_choice);
      summary.mapper_reason += "; the global model failed its check: " + fault;
      graph.scene = *unmapped;
      summary.mapper = MapAndGeoreference(chosen, tracks, graph.pairs, &graph.scene);
      first = AssessModelQuality(options.quality, graph.scene, summary.mapper, graph.pairs);
      summary.times.Add("mapping.auto_fallback", fallback_timer.ElapsedSeconds());
    }
  }
  if (may_rebuild && summary.mapper.success && !first.gps.Consistent()) {
    Timer rebuild_timer;
    std::optional<GpsRebuild> rebuilt = RebuildWithGps(chosen, tracks, graph.pairs, *unmapped, first);
    if (rebuilt) {
      graph.scene = std::move(rebuilt->scene);
      summary.mapper = std::move(rebuilt->mapper);
      summary.mapper_name = rebuilt->mapper_name;
      chosen.mapper_choice = rebuilt->mapper_name == "global" ? MapperChoice::kGlobal : MapperChoice::kIncremental;
      summary.rebuilt_with_gps = true;
      summary.first_attempt = first;
    }
    summary.times.Add("mapping.gps_rebuild", rebuild_timer.ElapsedSeconds());
  }
  if (summary.mapper.success) {
    Timer components_timer;
    OtherComponents other = MapOtherComponents(chosen, graph.scene, graph.pairs);
    summary.components = std::move(other.models);
    summary.rejected_components = std::move(other.rejected);
    summary.times.Add("mapping.components", components_timer.ElapsedSeconds());
  }
  summary.scene = std::move(graph.scene);
  summary.database_image_ids = std::move(graph.database_image_ids);
  if (gcp_file) {
    Timer gcp_timer;
    BundleAdjustmentOptions ba;
    ba.num_threads = options.mapper.num_threads;
    ba.function_tolerance = options.mapper.final_ba_function_tolerance;  // as the mapper's last ones
    // On the GPU where the mapper's adjustments are (1,000 images: 4.4 s against Ceres' 102 s).
    // On the CPU exact steps: control points hold the gauge softly, so PCG would solve every
    // step fully (200 images, 2 cores: 21.2 s). Our dense reduced camera system up to
    // kGcpDenseMaxImages (200 / 300 images: 3.5 / 7.8 s against Ceres' 10.9 / 18.8 s, the same
    // model; its matrices 0.4 GB at 400), Ceres' sparse one beyond.
    constexpr int kGcpDenseMaxImages = 400;
    ba.solver = options.mapper.global_ba_solver;
    if (ba.solver == BundleAdjustmentOptions::Solver::kCpu) {
      ba.cpu_dense_schur_max_images = kGcpDenseMaxImages;
      if (summary.scene.NumRegisteredImages() > kGcpDenseMaxImages) ba.solver = BundleAdjustmentOptions::Solver::kCeres;
    }
    ApplyGroundControl(options.ground_control, *gcp_file, ba, &summary);
    summary.times.Add("mapping.ground_control", gcp_timer.ElapsedSeconds());
  }
  if (summary.mapper.success) summary.quality = AssessModelQuality(options.quality, summary.scene, summary.mapper, graph.pairs);
  summary.times.Add("mapping", timer.ElapsedSeconds());
  for (const auto& [step, seconds] : summary.mapper.times.Entries()) {
    summary.times.Add("mapping." + step, seconds);
  }
  // CPU seconds beside: on a shared machine wall time measures the load as much as the work.
  summary.times.Add("mapping_cpu", ProcessCpuSeconds() - cpu_start);
  for (const auto& [step, seconds] : summary.mapper.cpu_times.Entries()) {
    summary.times.Add("mapping_cpu." + step, seconds);
  }
  return summary;
}

MapperSummary RunMappingPartTask(const ReconstructionOptions& options, const Shard& part,
                                 const SceneDatabase& database, const std::string& parts_dir) {
  // The whole view graph's outline (images, pairs' inlier counts) cuts it as a single run
  // does; only this part's keypoints and matches are read.
  std::vector<PairInlierCount> pair_counts;
  ViewGraph graph = LoadViewGraphOutline(database, &pair_counts);
  PROJ_REQUIRE(graph.scene.images.size() >= 2,
               "the scene database '" << database.path() << "' holds " << graph.scene.images.size()
                                      << " usable image(s); at least two are needed");
  LoadPositionPriors(options.georeference, database, graph.database_image_ids, &graph.scene);
  ReconstructionOptions chosen = options;  // the whole view graph's choice, as a single run makes it
  chosen.mapper_choice = ChooseMapper(options, graph.scene).global ? MapperChoice::kGlobal : MapperChoice::kIncremental;
  const ImagePartition partition =
      PartitionViewGraph(options.partitioning, part.count, graph.scene, WeightedPairs(pair_counts));
  PROJ_REQUIRE(part.index < static_cast<int>(partition.parts.size()),
               "part " << part.Name() << ": the view graph of " << graph.scene.images.size()
                       << " images is cut into only " << partition.parts.size() << " parts");
  PROJ_LOG(kInfo, "part " << part.Name() << ": " << partition.parts[part.index].size() << " of "
                          << graph.scene.images.size() << " images (cut by "
                          << (partition.by_position ? "GPS position" : "the view graph") << ")");
  LoadViewGraphPart(database, pair_counts, partition.parts[part.index], &graph);
  MapperSummary summary;
  const PartModel model = MapPart(chosen, graph.scene, graph.pairs, partition.parts[part.index],
                                  options.run.num_threads, true, &summary);
  if (summary.success) WritePartModel(parts_dir, part, model, graph.scene, pair_counts.size());
  return summary;
}

}  // namespace proj
