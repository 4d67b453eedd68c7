// Incremental Structure-from-Motion (Schönberger & Frahm, "Structure-from-Motion Revisited",
// CVPR 2016, simplified): start from a well-conditioned image pair, then repeatedly register
// the image that sees the most triangulated points, triangulate new tracks, refine locally and
// globally by bundle adjustment, and filter outliers, until no image can be added.
//
// The work of one registration step is proportional to what it touches (the new image, its
// bundle-adjusted neighbours and their points), not to the model: which tracks have a point,
// and how many such tracks each image sees, is kept up to date as points come and go
// (TrackVisibility). Only the global adjustments, at geometric growth intervals, touch the
// whole model.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "sfm/ba/bundle_adjuster.h"
#include "sfm/mapper/initial_pair_failure.h"
#include "sfm/mapper/mapper_options.h"
#include "sfm/mapper/track_visibility.h"
#include "sfm/scene/scene.h"
#include "sfm/scene/track_builder.h"
#include "sfm/scene/view_graph.h"

namespace proj {

// Wall-clock seconds spent in each step of the mapper, summed over the run: where mapping time
// goes (report.json "stage_seconds", as "mapping.<step>").
struct MapperStepTimes {
  double initial_pair = 0;     // choosing the initial pair (its triangulation counted here too)
  double registration = 0;     // candidate ranking and absolute pose
  double triangulation = 0;    // of each new image's tracks
  double local_ba = 0;
  double global_ba = 0;        // while the model grows
  double filtering = 0;        // outlier points, after each adjustment
  double retriangulation = 0;  // after each adjustment
  double final_ba = 0;         // the final adjust-filter-retriangulate rounds, all included

  // (step name, seconds) in the order above.
  std::vector<std::pair<std::string, double>> Entries() const;
};

struct MapperSummary {
  bool success = false;             // a model with at least two images was built
  std::string failure_reason;       // when !success
  int num_registered = 0;
  int num_points = 0;
  ImagePair initial_pair;
  int num_global_ba = 0;
  int num_local_ba = 0;
  PriorAlignment georeference;  // the last alignment to the GPS priors (prior_alignment.h)
  DomeCorrection dome;          // the final refinement's check of the block's dome (gps_dome.h)
  MapperStepTimes times;
  MapperStepTimes cpu_times;  // process CPU seconds (all threads) of the same steps
};

// `scene` holds cameras (with priors) and images with keypoints, nothing registered. Tracks
// index the same images and keypoints. First the focal lengths of cameras without EXIF are
// calibrated from the view graph (options.calibration), then the model grows image by image.
// On return the scene holds the model.
MapperSummary RunIncrementalMapper(const IncrementalMapperOptions& options,
                                   const TrackSet& tracks,
                                   const std::vector<VerifiedPair>& verified_pairs, Scene* scene);

// The mapper's steps, for RunIncrementalMapper, the global mapper's refinement and tests. Keeps
// a copy of the options; non-owning otherwise: tracks, pairs and scene must outlive the mapper,
// and the scene's points must change only through it. Not thread-safe.
class IncrementalMapper {
 public:
  IncrementalMapper(const IncrementalMapperOptions& options, const TrackSet& tracks,
                    const std::vector<VerifiedPair>& pairs, Scene* scene);

  // Tries the best-conditioned verified pairs (InitialPairCandidates), relaxing the wanted median
  // triangulation angle from init_min_tri_angle_deg by halves down to
  // init_lowest_tri_angle_deg, and registers the first that works: pairs within the largest
  // connected group of images first (then, if none works, any); in each, pairs of keyframes
  // first, then any pair (its frames become keyframes). False when none does.
  bool FindAndRegisterInitialPair();
  // Registers both images of `pair` (the first at the origin) and triangulates their tracks
  // when the pair's median triangulation angle is >= min_angle_deg and at least
  // init_min_num_points points result; otherwise leaves the scene unchanged and returns false.
  bool RegisterInitialPair(const VerifiedPair& pair, double min_angle_deg);
  // After FindAndRegisterInitialPair failed: why, in one sentence (initial_pair_failure.h).
  std::string InitialPairFailure() const;

  // Unregistered images seeing at least abs_pose_min_num_inliers points (or
  // abs_pose_stalled_min_num_inliers while relaxed), most first (ties: higher id first),
  // skipping those that failed to register with as many. O(images).
  std::vector<int> NextImages();
  // Absolute pose from the image's 2D-3D correspondences; adds the inlier observations to their
  // points. False (and the image stays unregistered) when too few inliers.
  bool RegisterImage(int image_id);
  // While relaxed, registration asks for abs_pose_stalled_min_num_inliers points and inliers
  // instead of abs_pose_min_num_inliers: RunIncrementalMapper relaxes it when no image can be
  // registered (a sharp turn in a video, where few tracks survive) and restores it after the
  // next registration.
  void SetRegistrationRelaxed(bool relaxed);
  bool registration_relaxed() const {
    return min_registration_inliers_ < options_.abs_pose_min_num_inliers;
  }
  // Extends the points of the image's tracks with observations of registered images and
  // triangulates its tracks without a point. Returns the ids of points created or extended.
  std::vector<int> TriangulateImage(int image_id);
  // Bundle adjustment of `image_id` and its local_ba_num_images strongest neighbours, then
  // filtering of the points it adjusted and re-triangulation of the adjusted images' tracks.
  void LocalAdjust(int image_id);
  // Bundle adjustment of the whole model, then filtering of every point and re-triangulation
  // of the touched tracks (RetriangulateTouched), or of every track when `retriangulate_all`.
  // Returns the observations removed by filtering plus those added (how much the model
  // changed).
  // While the model grows (until FinishGrowing), distortion is refined only with
  // options.refine_distortion_while_growing.
  int GlobalAdjust(int max_iterations, double function_tolerance,
                   BundleAdjustmentOptions::LossType loss, bool retriangulate_all);
  // The adjustment GlobalAdjust would run, of `copy` (a copy of this mapper's scene, as
  // aligned to the GPS now), without filtering or re-triangulation: to try a change of the
  // model before making it. The copy's points keep their ids.
  BundleAdjustmentSummary AdjustCopy(int max_iterations, double function_tolerance,
                                     BundleAdjustmentOptions::LossType loss, Scene* copy) const;
  // Every image is registered: adjustments from now on refine all the intrinsics.
  void FinishGrowing() { growing_ = false; }
  // Aligns the model to the scene's GPS priors when options.priors allow and enough registered
  // images have one (AlignSceneToPriors); a failed attempt keeps the previous alignment.
  // Global adjustments call it first and then keep the inlier priors as residuals.
  const PriorAlignment& AlignToPriors();
  // Triangulates or extends the tracks touched since the last call: those of images
  // registered since, and those whose point was deleted. Returns observations added.
  int RetriangulateTouched();
  // Triangulates or extends the given tracks. Returns observations added.
  int RetriangulateTracks(const std::vector<int>& track_ids);
  // FilterPoints (scene_geometry.h) on `point_ids` (all points when null), keeping the
  // bookkeeping in sync. Returns observations removed.
  int FilterPoints(const std::vector<int>* point_ids);

  // The reprojection threshold of triangulation, kept observations and filtering from now on
  // (options.max_reproj_error_px until set): the global mapper starts loose and tightens it.
  void SetMaxReprojErrorPx(double max_reproj_error_px);

  // Cameras whose principal point the adjustments refine from now on, besides all cameras
  // with principal_point kOn.
  void SetPrincipalPointCameras(std::set<int> camera_ids) { principal_point_cameras_ = std::move(camera_ids); }
  // Distortion held in every adjustment from now on (as options.hold_distortion): once the
  // GPS has set it (dome_correction.h), refining it again would bend the block back.
  void SetDistortionHeld(bool held) { distortion_held_ = held; }
  void RecordDomeCorrection(DomeCorrection dome) { summary_.dome = std::move(dome); }

  const TrackVisibility& visibility() const { return visibility_; }
  const TrackSet& tracks() const { return tracks_; }
  const MapperSummary& summary() const { return summary_; }
  size_t NumObservations() const;  // in the scene's points; O(points)

 private:
  // FindAndRegisterInitialPair's search among the images allowed_images marks (all when null):
  // over the pairs of keyframes, then over all pairs.
  bool TryInitialPairsOfKeyframesFirst(const std::vector<char>* allowed_images);
  // One search over the pairs of keyframes, or over all pairs; the registered pair's frames
  // become keyframes.
  bool TryInitialPairs(bool keyframes_only, const std::vector<char>* allowed_images);
  // Points of the track created or extended (kInvalidId if none); adds to *added the
  // observations added.
  int TriangulateOrExtend(int track_id, int* added);
  // The two halves of TriangulateOrExtend for a track without a point: its new point from the
  // registered cameras (reads the scene only, so tracks may be triangulated concurrently;
  // *all_keyframes: the track lies in keyframes only; `scratch` for its keyframe elements), then
  // that point added to the scene (and extended to the other frames' observations).
  std::optional<Point3D> TriangulateNewPoint(int track_id, std::vector<TrackElement>* scratch,
                                             bool* all_keyframes) const;
  int AddNewPoint(int track_id, const Point3D& point, bool all_keyframes, int* added);
  void OnPointsDeleted(const std::vector<int>& point_ids);
  void MarkImageTracksTouched(int image_id);
  BundleAdjustmentOptions BaOptions(int max_iterations) const;
  BundleAdjustmentOptions GlobalBaOptions(int max_iterations, double function_tolerance,
                                          BundleAdjustmentOptions::LossType loss) const;
  uint64_t NextSeed() { return options_.seed + 7919 * (seed_counter_++); }

  IncrementalMapperOptions options_;
  const TrackSet& tracks_;
  const std::vector<VerifiedPair>& pairs_;
  Scene& scene_;
  TrackVisibility visibility_;
  // Number of 2D-3D correspondences an image had at its last failed registration.
  std::vector<int> failed_at_;
  int min_registration_inliers_;  // abs_pose_min_num_inliers, or the stalled value while relaxed
  bool growing_ = true;           // until FinishGrowing
  std::vector<char> touched_;        // by track: to re-triangulate at the next global step
  std::vector<int> touched_tracks_;  // the tracks marked in touched_
  MapperSummary summary_;
  uint64_t seed_counter_ = 0;
  std::set<int> principal_point_cameras_;
  bool distortion_held_ = false;  // SetDistortionHeld
  std::vector<TrackElement> keyframe_track_;  // scratch of TriangulateOrExtend
  InitialPairAttempts initial_attempts_;      // of RegisterInitialPair, for InitialPairFailure
};


// The refinement both mappers end with: global adjustments, filtering and re-triangulation of
// every track until the model stops changing, then, with principal_point kAuto, the principal
// points of the cameras whose views constrain them (principal_point_rule.h).
void RefineFinalModel(const IncrementalMapperOptions& options, IncrementalMapper* mapper, Scene* scene);

// Final refinement, as COLMAP does: adjust, filter and re-triangulate every track until the
// model stops changing (fewer than final_ba_min_change of the observations) or after
// max_rounds, with a tight tolerance and the robust loss.
void RefineUntilStable(const IncrementalMapperOptions& options, int max_rounds, IncrementalMapper* mapper);

// Registers images one at a time (NextImages, RegisterImage, TriangulateImage, then a local
// adjustment, or a global one each time the model has grown by options.global_ba_growth),
// relaxing the registration threshold once when stalled, until no image can be added: the
// growth of RunIncrementalMapper after its initial pair, and the completion of a merged
// partitioned model. Returns the number of images registered.
int GrowModel(const IncrementalMapperOptions& options, IncrementalMapper* mapper, Scene* scene);

// The end of a model's growth: FinishGrowing, RefineFinalModel, the alignment to the GPS
// priors and the points' errors; the summary's step times are the mapper's, with the final
// refinement timed as a whole (final_ba).
MapperSummary FinishModel(const IncrementalMapperOptions& options, IncrementalMapper* mapper, Scene* scene);

// Points for a model whose cameras are placed but which has none (the global mapper's
// positioned cameras, the merged parts of a partitioned mapping): every track triangulated
// with a reprojection threshold of initial_factor x options.max_reproj_error_px, then rounds
// of global adjustment (Cauchy loss, re-triangulating every track), the threshold divided by
// factor_step after each (and the points beyond it filtered) until it reaches
// options.max_reproj_error_px. initial_factor >= 1, factor_step > 1.
void TriangulatePlacedCameras(const IncrementalMapperOptions& options, double initial_factor, double factor_step,
                              IncrementalMapper* mapper, Scene* scene);

}  // namespace proj
