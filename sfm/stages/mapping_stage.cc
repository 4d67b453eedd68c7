#include "sfm/stages/mapping_stage.h"

#include <algorithm>
#include <iomanip>
#include <optional>
#include <utility>

#include "core/check.h"
#include "core/logging.h"
#include "core/timer.h"
#include "sfm/database/view_graph_loader.h"
#include "sfm/stages/gps_rebuild.h"
#include "sfm/scene/track_builder.h"
#include "sfm/stages/ground_control_stage.h"

namespace proj {
namespace {

// Marks the frames of ordered input that add no baseline (keyframes.h), in name order.
void MarkKeyframes(const ReconstructionOptions& options, const TrackSet& tracks, Scene* scene,
                   MappingCounts* statistics) {
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

MappingStageSummary RunMappingStage(const ReconstructionOptions& options, const std::vector<int>& image_ids,
                                    const SceneDatabase& database) {
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

  std::vector<PairMatches> verified_matches;
  for (const auto& pair : graph.pairs) verified_matches.push_back({pair.pair, pair.geometry.inlier_matches});
  const TrackSet tracks = BuildTracks(graph.scene, verified_matches);
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
  summary.mapper_name = UseGlobalMapper(options, num_images) ? "global" : "incremental";
  PROJ_LOG(kInfo, "mapper: " << summary.mapper_name);
  const bool may_rebuild = options.rebuild_with_gps && !graph.scene.position_priors.empty();
  std::optional<Scene> unmapped;  // for a second attempt
  if (may_rebuild) unmapped = graph.scene;
  summary.mapper = MapAndGeoreference(options, tracks, graph.pairs, &graph.scene);
  const ModelQuality first = AssessModelQuality(options.quality, graph.scene, summary.mapper);
  if (may_rebuild && summary.mapper.success && !first.gps.Consistent()) {
    Timer rebuild_timer;
    std::optional<GpsRebuild> rebuilt = RebuildWithGps(options, tracks, graph.pairs, *unmapped, first);
    if (rebuilt) {
      graph.scene = std::move(rebuilt->scene);
      summary.mapper = std::move(rebuilt->mapper);
      summary.mapper_name = rebuilt->mapper_name;
      summary.rebuilt_with_gps = true;
      summary.first_attempt = first;
    }
    summary.times.Add("mapping.gps_rebuild", rebuild_timer.ElapsedSeconds());
  }
  summary.scene = std::move(graph.scene);
  summary.database_image_ids = std::move(graph.database_image_ids);
  if (gcp_file) {
    Timer gcp_timer;
    BundleAdjustmentOptions ba;
    ba.num_threads = options.mapper.num_threads;
    ba.function_tolerance = options.mapper.final_ba_function_tolerance;  // as the mapper's last ones
    ApplyGroundControl(options.ground_control, *gcp_file, ba, &summary);
    summary.times.Add("mapping.ground_control", gcp_timer.ElapsedSeconds());
  }
  if (summary.mapper.success) summary.quality = AssessModelQuality(options.quality, summary.scene, summary.mapper);
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

}  // namespace proj
