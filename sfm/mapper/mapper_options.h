// Options of the incremental mapper. Thresholds follow COLMAP's defaults unless noted.
#pragma once

#include <cstdint>

#include "sfm/mapper/gps_dome.h"
#include "sfm/mapper/prior_alignment.h"
#include "sfm/mapper/track_triangulation.h"
#include "sfm/mapper/view_graph_calibration.h"
#include "sfm/ba/bundle_adjuster.h"

namespace proj {

struct IncrementalMapperOptions {
  // Before the initial pair: focal lengths of cameras without EXIF from the view graph
  // (view_graph_calibration.h; the global mapper's step 0 reads these options too).
  ViewGraphCalibrationOptions calibration;

  // Initial pair.
  int init_min_num_points = 100;          // triangulated points the initial pair must give
  double init_min_tri_angle_deg = 16.0;   // median triangulation angle wanted; relaxed in steps
                                          // down to init_lowest_tri_angle_deg if no pair has it
  double init_lowest_tri_angle_deg = 1.0;
  int init_max_candidates = 40;           // best-scored verified pairs tried per round
                                          // (initial_pair.h: inliers x parallax)

  // Registration of the next image (absolute pose).
  double abs_pose_max_error_px = 12.0;    // RANSAC inlier threshold
  int abs_pose_min_num_inliers = 30;
  // When no image has abs_pose_min_num_inliers points to register from, one more attempt with
  // this many (points and inliers), then the strict count again after the next registration:
  // a sharp turn in a video can leave the next frame with a few dozen surviving tracks.
  int abs_pose_stalled_min_num_inliers = 15;
  double abs_pose_min_inlier_ratio = 0.25;

  // Triangulation and filtering.
  double max_reproj_error_px = 4.0;       // for new points, kept observations and filtering
  double min_tri_angle_deg = 1.5;         // for new points and filtering

  // Bundle adjustment schedule.
  int local_ba_num_images = 6;            // images optimised around a newly registered one
  // Constant-pose images whose observations the local adjustment uses, those sharing the most
  // points with it (LimitConstantPoseImages): bounds its size when tracks are long.
  int local_ba_max_constant_images = 12;
  double global_ba_growth = 1.10;         // global BA when registered images grew by 10%
  int global_ba_always_below = 8;         // and after every image while the model is small
  int local_ba_max_iterations = 25;
  // Lens distortion refined while the model grows (local adjustments then also refine the
  // focal length); false holds it until the final adjustment (RefineFinalModel). Refined at
  // every step, a nadir survey's k1 trades against a bowl of the whole block (photogrammetry's
  // "doming"): each adjustment of the growing model moves along that nearly flat valley and
  // the final one does not climb back. 500-image synthetic flight (no distortion,
  // SIMPLE_RADIAL, H200): median position error 105 mm refined while growing, 7.3 mm held
  // (PINHOLE: 7.4 mm); bench/RESULTS-mapping.md.
  bool refine_distortion_while_growing = false;
  // Distortion held in every adjustment, the final ones too: the parts of a partitioned
  // mapping (sfm/stages/partitioned_mapping.h), whose merged model refines it over all images
  // at the end as a single run does. A part refining it alone bends to its own k1, and the
  // merged parts keep the bends (1,000-image flight in 4 parts: 24.9 mm median against 8.5 mm
  // for one run).
  bool hold_distortion = false;
  // How a track's point is made when some of its observations disagree (track_triangulation.h):
  // the merged parts of a partitioned mapping, triangulated whole, take the largest agreeing
  // subset; the incremental mapper meets a track a few images at a time and drops the worst
  // (there the largest subset made the 200-image synthetic flight more accurate, 32.1 -> 22.0
  // mm, but real photos less: entry-P10 8.09 -> 8.50 mm, castle-P19 31.9 -> 32.4 mm, and
  // with the global mapper 8.24 -> 8.83 and 29.9 -> 32.8 mm).
  TrackTriangulation track_triangulation = TrackTriangulation::kDropWorst;
  // After the final refinement, a georeferenced block whose GPS fixes show a dome gets the k1
  // that flattens it, held from then on (dome_correction.h). Held while growing, a lens with
  // distortion (k1 = -0.05) bent a 200-image synthetic flight by metres: 1.6 m median error.
  bool correct_dome = true;
  DomeCorrectionOptions dome;
  int global_ba_max_iterations = 50;
  int final_ba_max_rounds = 3;            // final adjust-filter-retriangulate rounds
  // The rounds stop once one changed (filtered or re-triangulated) fewer than this fraction of
  // the observations. A few tenths of a percent of them flip between rounds without end
  // (fountain-P11: ~190 of 54,000 in every round), so 0.1% ran every round; from 0.5% on,
  // fountain stops after 2 rounds and 1 with the principal point (castle-P19 still runs 3).
  double final_ba_min_change = 0.005;
  // Relative cost decrease at which the final adjustments stop: their last iterations at 1e-6
  // gained < 0.01% of the cost and moved no Strecha figure (bench/RESULTS-mapping.md).
  double final_ba_function_tolerance = 1e-5;
  // Principal point in bundle adjustment: kOff keeps it at the image centre, kOn refines it
  // from the start, kAuto refines it after the model is built for the cameras whose views
  // constrain it and keeps the result only when plausible (principal_point_rule.h).
  enum class PrincipalPoint { kOff, kOn, kAuto };
  PrincipalPoint principal_point = PrincipalPoint::kAuto;
  // kAuto: final rounds run again (until stable, at most this many), from the finished model,
  // with the principal points refined.
  int principal_point_max_rounds = 3;
  // Solver of the global and of the local adjustments: kCeres, kCpu (our LM with implicit
  // Schur and PCG, sfm/ba/schur_pcg_cpu.h, deterministic for any thread count, with the prior
  // terms of Ceres' path), or kAuto: our GPU LM-PCG solver when a CUDA device is usable and
  // the adjustment has at least BundleAdjustmentOptions::gpu_min_observations observations,
  // our CPU solver otherwise. The run sets kAuto when its device is a GPU (--ba-solver,
  // sfm/stages/reconstruction_options.h). On fountain-P11's final adjustment it reaches Ceres' cost
  // (relative difference 2e-9) in less than half the time (bench/ba_bench --model);
  // the local adjustments of a 60-image ring (~65,000 observations, 2 LM iterations each) take
  // half the CPU time of Ceres' and give the same model (bench/RESULTS-mapping.md).
  BundleAdjustmentOptions::Solver global_ba_solver = BundleAdjustmentOptions::Solver::kCpu;
  BundleAdjustmentOptions::Solver local_ba_solver = BundleAdjustmentOptions::Solver::kCpu;
  // kCpu adjustments with at most this many variable images take exact steps (the reduced
  // camera system formed and factored, BundleAdjustmentOptions::cpu_dense_schur_max_images):
  // fountain-P11's adjustments then take 2.4x less CPU time than with PCG, in fewer
  // iterations. 0: always PCG.
  int cpu_dense_schur_max_images = 100;

  // Georeferencing by the scene's GPS priors (prior_alignment.h): alignment before each global
  // adjustment, priors as residuals in it, a last alignment at the end.
  PriorAlignmentOptions priors;

  int num_threads = 0;
  uint64_t seed = 0;                      // RANSAC seeds derive from it

  void Check() const;
};

}  // namespace proj
