#include "sfm/global/global_mapper.h"

#include <algorithm>
#include <numeric>
#include <optional>

#include "core/check.h"
#include "core/logging.h"
#include "core/timer.h"
#include "sfm/mapper/scene_geometry.h"

namespace proj {

void GlobalMapperOptions::Check() const {
  PROJ_REQUIRE(min_pair_inliers >= 5, "global mapper min_pair_inliers must be >= 5");
  PROJ_REQUIRE(planar_pair_weight >= 0, "global mapper planar_pair_weight must be >= 0");
  PROJ_REQUIRE(max_rotation_error_deg > 0, "global mapper max_rotation_error_deg must be > 0");
  PROJ_REQUIRE(positioning_min_track_length >= 2, "global mapper track length must be >= 2");
  PROJ_REQUIRE(positioning_tracks_per_image >= 10, "global mapper tracks per image must be >= 10");
  PROJ_REQUIRE(initial_reproj_error_factor >= 1, "global mapper initial_reproj_error_factor must be >= 1");
  PROJ_REQUIRE(reproj_error_factor_step > 1, "global mapper reproj_error_factor_step must be > 1");
  focal_bootstrap.Check();
  rotation_averaging.Check();
  positioning.Check();
  scale_check.Check();
  prior_start.Check();
  refinement.Check();
}

GlobalRotations EstimateGlobalRotations(const GlobalMapperOptions& options, int num_images,
                                        const std::vector<VerifiedPair>& verified_pairs,
                                        GlobalMapperTrace* trace) {
  GlobalMapperTrace local;
  if (!trace) trace = &local;
  GlobalRotations result;
  std::vector<RelativeRotation> edges = UsableRelativeRotations(verified_pairs, options.min_pair_inliers, options.planar_pair_weight);
  result.in_model = LargestConnectedComponent(num_images, edges);
  edges = EdgesWithin(edges, result.in_model);
  result.rotations = AverageRotations(options.rotation_averaging, num_images, edges, &trace->rotation_averaging);
  // A wrong relative pose pulls its neighbours a little even under the robust weights: drop
  // it and average again from the current estimate.
  std::vector<RelativeRotation> consistent =
      ConsistentEdges(edges, result.rotations, options.max_rotation_error_deg);
  trace->num_pairs_dropped_rotation = static_cast<int>(edges.size() - consistent.size());
  if (consistent.size() < edges.size()) {
    result.in_model = LargestConnectedComponent(num_images, consistent);
    consistent = EdgesWithin(consistent, result.in_model);
    trace->rotation_averaging = RefineRotations(options.rotation_averaging, consistent, &result.rotations);
  }
  trace->num_pairs_used = static_cast<int>(consistent.size());
  return result;
}

namespace {

int NumObservations(const Scene& scene, int image_id) {
  int count = 0;
  for (int id : scene.images[image_id].point3d_ids) count += id != kInvalidId;
  return count;
}

}  // namespace

MapperSummary RunGlobalMapper(const GlobalMapperOptions& options, const TrackSet& tracks,
                              const std::vector<VerifiedPair>& verified_pairs, Scene* scene,
                              GlobalMapperTrace* trace) {
  options.Check();
  GlobalMapperTrace local;
  if (!trace) trace = &local;
  PROJ_CHECK(tracks.track_of.size() == scene->images.size(), "tracks and scene disagree");
  const int num_images = static_cast<int>(scene->images.size());
  MapperSummary summary;
  Timer timer;

  std::vector<VerifiedPair> updated_pairs;
  ViewGraphCalibration calibration;
  ViewGraphCalibrationOptions calibration_options = options.refinement.calibration;
  calibration_options.max_pairs_reestimated = 0;  // every pose is averaged
  const std::vector<VerifiedPair>* calibrated_pairs =
      &CalibrateViewGraph(calibration_options, options.refinement.num_threads, options.refinement.seed,
                          verified_pairs, scene, &updated_pairs, &calibration);
  trace->focal_calibration = std::move(calibration.cameras);
  trace->num_pairs_reestimated = calibration.num_pairs_reestimated;
  const std::vector<Camera> before_bootstrap = scene->cameras;
  std::vector<VerifiedPair> bootstrapped_pairs;
  if (!BootstrapFocalLengths(options.focal_bootstrap, options.refinement, calibration_options.min_pair_inliers,
                             *calibrated_pairs, trace->focal_calibration, scene)
           .empty()) {
    bootstrapped_pairs = *calibrated_pairs;
    trace->num_pairs_reestimated +=
        ReestimateRelativePoses(calibration_options, options.refinement.num_threads, options.refinement.seed,
                                before_bootstrap, *scene, &bootstrapped_pairs);
    calibrated_pairs = &bootstrapped_pairs;
  }
  const std::vector<VerifiedPair>& pairs = *calibrated_pairs;
  PROJ_LOG(kInfo, "focal calibration: " << timer.ElapsedSeconds() << " s");
  timer.Restart();
  const GlobalRotations rotations = EstimateGlobalRotations(options, num_images, pairs, trace);
  const int in_model = static_cast<int>(std::accumulate(rotations.in_model.begin(), rotations.in_model.end(), 0));
  PROJ_LOG(kInfo, "rotation averaging: " << in_model << "/" << num_images << " images, "
                                         << trace->num_pairs_used << " pairs ("
                                         << trace->num_pairs_dropped_rotation
                                         << " inconsistent dropped), median error "
                                         << trace->rotation_averaging.median_error_deg << " deg, "
                                         << timer.ElapsedSeconds() << " s");
  if (in_model < 2) {
    summary.failure_reason = "no two images are linked by a verified pair with a relative pose";
    return summary;
  }

  timer.Restart();
  const std::vector<int> selected =
      SelectPositioningTracks(tracks, rotations.in_model, options.positioning_min_track_length,
                              options.positioning_tracks_per_image);
  std::vector<std::vector<BearingObservation>> bearings;
  for (int t : selected) bearings.push_back(TrackBearings(*scene, tracks.tracks[t], rotations.rotations, rotations.in_model));
  GlobalPositioningOptions positioning = options.positioning;
  positioning.num_threads = options.refinement.num_threads;
  positioning.seed = options.refinement.seed;
  trace->num_positioning_tracks = static_cast<int>(selected.size());
  const std::map<int, PositionPrior> no_priors;
  const std::map<int, PositionPrior>& priors = options.refinement.priors.enabled ? scene->position_priors : no_priors;
  std::optional<PriorStart> start;
  if (options.start_from_priors && !priors.empty()) {
    PriorStartOptions prior_start = options.prior_start;
    prior_start.seed = options.refinement.seed;
    start = StartFromPriors(prior_start, pairs, rotations.rotations, rotations.in_model, priors);
    if (start) {
      PROJ_LOG(kInfo, "global positioning starts from the GPS: turned onto it by " << start->num_pairs
                                                                              << " pairs (median "
                                                                              << start->median_error_deg << " deg)");
    }
  }
  trace->positioning = PositionCamerasAndPoints(positioning, num_images, bearings, priors,
                                                start ? start->centres : std::vector<Eigen::Vector3d>());
  PROJ_LOG(kInfo, "global positioning: " << selected.size() << " tracks, "
                                         << (trace->positioning.used_priors ? "GPS priors, " : "")
                                         << trace->positioning.num_iterations << " iterations, "
                                         << timer.ElapsedSeconds() << " s ("
                                         << trace->positioning.message << ")");
  if (!trace->positioning.success) {
    summary.failure_reason = "global positioning failed: " + trace->positioning.message;
    return summary;
  }
  std::vector<char> positioned(num_images, 0);
  for (const auto& track : bearings) {
    for (const BearingObservation& observation : track) positioned[observation.image_id] = 1;
  }
  // Images positioned at another scale than the rest are left to the incremental registration
  // below, from the points of the others.
  const std::vector<char> off_scale = ImagesOffTheMainScale(options.scale_check, pairs, bearings,
                                                            trace->positioning.centres,
                                                            trace->positioning.points, positioned);
  trace->num_off_scale = static_cast<int>(std::count(off_scale.begin(), off_scale.end(), 1));
  if (trace->num_off_scale > 0) {
    PROJ_LOG(kInfo, "global positioning put " << trace->num_off_scale
                                              << " images at another scale than the rest (their points' depths "
                                                 "jump across verified pairs); they are registered from the "
                                                 "points of the others instead");
  }
  for (int i = 0; i < num_images; ++i) {
    if (!rotations.in_model[i] || !positioned[i] || off_scale[i]) continue;
    SceneImage& image = scene->images[i];
    image.registered = true;
    const Eigen::Quaterniond rotation = rotations.rotations[i] * trace->positioning.priors_from_bearings.conjugate();
    image.cam_from_world = Rigid3d(rotation, -(rotation * trace->positioning.centres[i]));
  }
  trace->positioning.centres.clear();
  trace->positioning.points.clear();

  // Refinement with the incremental mapper's steps: triangulation and filtering start loose
  // (the positioned cameras are only roughly right) and tighten to its threshold.
  timer.Restart();
  const IncrementalMapperOptions& refinement = options.refinement;
  IncrementalMapper mapper(refinement, tracks, pairs, scene);
  // Lens distortion held until the final refinement, as the incremental mapper holds it while
  // growing: refined from the roughly positioned cameras, a nadir survey's k1 trades against a
  // bowl of the whole block ("doming", mapper_options.h) and the final rounds do not climb back.
  TriangulatePlacedCameras(refinement, options.initial_reproj_error_factor, options.reproj_error_factor_step,
                           &mapper, scene);
  // Images the view graph filters or the positioning left out, registered as the incremental
  // mapper registers them, from the points of the positioned ones.
  const int added = GrowModel(refinement, &mapper, scene);
  if (added > 0) PROJ_LOG(kInfo, "global mapper: " << added << " images registered after positioning");
  // Timed as the incremental mapper times its final refinement.
  const MapperStepTimes before_final = mapper.summary().times;
  const Timer final_timer;
  mapper.FinishGrowing();
  RefineFinalModel(refinement, &mapper, scene);
  MapperStepTimes times = before_final;
  times.final_ba = final_timer.ElapsedSeconds();
  // Images whose observations were all filtered out carry no information.
  for (int i = 0; i < num_images; ++i) {
    if (scene->images[i].registered && NumObservations(*scene, i) == 0) scene->images[i].registered = false;
  }
  UpdatePointErrors(scene);
  PROJ_LOG(kInfo, "global mapper refinement: " << timer.ElapsedSeconds() << " s");
  summary = mapper.summary();
  summary.times = times;
  summary.num_registered = scene->NumRegisteredImages();
  summary.num_points = static_cast<int>(scene->points.size());
  summary.success = summary.num_registered >= 2;
  if (!summary.success) summary.failure_reason = "refinement left fewer than two images with points";
  return summary;
}

}  // namespace proj
