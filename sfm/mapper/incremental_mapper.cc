#include "sfm/mapper/incremental_mapper.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "core/check.h"
#include "core/logging.h"
#include "sfm/ba/bundle_adjuster.h"
#include "sfm/mapper/pose_estimation.h"
#include "sfm/mapper/scene_geometry.h"

namespace proj {

void IncrementalMapperOptions::Check() const {
  PROJ_REQUIRE(init_min_num_points >= 10, "mapper init_min_num_points must be >= 10");
  PROJ_REQUIRE(init_lowest_tri_angle_deg > 0 && init_lowest_tri_angle_deg <= init_min_tri_angle_deg,
               "mapper initial triangulation angles must satisfy 0 < lowest <= wanted");
  PROJ_REQUIRE(abs_pose_max_error_px > 0, "mapper abs_pose_max_error_px must be > 0");
  PROJ_REQUIRE(abs_pose_min_num_inliers >= 6, "mapper abs_pose_min_num_inliers must be >= 6");
  PROJ_REQUIRE(max_reproj_error_px > 0, "mapper max_reproj_error_px must be > 0");
  PROJ_REQUIRE(min_tri_angle_deg >= 0, "mapper min_tri_angle_deg must be >= 0");
  PROJ_REQUIRE(global_ba_growth >= 1.0, "mapper global_ba_growth must be >= 1");
}

namespace {

class Mapper {
 public:
  Mapper(const IncrementalMapperOptions& options, const TrackSet& tracks,
         const std::vector<VerifiedPair>& pairs, Scene* scene)
      : options_(options), tracks_(tracks), pairs_(pairs), scene_(*scene),
        point_of_track_(tracks.tracks.size(), kInvalidId) {}

  MapperSummary Run();

 private:
  bool Initialize();
  bool TryInitialPair(const VerifiedPair& pair, double min_angle_deg);
  RelativePoseResult InitialRelativePose(const VerifiedPair& pair, const std::vector<Eigen::Vector2d>& n1,
                                         const std::vector<Eigen::Vector2d>& n2, double focal);
  std::vector<int> RegistrationCandidates() const;
  bool RegisterImage(int image_id);
  // Triangulates tracks seen by `image_id` (or all images when kInvalidId) that have no point
  // yet, and extends existing points with observations of registered images. Returns the ids
  // of the points created or extended.
  std::vector<int> Triangulate(int image_id);
  bool TriangulateTrack(int track_id);
  void ExtendPoint(int track_id, int point_id);
  void LocalRefinement(int image_id);
  // Returns the number of observations removed by filtering plus those added by
  // re-triangulation (how much the model changed).
  // While the model grows, observations are already filtered at max_reproj_error_px and plain
  // least squares converges in a few iterations; the final rounds use the robust loss, which
  // is slower but measurably more accurate (fountain-P11: 6.2 vs 6.3 mm).
  int GlobalRefinement(int max_iterations, double function_tolerance = 1e-6,
                       BundleAdjustmentOptions::LossType loss =
                           BundleAdjustmentOptions::LossType::kTrivial);
  size_t NumObservations() const;
  int PointOfTrack(int track_id) const;
  uint64_t NextSeed() { return options_.seed + 7919 * (seed_counter_++); }

  const IncrementalMapperOptions& options_;
  const TrackSet& tracks_;
  const std::vector<VerifiedPair>& pairs_;
  Scene& scene_;
  std::vector<int> point_of_track_;
  // Number of 2D-3D correspondences an image had at its last failed registration.
  std::map<int, int> failed_at_;
  MapperSummary summary_;
  uint64_t seed_counter_ = 0;
};

int Mapper::PointOfTrack(int track_id) const {
  const int id = point_of_track_[track_id];
  return (id != kInvalidId && scene_.points.count(id)) ? id : kInvalidId;
}

RelativePoseResult Mapper::InitialRelativePose(const VerifiedPair& pair,
                                               const std::vector<Eigen::Vector2d>& n1,
                                               const std::vector<Eigen::Vector2d>& n2, double focal) {
  // Verification decomposed E (or H) on the pair's inliers already: start from that pose.
  // Uncalibrated pairs (wrong focal priors) and databases without poses (COLMAP's) are
  // estimated again under the cameras' current intrinsics.
  const TwoViewGeometry& geometry = pair.geometry;
  const bool usable = geometry.has_relative_pose && geometry.cam2_from_cam1.translation.norm() > 0 &&
                      (geometry.configuration == TwoViewConfiguration::kCalibrated ||
                       geometry.configuration == TwoViewConfiguration::kPlanar);
  if (!usable) return EstimateRelativePose(n1, n2, options_.max_reproj_error_px / focal, NextSeed());
  RelativePoseResult relative;
  relative.success = true;
  relative.cam2_from_cam1 = geometry.cam2_from_cam1;
  relative.inlier_mask.assign(n1.size(), 1);
  relative.num_inliers = static_cast<int>(n1.size());
  return relative;
}

bool Mapper::TryInitialPair(const VerifiedPair& pair, double min_angle_deg) {
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
  const RelativePoseResult relative = InitialRelativePose(pair, n1, n2, 0.5 * (camera1.MeanFocal() + camera2.MeanFocal()));
  if (!relative.success || relative.num_inliers < options_.init_min_num_points) return false;

  // Triangulate the inliers to judge the pair's parallax before committing to it.
  const std::vector<Rigid3d> poses = {Rigid3d(), relative.cam2_from_cam1};
  const Eigen::Vector3d c1 = poses[0].Center(), c2 = poses[1].Center();
  std::vector<double> angles;
  for (size_t i = 0; i < n1.size(); ++i) {
    if (!relative.inlier_mask[i]) continue;
    const auto point = TriangulateObservations(poses, {n1[i], n2[i]});
    if (!point || (poses[0] * *point).z() <= 0 || (poses[1] * *point).z() <= 0) continue;
    angles.push_back(TriangulationAngleDeg(c1, c2, *point));
  }
  if (static_cast<int>(angles.size()) < options_.init_min_num_points) return false;
  std::nth_element(angles.begin(), angles.begin() + angles.size() / 2, angles.end());
  const double median_angle = angles[angles.size() / 2];
  if (median_angle < min_angle_deg) return false;

  image1.registered = image2.registered = true;
  image1.cam_from_world = poses[0];
  image2.cam_from_world = poses[1];
  Triangulate(id2);
  if (static_cast<int>(scene_.points.size()) < options_.init_min_num_points) {
    // Undo: the tracks did not confirm the pair.
    for (auto it = scene_.points.begin(); it != scene_.points.end();) {
      const int id = (it++)->first;
      scene_.DeletePoint(id);
    }
    image1.registered = image2.registered = false;
    return false;
  }
  summary_.initial_pair = pair.pair;
  PROJ_LOG(kInfo, "initial pair: '" << image1.name << "' and '" << image2.name << "' ("
                                    << relative.num_inliers << " inliers, median angle "
                                    << median_angle << " deg, " << scene_.points.size()
                                    << " points)");
  return true;
}

bool Mapper::Initialize() {
  // Strongest pairs first; general (calibrated or not) before planar; never panoramic.
  std::vector<const VerifiedPair*> candidates;
  for (const auto& pair : pairs_) {
    if (pair.geometry.configuration == TwoViewConfiguration::kPanoramic ||
        pair.geometry.configuration == TwoViewConfiguration::kDegenerate) {
      continue;
    }
    candidates.push_back(&pair);
  }
  auto is_planar = [](const VerifiedPair* p) {
    return p->geometry.configuration == TwoViewConfiguration::kPlanar;
  };
  std::stable_sort(candidates.begin(), candidates.end(), [&](const auto* a, const auto* b) {
    if (is_planar(a) != is_planar(b)) return !is_planar(a);
    return a->geometry.inlier_matches.size() > b->geometry.inlier_matches.size();
  });
  if (candidates.size() > static_cast<size_t>(options_.init_max_candidates)) {
    candidates.resize(options_.init_max_candidates);
  }
  for (double angle = options_.init_min_tri_angle_deg; angle >= options_.init_lowest_tri_angle_deg;
       angle /= 2) {
    for (const VerifiedPair* pair : candidates) {
      if (TryInitialPair(*pair, angle)) return true;
    }
    PROJ_LOG(kInfo, "no initial pair with a median triangulation angle of " << angle
                                                                            << " deg; relaxing");
  }
  return false;
}

std::vector<int> Mapper::RegistrationCandidates() const {
  std::vector<std::pair<int, int>> scored;  // (visible points, image id)
  for (size_t id = 0; id < scene_.images.size(); ++id) {
    if (scene_.images[id].registered) continue;
    int visible = 0;
    for (int track : tracks_.track_of[id]) {
      if (track != kInvalidId && PointOfTrack(track) != kInvalidId) ++visible;
    }
    if (visible < options_.abs_pose_min_num_inliers) continue;
    auto failed = failed_at_.find(static_cast<int>(id));
    if (failed != failed_at_.end() && visible <= failed->second) continue;  // nothing new
    scored.emplace_back(visible, static_cast<int>(id));
  }
  std::sort(scored.rbegin(), scored.rend());
  std::vector<int> ids;
  for (const auto& s : scored) ids.push_back(s.second);
  return ids;
}

bool Mapper::RegisterImage(int image_id) {
  SceneImage& image = scene_.images[image_id];
  const Camera& camera = scene_.cameras[image.camera_id];
  std::vector<Eigen::Vector2d> pixels;
  std::vector<Eigen::Vector3d> points;
  std::vector<int> keypoint_of;
  for (size_t k = 0; k < image.keypoints.size(); ++k) {
    const int track = tracks_.track_of[image_id][k];
    if (track == kInvalidId) continue;
    const int point_id = PointOfTrack(track);
    if (point_id == kInvalidId) continue;
    pixels.push_back(image.keypoints[k]);
    points.push_back(scene_.points.at(point_id).position);
    keypoint_of.push_back(static_cast<int>(k));
  }
  const AbsolutePoseResult pose =
      EstimateCameraPose(camera, pixels, points, options_.abs_pose_max_error_px, NextSeed());
  const int count = static_cast<int>(pixels.size());
  if (!pose.success || pose.num_inliers < options_.abs_pose_min_num_inliers ||
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
    scene_.AddObservation(PointOfTrack(tracks_.track_of[image_id][k]), {image_id, k});
    ++added;
  }
  PROJ_LOG(kDebug, "registered '" << image.name << "': " << pose.num_inliers << "/" << count
                                  << " inliers, " << added << " observations");
  return true;
}

bool Mapper::TriangulateTrack(int track_id) {
  std::vector<TrackElement> elements;
  for (const auto& e : tracks_.tracks[track_id]) {
    if (scene_.images[e.image_id].registered) elements.push_back(e);
  }
  // Drop the worst observation until all agree, keeping at least two.
  while (elements.size() >= 2) {
    std::vector<Rigid3d> poses;
    std::vector<Eigen::Vector2d> normalized;
    for (const auto& e : elements) {
      const SceneImage& image = scene_.images[e.image_id];
      poses.push_back(image.cam_from_world);
      normalized.push_back(
          scene_.cameras[image.camera_id].PixelToNormalized(image.keypoints[e.keypoint_index]));
    }
    const auto point = TriangulateObservations(poses, normalized);
    if (!point) return false;
    size_t worst = 0;
    double worst_error = -1;
    for (size_t i = 0; i < elements.size(); ++i) {
      const double error =
          ReprojectionErrorPx(scene_, elements[i].image_id, elements[i].keypoint_index, *point);
      if (error > worst_error) {
        worst_error = error;
        worst = i;
      }
    }
    if (worst_error <= options_.max_reproj_error_px) {
      Point3D candidate;
      candidate.position = *point;
      candidate.track = elements;
      if (MaxTriangulationAngleDeg(scene_, candidate) < options_.min_tri_angle_deg) return false;
      point_of_track_[track_id] = scene_.AddPoint(*point, elements);
      return true;
    }
    elements.erase(elements.begin() + worst);
  }
  return false;
}

void Mapper::ExtendPoint(int track_id, int point_id) {
  const Eigen::Vector3d position = scene_.points.at(point_id).position;
  for (const auto& e : tracks_.tracks[track_id]) {
    if (!scene_.images[e.image_id].registered) continue;
    if (scene_.images[e.image_id].point3d_ids[e.keypoint_index] != kInvalidId) continue;
    if (ReprojectionErrorPx(scene_, e.image_id, e.keypoint_index, position) <=
        options_.max_reproj_error_px) {
      scene_.AddObservation(point_id, e);
    }
  }
}

std::vector<int> Mapper::Triangulate(int image_id) {
  std::set<int> track_ids;
  if (image_id == kInvalidId) {
    for (size_t t = 0; t < tracks_.tracks.size(); ++t) track_ids.insert(static_cast<int>(t));
  } else {
    for (int track : tracks_.track_of[image_id]) {
      if (track != kInvalidId) track_ids.insert(track);
    }
  }
  std::vector<int> touched;
  for (int track : track_ids) {
    const int point_id = PointOfTrack(track);
    if (point_id != kInvalidId) {
      const size_t before = scene_.points.at(point_id).track.size();
      ExtendPoint(track, point_id);
      if (scene_.points.at(point_id).track.size() > before) touched.push_back(point_id);
    } else if (TriangulateTrack(track)) {
      touched.push_back(point_of_track_[track]);
    }
  }
  return touched;
}

void Mapper::LocalRefinement(int image_id) {
  BundleAdjustmentOptions ba;
  ba.max_iterations = options_.local_ba_max_iterations;
  ba.loss = BundleAdjustmentOptions::LossType::kTrivial;  // observations are <= 4 px inliers
  ba.refine_principal_point = options_.refine_principal_point;
  ba.num_threads = options_.num_threads;
  const BundleAdjustmentConfig config =
      ConfigForLocal(scene_, image_id, options_.local_ba_num_images);
  const auto report = RunBundleAdjustment(ba, config, &scene_);
  ++summary_.num_local_ba;
  PROJ_LOG(kDebug, "local BA: " << report.num_variable_images << " images, "
                                << report.num_observations << " observations, "
                                << report.num_iterations << " iterations, " << report.time_s << " s");
  FilterPoints(&scene_, options_.max_reproj_error_px, options_.min_tri_angle_deg);
}

size_t Mapper::NumObservations() const {
  size_t count = 0;
  for (const auto& [id, point] : scene_.points) count += point.track.size();
  return count;
}

int Mapper::GlobalRefinement(int max_iterations, double function_tolerance,
                             BundleAdjustmentOptions::LossType loss) {
  BundleAdjustmentOptions ba;
  ba.max_iterations = max_iterations;
  ba.function_tolerance = function_tolerance;
  ba.loss = loss;
  ba.refine_principal_point = options_.refine_principal_point;
  ba.num_threads = options_.num_threads;
  const auto report = RunBundleAdjustment(ba, ConfigForGlobal(scene_), &scene_);
  ++summary_.num_global_ba;
  PROJ_LOG(kDebug, "global BA: " << report.num_variable_images << " images, "
                                 << report.num_observations << " observations, "
                                 << report.num_iterations << " iterations, " << report.time_s
                                 << " s, rms " << report.initial_rms_px << " -> "
                                 << report.final_rms_px << " px");
  const int removed = FilterPoints(&scene_, options_.max_reproj_error_px, options_.min_tri_angle_deg);
  // Re-triangulate: the refined poses may now agree on tracks that failed before.
  const size_t before = NumObservations();
  Triangulate(kInvalidId);
  return removed + static_cast<int>(NumObservations() - before);
}

MapperSummary Mapper::Run() {
  const int total = static_cast<int>(scene_.images.size());
  if (!Initialize()) {
    summary_.failure_reason =
        "no image pair has enough verified matches with enough parallax to start a model";
    return summary_;
  }
  GlobalRefinement(options_.global_ba_max_iterations);
  int registered = 2;
  int registered_at_last_global = registered;
  PROJ_LOG(kInfo, "registered images: " << registered << "/" << total);
  while (true) {
    bool added = false;
    for (int candidate : RegistrationCandidates()) {
      if (!RegisterImage(candidate)) continue;
      ++registered;
      added = true;
      Triangulate(candidate);
      if (registered < options_.global_ba_always_below ||
          registered >= options_.global_ba_growth * registered_at_last_global) {
        GlobalRefinement(options_.global_ba_max_iterations);
        registered_at_last_global = registered;
      } else {
        LocalRefinement(candidate);
      }
      PROJ_LOG(kInfo, "registered images: " << registered << "/" << total << " ('"
                                            << scene_.images[candidate].name << "', "
                                            << scene_.points.size() << " points)");
      break;  // recompute candidates: the new points change who sees the most
    }
    if (!added) break;
  }
  // Final refinement, as COLMAP does: adjust, filter and re-triangulate until the model stops
  // changing (fewer than 0.1% of the observations), with a tight tolerance.
  for (int round = 0; round < options_.final_ba_max_rounds; ++round) {
    const int changed =
        GlobalRefinement(options_.global_ba_max_iterations,
                         options_.final_ba_function_tolerance, BundleAdjustmentOptions::LossType::kCauchy);
    if (changed < 0.001 * static_cast<double>(NumObservations())) break;
  }
  UpdatePointErrors(&scene_);
  summary_.success = true;
  summary_.num_registered = scene_.NumRegisteredImages();
  summary_.num_points = static_cast<int>(scene_.points.size());
  return summary_;
}

}  // namespace

MapperSummary RunIncrementalMapper(const IncrementalMapperOptions& options, const TrackSet& tracks,
                                   const std::vector<VerifiedPair>& verified_pairs, Scene* scene) {
  options.Check();
  PROJ_CHECK(tracks.track_of.size() == scene->images.size(), "tracks and scene disagree");
  return Mapper(options, tracks, verified_pairs, scene).Run();
}

}  // namespace proj
