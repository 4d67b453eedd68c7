#include "sfm/mapper/incremental_mapper.h"

#include <algorithm>
#include <numeric>
#include <set>
#include <sstream>

#include "core/check.h"
#include "core/interrupt.h"
#include "core/logging.h"
#include "core/parallel_for.h"
#include "core/progress.h"
#include "core/timer.h"
#include "sfm/mapper/dome_correction.h"
#include "sfm/mapper/initial_pair.h"
#include "sfm/mapper/keyframes.h"
#include "sfm/mapper/local_adjustment.h"
#include "sfm/mapper/pose_estimation.h"
#include "sfm/mapper/principal_point_rule.h"
#include "sfm/mapper/registration_candidates.h"
#include "sfm/mapper/scene_geometry.h"
#include "sfm/mapper/track_triangulation.h"

namespace proj {
namespace {

// Adds the wall and process CPU seconds of its lifetime to *wall and *cpu.
class AddElapsed {
 public:
  AddElapsed(double* wall, double* cpu) : wall_(wall), cpu_(cpu), cpu_start_(ProcessCpuSeconds()) {}
  ~AddElapsed() {
    *wall_ += timer_.ElapsedSeconds();
    *cpu_ += ProcessCpuSeconds() - cpu_start_;
  }
  AddElapsed(const AddElapsed&) = delete;
  AddElapsed& operator=(const AddElapsed&) = delete;

 private:
  double* wall_;
  double* cpu_;
  Timer timer_;
  double cpu_start_;
};

}  // namespace

std::vector<std::pair<std::string, double>> MapperStepTimes::Entries() const {
  return {{"initial_pair", initial_pair}, {"registration", registration},
          {"triangulation", triangulation}, {"local_ba", local_ba},
          {"global_ba", global_ba},       {"filtering", filtering},
          {"retriangulation", retriangulation}, {"final_ba", final_ba}};
}

IncrementalMapper::IncrementalMapper(const IncrementalMapperOptions& options,
                                     const TrackSet& tracks,
                                     const std::vector<VerifiedPair>& pairs, Scene* scene)
    : options_(options),
      tracks_(tracks),
      pairs_(pairs),
      scene_(*scene),
      visibility_(tracks),
      failed_at_(scene->images.size(), -1),
      min_registration_inliers_(options.abs_pose_min_num_inliers),
      touched_(tracks.tracks.size(), 0) {
  options.Check();
  PROJ_CHECK(tracks.track_of.size() == scene->images.size(), "tracks and scene disagree");
  PROJ_CHECK(scene->points.empty(), "the mapper starts from a scene without points");
}

void IncrementalMapper::SetMaxReprojErrorPx(double max_reproj_error_px) {
  PROJ_REQUIRE(max_reproj_error_px > 0, "mapper max_reproj_error_px must be > 0");
  options_.max_reproj_error_px = max_reproj_error_px;
}

bool IncrementalMapper::FindAndRegisterInitialPair() {
  const AddElapsed timing(&summary_.times.initial_pair, &summary_.cpu_times.initial_pair);
  // One model is built: it starts in the largest connected group of images, where it can grow
  // the most (two scenes in one folder: the larger one), and elsewhere only if no pair there
  // starts one.
  const std::vector<char> largest =
      LargestConnectedComponent(static_cast<int>(scene_.images.size()), PairsWithInliers(pairs_));
  const bool everything_connected = std::all_of(largest.begin(), largest.end(), [](char in) { return in; });
  if (TryInitialPairsOfKeyframesFirst(&largest)) return true;
  if (everything_connected) return false;
  PROJ_LOG(kInfo, "no initial pair in the largest connected group of images; trying the others");
  return TryInitialPairsOfKeyframesFirst(nullptr);
}

bool IncrementalMapper::TryInitialPairsOfKeyframesFirst(const std::vector<char>* allowed_images) {
  if (TryInitialPairs(/*keyframes_only=*/true, allowed_images)) return true;
  // No pair of keyframes starts a model (in forward motion, the widest pairs may span a stop
  // whose frames are not keyframes): any pair may, and its two frames become keyframes.
  const bool all_keyframes = std::all_of(scene_.images.begin(), scene_.images.end(),
                                         [](const SceneImage& image) { return image.keyframe; });
  if (all_keyframes) return false;
  PROJ_LOG(kInfo, "no initial pair of keyframes; trying pairs with other frames");
  return TryInitialPairs(/*keyframes_only=*/false, allowed_images);
}

bool IncrementalMapper::TryInitialPairs(bool keyframes_only, const std::vector<char>* allowed_images) {
  const std::vector<const VerifiedPair*> candidates =
      InitialPairCandidates(pairs_, scene_, options_.init_min_tri_angle_deg,
                            options_.init_max_candidates, nullptr, keyframes_only, allowed_images,
                            options_.init_min_num_points);
  for (double angle = options_.init_min_tri_angle_deg; angle >= options_.init_lowest_tri_angle_deg;
       angle /= 2) {
    for (const VerifiedPair* pair : candidates) {
      // The pair's frames are keyframes while tried (points come from keyframes only).
      bool& first = scene_.images[pair->pair.image1].keyframe;
      bool& second = scene_.images[pair->pair.image2].keyframe;
      const bool first_was = first, second_was = second;
      first = second = true;
      if (RegisterInitialPair(*pair, angle)) return true;
      first = first_was;
      second = second_was;
    }
    PROJ_LOG(kInfo, "no initial pair with a median triangulation angle of " << angle
                                                                            << " deg; relaxing");
  }
  return false;
}

bool IncrementalMapper::RegisterInitialPair(const VerifiedPair& pair, double min_angle_deg) {
  const int id1 = pair.pair.image1, id2 = pair.pair.image2;
  SceneImage& image1 = scene_.images[id1];
  SceneImage& image2 = scene_.images[id2];
  const Camera& camera1 = scene_.cameras[image1.camera_id];
  const Camera& camera2 = scene_.cameras[image2.camera_id];
  std::vector<Eigen::Vector2d> n1, n2;
  for (const auto& m : pair.geometry.inlier_matches) {
    n1.push_back(camera1.PixelToNormalized(image1.keypoints[m.index1]));
    n2.push_back(camera2.PixelToNormalized(image2.keypoints[m.index2]));
  }
  const double focal = 0.5 * (camera1.MeanFocal() + camera2.MeanFocal());
  const RelativePoseResult relative =
      InitialRelativePose(pair, n1, n2, options_.max_reproj_error_px / focal, NextSeed());
  using Outcome = InitialPairAttempts::Outcome;
  if (!relative.success || relative.num_inliers < options_.init_min_num_points) {
    initial_attempts_.Record(pair.pair, Outcome::kFewPoseInliers);
    return false;
  }
  // Judge the pair's parallax before committing to it.
  const std::optional<double> median_angle =
      MedianTriangulationAngleDeg(relative, n1, n2, options_.init_min_num_points);
  if (!median_angle) {
    initial_attempts_.Record(pair.pair, Outcome::kFewPoseInliers);  // too few in front of both
    return false;
  }
  initial_attempts_.widest_median_angle_deg = std::max(initial_attempts_.widest_median_angle_deg, *median_angle);
  if (*median_angle < min_angle_deg) {
    initial_attempts_.Record(pair.pair, Outcome::kLowParallax);
    return false;
  }

  image1.registered = image2.registered = true;
  image1.cam_from_world = Rigid3d();
  image2.cam_from_world = relative.cam2_from_cam1;
  TriangulateImage(id2);
  if (static_cast<int>(scene_.points.size()) < options_.init_min_num_points) {
    initial_attempts_.Record(pair.pair, Outcome::kFewTrackPoints);
    initial_attempts_.most_track_points =
        std::max(initial_attempts_.most_track_points, static_cast<int>(scene_.points.size()));
    // Undo: the tracks did not confirm the pair.
    std::vector<int> ids;
    for (const auto& [id, point] : scene_.points) ids.push_back(id);
    for (int id : ids) scene_.DeletePoint(id);
    OnPointsDeleted(ids);
    for (int track : touched_tracks_) touched_[track] = 0;
    touched_tracks_.clear();
    image1.registered = image2.registered = false;
    return false;
  }
  MarkImageTracksTouched(id1);
  MarkImageTracksTouched(id2);
  summary_.initial_pair = pair.pair;
  PROJ_LOG(kInfo, "initial pair: '" << image1.name << "' and '" << image2.name << "' ("
                                    << relative.num_inliers << " inliers, median angle "
                                    << *median_angle << " deg, " << scene_.points.size()
                                    << " points)");
  return true;
}

std::string IncrementalMapper::InitialPairFailure() const {
  return DescribeInitialPairFailure(initial_attempts_, pairs_, tracks_, options_.init_min_num_points,
                                    options_.init_lowest_tri_angle_deg);
}

std::vector<int> IncrementalMapper::NextImages() {
  const AddElapsed timing(&summary_.times.registration, &summary_.cpu_times.registration);
  return RankRegistrationCandidates(scene_, visibility_, failed_at_, min_registration_inliers_);
}

void IncrementalMapper::SetRegistrationRelaxed(bool relaxed) {
  min_registration_inliers_ =
      relaxed ? std::min(options_.abs_pose_min_num_inliers, options_.abs_pose_stalled_min_num_inliers)
              : options_.abs_pose_min_num_inliers;
}

bool IncrementalMapper::RegisterImage(int image_id) {
  const AddElapsed timing(&summary_.times.registration, &summary_.cpu_times.registration);
  SceneImage& image = scene_.images[image_id];
  PROJ_CHECK(!image.registered, "image " << image_id << " is registered already");
  const Camera& camera = scene_.cameras[image.camera_id];
  std::vector<Eigen::Vector2d> pixels;
  std::vector<Eigen::Vector3d> points;
  std::vector<int> keypoint_of;
  for (size_t k = 0; k < image.keypoints.size(); ++k) {
    const int track = tracks_.track_of[image_id][k];
    if (track == kInvalidId) continue;
    const int point_id = visibility_.PointOfTrack(track);
    if (point_id == kInvalidId) continue;
    pixels.push_back(image.keypoints[k]);
    points.push_back(scene_.points.at(point_id).position);
    keypoint_of.push_back(static_cast<int>(k));
  }
  const AbsolutePoseResult pose =
      EstimateCameraPose(camera, pixels, points, options_.abs_pose_max_error_px, NextSeed());
  const int count = static_cast<int>(pixels.size());
  if (!pose.success || pose.num_inliers < min_registration_inliers_ ||
      pose.num_inliers < options_.abs_pose_min_inlier_ratio * count) {
    failed_at_[image_id] = count;
    return false;
  }
  image.registered = true;
  image.cam_from_world = pose.cam_from_world;
  int added = 0;
  for (int i = 0; i < count; ++i) {
    if (!pose.inlier_mask[i]) continue;
    const int k = keypoint_of[i];
    if (ReprojectionErrorPx(scene_, image_id, k, points[i]) > options_.max_reproj_error_px) continue;
    scene_.AddObservation(visibility_.PointOfTrack(tracks_.track_of[image_id][k]), {image_id, k});
    ++added;
  }
  MarkImageTracksTouched(image_id);
  PROJ_LOG(kDebug, "registered '" << image.name << "': " << pose.num_inliers << "/" << count
                                  << " inliers, " << added << " observations");
  return true;
}

int IncrementalMapper::TriangulateOrExtend(int track_id, int* added) {
  const int point_id = visibility_.PointOfTrack(track_id);
  if (point_id != kInvalidId) {
    const int extended = ExtendPoint(tracks_.tracks[track_id], point_id, options_.max_reproj_error_px, &scene_);
    *added += extended;
    return extended > 0 ? point_id : kInvalidId;
  }
  bool all_keyframes = true;
  const std::optional<Point3D> point = TriangulateNewPoint(track_id, &keyframe_track_, &all_keyframes);
  return point ? AddNewPoint(track_id, *point, all_keyframes, added) : kInvalidId;
}

std::optional<Point3D> IncrementalMapper::TriangulateNewPoint(int track_id, std::vector<TrackElement>* scratch,
                                                              bool* all_keyframes) const {
  const std::vector<TrackElement>& track = tracks_.tracks[track_id];
  // Points come from keyframes only (keyframes.h); other frames' observations then join them.
  *all_keyframes = KeyframeElements(scene_, track, scratch);
  return TriangulateTrack(scene_, *all_keyframes ? track : *scratch, options_.max_reproj_error_px,
                          options_.min_tri_angle_deg, options_.track_triangulation);
}

int IncrementalMapper::AddNewPoint(int track_id, const Point3D& point, bool all_keyframes, int* added) {
  const std::vector<TrackElement>& track = tracks_.tracks[track_id];
  const int id = scene_.AddPoint(point.position, point.track);
  visibility_.SetPoint(track_id, id, track);
  *added += static_cast<int>(point.track.size());
  if (!all_keyframes) *added += ExtendPoint(track, id, options_.max_reproj_error_px, &scene_);
  return id;
}

std::vector<int> IncrementalMapper::TriangulateImage(int image_id) {
  const AddElapsed timing(&summary_.times.triangulation, &summary_.cpu_times.triangulation);
  std::vector<int> points;
  int added = 0;
  for (int track : tracks_.track_of[image_id]) {
    if (track == kInvalidId) continue;
    const int point_id = TriangulateOrExtend(track, &added);
    if (point_id != kInvalidId) points.push_back(point_id);
  }
  return points;
}

int IncrementalMapper::RetriangulateTracks(const std::vector<int>& track_ids) {
  const AddElapsed timing(&summary_.times.retriangulation, &summary_.cpu_times.retriangulation);
  // Tracks share no keypoint, so a new point depends on the registered cameras alone: the new
  // points of a block of tracks are triangulated in parallel, then added (and existing points
  // extended) in the tracks' order, which gives the scene one track at a time would (the
  // merged parts of a 10,000-image survey triangulate 5.5 million tracks here).
  constexpr int kBlockTracks = 1 << 16, kItemTracks = 256;
  std::vector<std::optional<Point3D>> points;
  std::vector<char> all_keyframes;
  int added = 0;
  for (size_t start = 0; start < track_ids.size(); start += kBlockTracks) {
    const int count = static_cast<int>(std::min<size_t>(kBlockTracks, track_ids.size() - start));
    points.assign(count, std::nullopt);
    all_keyframes.assign(count, 1);
    ParallelFor(0, (count + kItemTracks - 1) / kItemTracks, options_.num_threads, [&](int item, int) {
      std::vector<TrackElement> scratch;
      for (int i = item * kItemTracks; i < std::min(count, (item + 1) * kItemTracks); ++i) {
        const int track_id = track_ids[start + i];
        if (visibility_.PointOfTrack(track_id) != kInvalidId) continue;
        bool in_keyframes = true;
        points[i] = TriangulateNewPoint(track_id, &scratch, &in_keyframes);
        all_keyframes[i] = in_keyframes;
      }
    });
    for (int i = 0; i < count; ++i) {
      const int track_id = track_ids[start + i];
      // A track listed twice got its point from its first listing: extended, as one at a time.
      if (visibility_.PointOfTrack(track_id) != kInvalidId) {
        TriangulateOrExtend(track_id, &added);
      } else if (points[i]) {
        AddNewPoint(track_id, *points[i], all_keyframes[i] != 0, &added);
      }
    }
  }
  return added;
}

int IncrementalMapper::RetriangulateTouched() {
  std::vector<int> tracks;
  tracks.swap(touched_tracks_);
  for (int track : tracks) touched_[track] = 0;
  return RetriangulateTracks(tracks);
}

void IncrementalMapper::MarkImageTracksTouched(int image_id) {
  for (int track : tracks_.track_of[image_id]) {
    if (track == kInvalidId || touched_[track]) continue;
    touched_[track] = 1;
    touched_tracks_.push_back(track);
  }
}

void IncrementalMapper::OnPointsDeleted(const std::vector<int>& point_ids) {
  for (int point_id : point_ids) {
    const int track = visibility_.TrackOfPoint(point_id);
    if (track == kInvalidId) continue;
    visibility_.ClearPoint(track, tracks_.tracks[track]);
    if (!touched_[track]) {
      touched_[track] = 1;
      touched_tracks_.push_back(track);
    }
  }
}

int IncrementalMapper::FilterPoints(const std::vector<int>* point_ids) {
  const AddElapsed timing(&summary_.times.filtering, &summary_.cpu_times.filtering);
  std::vector<int> deleted;
  const int removed = proj::FilterPoints(&scene_, options_.max_reproj_error_px,
                                         options_.min_tri_angle_deg, point_ids, &deleted);
  OnPointsDeleted(deleted);
  return removed;
}

BundleAdjustmentOptions IncrementalMapper::BaOptions(int max_iterations) const {
  BundleAdjustmentOptions ba;
  ba.max_iterations = max_iterations;
  ba.refine_principal_point = options_.principal_point == IncrementalMapperOptions::PrincipalPoint::kOn ||
                              !principal_point_cameras_.empty();
  if (options_.principal_point != IncrementalMapperOptions::PrincipalPoint::kOn) {
    ba.principal_point_camera_ids = principal_point_cameras_;
  }
  ba.num_threads = options_.num_threads;
  ba.cpu_dense_schur_max_images = options_.cpu_dense_schur_max_images;
  ba.update_point_errors = false;  // RunIncrementalMapper updates them once, at the end
  return ba;
}

void IncrementalMapper::LocalAdjust(int image_id) {
  BundleAdjustmentOptions ba = BaOptions(options_.local_ba_max_iterations);
  ba.loss = BundleAdjustmentOptions::LossType::kTrivial;  // observations are <= 4 px inliers
  ba.solver = options_.local_ba_solver;
  if (growing_ && !options_.refine_distortion_while_growing) {
    // A few images pull shared intrinsics towards a local fit: global adjustments refine them.
    ba.refine_focal = ba.refine_extra = ba.refine_principal_point = false;
  }
  BundleAdjustmentConfig config;
  BundleAdjustmentSummary report;
  {
    const AddElapsed timing(&summary_.times.local_ba, &summary_.cpu_times.local_ba);
    config = ConfigForLocal(scene_, image_id, options_.local_ba_num_images);
    LimitConstantPoseImages(scene_, options_.local_ba_max_constant_images, &config);
    AddGeoreferencePriors(options_.priors, summary_.georeference, scene_, /*with_positions=*/false,
                          &config);
    report = RunBundleAdjustment(ba, config, &scene_);
  }
  ++summary_.num_local_ba;
  PROJ_LOG(kDebug, "local BA (" << report.solver << "): " << report.num_variable_images
                                << " images, " << report.num_observations << " observations, "
                                << report.num_iterations << " iterations, " << report.time_s << " s");
  // Only what the adjustment moved can have become an outlier; the shared intrinsics moved
  // too, but only slightly, and the next global step filters every point.
  const std::vector<int> adjusted(config.variable_point_ids.begin(),
                                  config.variable_point_ids.end());
  FilterPoints(&adjusted);
  // The new pose is refined now: its tracks that failed before may triangulate.
  std::vector<int> tracks;
  for (int track : tracks_.track_of[image_id]) {
    if (track != kInvalidId) tracks.push_back(track);
  }
  RetriangulateTracks(tracks);
}

size_t IncrementalMapper::NumObservations() const {
  size_t count = 0;
  for (const auto& [id, point] : scene_.points) count += point.track.size();
  return count;
}

const PriorAlignment& IncrementalMapper::AlignToPriors() {
  if (!options_.priors.enabled || scene_.position_priors.empty()) return summary_.georeference;
  PriorAlignment alignment = AlignSceneToPriors(options_.priors, NextSeed(), &scene_);
  if (alignment.aligned || !summary_.georeference.aligned) {
    if (alignment.aligned && !summary_.georeference.aligned) {
      PROJ_LOG(kInfo, "model aligned to the GPS positions: scale "
                          << alignment.priors_from_model.scale << ", " << alignment.NumInliers()
                          << "/" << alignment.residuals.size() << " inliers, rms "
                          << alignment.inlier_rms_m << " m");
    }
    summary_.georeference = std::move(alignment);
  }
  return summary_.georeference;
}

BundleAdjustmentOptions IncrementalMapper::GlobalBaOptions(int max_iterations, double function_tolerance,
                                                           BundleAdjustmentOptions::LossType loss) const {
  BundleAdjustmentOptions ba = BaOptions(max_iterations);
  ba.function_tolerance = function_tolerance;
  ba.loss = loss;
  ba.solver = options_.global_ba_solver;
  if ((growing_ && !options_.refine_distortion_while_growing) || options_.hold_distortion || distortion_held_) {
    ba.refine_extra = false;
  }
  return ba;
}

BundleAdjustmentSummary IncrementalMapper::AdjustCopy(int max_iterations, double function_tolerance,
                                                      BundleAdjustmentOptions::LossType loss,
                                                      Scene* copy) const {
  BundleAdjustmentConfig config = ConfigForGlobal(*copy);
  AddGeoreferencePriors(options_.priors, summary_.georeference, *copy, /*with_positions=*/true, &config);
  return RunBundleAdjustment(GlobalBaOptions(max_iterations, function_tolerance, loss), config, copy);
}

int IncrementalMapper::GlobalAdjust(int max_iterations, double function_tolerance,
                                    BundleAdjustmentOptions::LossType loss,
                                    bool retriangulate_all) {
  const BundleAdjustmentOptions ba = GlobalBaOptions(max_iterations, function_tolerance, loss);
  BundleAdjustmentSummary report;
  {
    const AddElapsed timing(&summary_.times.global_ba, &summary_.cpu_times.global_ba);
    BundleAdjustmentConfig config = ConfigForGlobal(scene_);
    AddGeoreferencePriors(options_.priors, AlignToPriors(), scene_, /*with_positions=*/true, &config);
    report = RunBundleAdjustment(ba, config, &scene_);
  }
  ++summary_.num_global_ba;
  PROJ_LOG(kDebug, "global BA (" << report.solver << "): " << report.num_variable_images
                                 << " images, " << report.num_observations << " observations, "
                                 << report.num_iterations << " iterations, " << report.time_s
                                 << " s, rms " << report.initial_rms_px << " -> "
                                 << report.final_rms_px << " px");
  const int removed = FilterPoints(nullptr);
  // The refined poses may now agree on tracks that failed before.
  const size_t before = NumObservations();
  if (retriangulate_all) {
    for (int track : touched_tracks_) touched_[track] = 0;
    touched_tracks_.clear();
    std::vector<int> all(tracks_.tracks.size());
    for (size_t t = 0; t < all.size(); ++t) all[t] = static_cast<int>(t);
    RetriangulateTracks(all);
  } else {
    RetriangulateTouched();
  }
  return removed + static_cast<int>(NumObservations() - before);
}

// The robust loss is slower than plain least squares but measurably more accurate
// (fountain-P11: 6.2 vs 6.3 mm).
void RefineUntilStable(const IncrementalMapperOptions& options, int max_rounds,
                       IncrementalMapper* mapper) {
  for (int round = 0; round < max_rounds; ++round) {
    const int changed =
        mapper->GlobalAdjust(options.global_ba_max_iterations, options.final_ba_function_tolerance,
                             BundleAdjustmentOptions::LossType::kCauchy, true);
    if (changed < options.final_ba_min_change * static_cast<double>(mapper->NumObservations())) break;
  }
}

namespace {

// The last step of kAuto (principal_point_rule.h): refines the principal point of the
// cameras whose views constrain it and keeps that model only when plausible; otherwise
// restores the finished model with the principal point at the centre (the mapper is not
// used afterwards, so its bookkeeping need not follow). Up to principal_point_max_rounds (3)
// rounds: one is enough on fountain-P11 (2.61 mm either way) but not on castle-P19 (42.3 mm
// after one round, 35.2 mm after three, 2 cores, 2026-11-27).
void RefinePrincipalPointsWhereConstrained(const IncrementalMapperOptions& options,
                                           IncrementalMapper* mapper, Scene* scene) {
  const PrincipalPointRule rule;
  const std::set<int> cameras = CamerasWithConstrainedPrincipalPoint(*scene, rule);
  if (cameras.empty()) return;
  const Scene centred = *scene;
  const double centred_error = MeanPointError(centred);
  mapper->SetPrincipalPointCameras(cameras);
  RefineUntilStable(options, options.principal_point_max_rounds, mapper);
  mapper->SetPrincipalPointCameras({});
  const double refined_error = MeanPointError(*scene);
  std::ostringstream rejected;
  for (int camera_id : cameras) {
    const Camera& camera = scene->cameras[camera_id];
    if (!PrincipalPointPlausible(camera, rule)) {
      rejected << "camera " << camera_id << "'s moved to (" << camera.PrincipalPoint().transpose()
               << "), too far from the image centre; ";
    }
  }
  if (scene->points.size() < rule.min_points_kept * static_cast<double>(centred.points.size())) {
    rejected << "the model lost points (" << centred.points.size() << " -> " << scene->points.size() << "); ";
  }
  if (!PrincipalPointErrorReducedEnough(centred_error, refined_error, rule)) {
    rejected << "the mean point error fell by less than " << 100 * rule.min_error_reduction << "% ("
             << centred_error << " -> " << refined_error << " px); ";
  }
  if (rejected.str().empty()) {
    for (int camera_id : cameras) {
      PROJ_LOG(kInfo, "principal point of camera " << camera_id << " refined to ("
                                                   << scene->cameras[camera_id].PrincipalPoint().transpose()
                                                   << "); mean point error " << centred_error << " -> "
                                                   << refined_error << " px");
    }
    return;
  }
  PROJ_LOG(kInfo, "principal point kept at the image centre: " << rejected.str());
  *scene = centred;
}

}  // namespace

void RefineFinalModel(const IncrementalMapperOptions& options, IncrementalMapper* mapper, Scene* scene) {
  RefineUntilStable(options, options.final_ba_max_rounds, mapper);
  if (options.correct_dome && !options.hold_distortion && mapper->AlignToPriors().aligned) {
    mapper->RecordDomeCorrection(CorrectDomeFromGps(options.dome, options, mapper, scene));
  }
  if (options.principal_point == IncrementalMapperOptions::PrincipalPoint::kAuto) {
    RefinePrincipalPointsWhereConstrained(options, mapper, scene);
  }
}

void TriangulatePlacedCameras(const IncrementalMapperOptions& options, double initial_factor, double factor_step,
                              IncrementalMapper* mapper, Scene* scene) {
  PROJ_CHECK(initial_factor >= 1 && factor_step > 1, "TriangulatePlacedCameras: bad factors");
  double factor = initial_factor;
  mapper->SetMaxReprojErrorPx(options.max_reproj_error_px * factor);
  std::vector<int> all_tracks(mapper->tracks().tracks.size());
  std::iota(all_tracks.begin(), all_tracks.end(), 0);
  mapper->RetriangulateTracks(all_tracks);
  while (factor > 1) {
    mapper->GlobalAdjust(options.global_ba_max_iterations, 1e-6, BundleAdjustmentOptions::LossType::kCauchy, true);
    PROJ_LOG(kInfo, "refinement at " << options.max_reproj_error_px * factor << " px: " << scene->points.size()
                                     << " points, " << MeanReprojectionErrorPx(*scene) << " px");
    factor = std::max(1.0, factor / factor_step);
    mapper->SetMaxReprojErrorPx(options.max_reproj_error_px * factor);
    // Observations beyond the tightened threshold go before the next adjustment, not after
    // it: an adjustment dragging them along takes its full iterations (castle-P19).
    mapper->FilterPoints(nullptr);
  }
}

int GrowModel(const IncrementalMapperOptions& options, IncrementalMapper* mapper, Scene* scene) {
  const auto kTrivial = BundleAdjustmentOptions::LossType::kTrivial;
  const int total = static_cast<int>(scene->images.size());
  const int at_start = scene->NumRegisteredImages();
  int registered = at_start;
  int registered_at_last_global = registered;
  Progress progress("registering images", total, "images");
  progress.Advance(registered);
  bool added = true;
  while (added) {
    ThrowIfInterrupted();  // the model is not stored: an interrupted mapping starts again
    added = false;
    for (int candidate : mapper->NextImages()) {
      if (!mapper->RegisterImage(candidate)) continue;
      added = true;
      ++registered;
      if (mapper->registration_relaxed()) {
        PROJ_LOG(kInfo, "registered '" << scene->images[candidate].name << "' with the relaxed threshold");
        mapper->SetRegistrationRelaxed(false);
      }
      mapper->TriangulateImage(candidate);
      if (registered < options.global_ba_always_below ||
          registered >= options.global_ba_growth * registered_at_last_global) {
        mapper->GlobalAdjust(options.global_ba_max_iterations, 1e-6, kTrivial, false);
        registered_at_last_global = registered;
      } else {
        mapper->LocalAdjust(candidate);
      }
      progress.Advance();
      PROJ_LOG(kDebug, "registered images: " << registered << "/" << total << " ('"
                                            << scene->images[candidate].name << "', "
                                            << scene->points.size() << " points)");
      break;  // the new points change who sees the most
    }
    if (!added && !mapper->registration_relaxed() && registered < total &&
        options.abs_pose_stalled_min_num_inliers < options.abs_pose_min_num_inliers) {
      // Stalled: try once more with fewer points before giving up on the rest.
      added = true;
      mapper->SetRegistrationRelaxed(true);
      PROJ_LOG(kInfo, "no image left with " << options.abs_pose_min_num_inliers
                          << " points to register from; trying with "
                          << options.abs_pose_stalled_min_num_inliers);
    }
  }
  return registered - at_start;
}

MapperSummary FinishModel(const IncrementalMapperOptions& options, IncrementalMapper* mapper, Scene* scene) {
  // Timed as a whole: the steps' own times are restored afterwards.
  const MapperStepTimes before_final = mapper->summary().times;
  const MapperStepTimes cpu_before_final = mapper->summary().cpu_times;
  const Timer final_timer;
  const double final_cpu_start = ProcessCpuSeconds();
  mapper->FinishGrowing();
  RefineFinalModel(options, mapper, scene);
  mapper->AlignToPriors();  // the final model, in the priors' frame
  UpdatePointErrors(scene);
  MapperSummary summary = mapper->summary();
  summary.times = before_final;
  summary.times.final_ba = final_timer.ElapsedSeconds();
  summary.cpu_times = cpu_before_final;
  summary.cpu_times.final_ba = ProcessCpuSeconds() - final_cpu_start;
  summary.success = true;
  summary.num_registered = scene->NumRegisteredImages();
  summary.num_points = static_cast<int>(scene->points.size());
  return summary;
}

MapperSummary RunIncrementalMapper(const IncrementalMapperOptions& options, const TrackSet& tracks,
                                   const std::vector<VerifiedPair>& verified_pairs, Scene* scene) {
  std::vector<VerifiedPair> updated_pairs;
  ViewGraphCalibration calibration;
  const std::vector<VerifiedPair>& pairs =
      CalibrateViewGraph(options.calibration, options.num_threads, options.seed, verified_pairs,
                         scene, &updated_pairs, &calibration);
  IncrementalMapper mapper(options, tracks, pairs, scene);
  MapperSummary summary;
  if (!mapper.FindAndRegisterInitialPair()) {
    summary.failure_reason = mapper.InitialPairFailure();
    return summary;
  }
  mapper.GlobalAdjust(options.global_ba_max_iterations, 1e-6, BundleAdjustmentOptions::LossType::kTrivial, false);
  GrowModel(options, &mapper, scene);
  return FinishModel(options, &mapper, scene);
}

}  // namespace proj
