// Bundle adjustment: joint non-linear least-squares refinement of camera poses, 3D points and
// intrinsics by minimising robustified reprojection errors (Triggs et al., "Bundle Adjustment
// - A Modern Synthesis", 1999), solved with Ceres' Levenberg-Marquardt and a Schur-complement
// linear solver, or with our own LM + Schur + PCG solver on the CPU or GPU (options.solver).
// Ceres is a private dependency: nothing of it appears here. The solvers live in
// sfm/ba/ceres_backend.h, schur_pcg_cpu.h and schur_pcg_gpu.h (on a problem packed by
// lm_pcg_packing.h); this file chooses one.
//
// Which parameters move is stated explicitly by a BundleAdjustmentConfig; ConfigForGlobal and
// ConfigForLocal build the two usual ones.
#pragma once

#include <map>
#include <set>
#include <string>

#include "cuda/ba/ba_types.h"
#include "sfm/scene/position_prior.h"
#include "sfm/scene/scene.h"

namespace proj {

struct BundleAdjustmentOptions {
  enum class LossType { kTrivial, kHuber, kCauchy };
  // Robust loss on the reprojection error; kTrivial is plain least squares.
  LossType loss = LossType::kCauchy;
  // Residual norm (pixels) at which the robust loss starts to down-weight; > 0.
  double loss_scale_px = 1.0;
  // Which intrinsics move (for cameras not listed as constant in the config). A camera whose
  // every parameter is excluded is held constant.
  bool refine_focal = true;
  bool refine_extra = true;             // distortion terms
  bool refine_principal_point = false;  // badly constrained; off as in COLMAP
  // With refine_principal_point: only these cameras' principal points move (empty: all).
  std::set<int> principal_point_camera_ids;
  int max_iterations = 100;             // Levenberg-Marquardt iterations; >= 1
  double function_tolerance = 1e-6;     // relative cost decrease to stop at; >= 0
  double gradient_tolerance = 1e-10;    // >= 0
  double parameter_tolerance = 1e-8;    // >= 0
  int num_threads = 0;                  // 0: all hardware threads; >= 0
  // Linear solver: DENSE_SCHUR when at most this many images have variable poses, else
  // SPARSE_SCHUR (ITERATIVE_SCHUR with a Schur-Jacobi preconditioner when Ceres was built
  // without a sparse library); >= 0.
  int dense_schur_max_images = 200;
  bool verbose = false;  // per-iteration progress and Ceres' full report to the log (kInfo)
  // Recompute Point3D::mean_error_px of the affected points afterwards: with a refined shared
  // camera that is every point of the model, so callers that update errors themselves at the
  // end (the incremental mapper) turn it off.
  bool update_point_errors = true;

  // Which solver runs. kCeres: Ceres' LM (the reference). kCpu / kGpu: our LM with Schur
  // complement and block-Jacobi PCG (sfm/ba/schur_pcg_cpu.h, sfm/ba/schur_pcg_gpu.h),
  // with the same residuals and priors as the Ceres path; both sum in a fixed order, so a
  // problem solved twice gives the same bits. kGpu runs on the CPU solver when no CUDA device
  // is usable (with a warning) or after a GPU failure. kAuto: kGpu when a device is usable and
  // the problem has at least gpu_min_observations observations, else kCpu.
  enum class Solver { kCeres, kCpu, kGpu, kAuto };
  Solver solver = Solver::kCeres;
  int gpu_min_observations = 0;  // kAuto's smallest GPU problem; >= 0
  // Our solver's conjugate gradients per LM step (ignored by Ceres): at most this many
  // iterations, stopping at |residual| <= pcg_relative_tolerance * |right-hand side| or when
  // the quadratic model stalls by pcg_eta (cuda::BaSolverOptions); with position priors only
  // the residual test (they hold the gauge softly, a mode that truncated steps stall on).
  // kCpu (and kGpu's CPU fallback): exact steps, the reduced camera system formed and solved
  // by dense Cholesky (cuda::BaSolverOptions::dense_schur), when at most this many images have
  // variable poses; PCG as the GPU solver above. 0: always PCG; >= 0.
  int cpu_dense_schur_max_images = 0;
  int max_pcg_iterations = 100;          // >= 1
  double pcg_relative_tolerance = 1e-6;  // in (0, 1)
  double pcg_eta = 0.1;                  // in [0, 1)

  void Check() const;  // throws InputError naming the offending field
};

// What the adjustment refines. Residuals are added for every observation (image i, point p)
// with i in variable_image_ids or constant_pose_image_ids and p in variable_point_ids or
// constant_point_ids; other observations are ignored. Listed images must be registered and
// listed points must exist. Intrinsics of cameras used by those images are refined as the
// options say unless listed in constant_camera_ids.
struct BundleAdjustmentConfig {
  std::set<int> variable_image_ids;       // poses refined
  std::set<int> constant_pose_image_ids;  // observations used, poses held constant
  std::set<int> variable_point_ids;
  std::set<int> constant_point_ids;
  std::set<int> constant_camera_ids;  // intrinsics held constant
  // Removes the 7-dof similarity gauge freedom unless the constant parameters already do
  // (two or more constant-pose images, or three or more constant points observed in the
  // adjusted images; then nothing is added). With no constant-pose image, the first variable
  // image (lowest id) gets a constant pose and the second one translation coordinate constant
  // (the one most aligned with the baseline, which fixes the scale); with exactly one
  // constant-pose image, the first variable image gets that coordinate constant.
  bool fix_gauge = true;
  // Position priors (GPS) on camera centres, by image id, in the scene's world frame: a
  // residual (C - prior) / sigma per prior of a variable image (others are ignored). Priors on
  // three or more variable images whose positions are not collinear fix the gauge themselves:
  // fix_gauge then adds nothing. Every solver has these residuals (no robust loss on them).
  std::map<int, PositionPrior> position_priors;
  // Priors on 3D points, by point id, in the scene's world frame (ground control points held to
  // their surveyed positions): a residual (X - prior) / sigma per prior of a variable point
  // (others are ignored), no robust loss, in every solver as position priors. They do not count
  // for fix_gauge: a caller whose point priors hold the gauge turns fix_gauge off.
  std::map<int, PositionPrior> point_priors;
  // Priors on focal lengths, by camera id: a residual (f - focal_px) / sigma_px per focal
  // parameter of a refined camera (others are ignored), in every solver as position priors.
  struct FocalPrior {
    double focal_px = 0;
    double sigma_px = 1;  // > 0
  };
  std::map<int, FocalPrior> focal_priors;
};

struct BundleAdjustmentSummary {
  bool success = false;  // a usable solution (converged or hit max_iterations)
  int num_iterations = 0;
  int num_observations = 0;  // residual blocks (2 residuals each)
  int num_variable_images = 0;
  int num_variable_points = 0;
  int num_skipped_observations = 0;  // points behind the camera at the start: not added
  int num_position_priors = 0;       // prior residual blocks (3 residuals each)
  int num_point_priors = 0;          // likewise
  double initial_cost = 0;           // 0.5 * sum of robustified squared errors (Ceres' cost)
  double final_cost = 0;
  double initial_rms_px = 0;  // RMS (non-robust) reprojection error over the residuals
  double final_rms_px = 0;
  double time_s = 0;
  std::string message;  // the solver's termination message
  std::string solver;   // which solver ran: "ceres", "lm-pcg-cpu" or "lm-pcg-gpu"
};

// Refines `scene` in place as `config` says. Throws InputError for invalid options or a config
// naming unregistered images or missing points. Afterwards (options.update_point_errors)
// Point3D::mean_error_px is recomputed for every point whose position, observing pose or camera
// may have changed. A config with no observation returns success with zero iterations. Not
// thread-safe for a shared scene; Ceres and our CPU solver use options.num_threads threads.
BundleAdjustmentSummary RunBundleAdjustment(const BundleAdjustmentOptions& options,
                                            const BundleAdjustmentConfig& config, Scene* scene);

// The plain-array problem (and solver options) that solver kCpu or kGpu would solve for this
// scene and config, with the same observations, gauge, constant parameters and priors: for
// benchmarks and tests that call the solvers directly. Throws as RunBundleAdjustment.
cuda::BaProblem MakeBaProblem(const BundleAdjustmentOptions& options,
                              const BundleAdjustmentConfig& config, const Scene& scene,
                              cuda::BaSolverOptions* solver_options);

// All registered images variable; all points with at least two observations in registered
// images variable; fix_gauge on.
BundleAdjustmentConfig ConfigForGlobal(const Scene& scene);

// Local adjustment around the newly registered `image_id`: that image and the (at most)
// `max_neighbour_images` registered images sharing the most points with it are variable (ties
// broken by lower id), all points they observe are variable, and every other registered image
// observing those points has a constant pose. Intrinsics stay variable (add cameras to
// constant_camera_ids to freeze them); fix_gauge on. Throws InputError if the image is not
// registered.
BundleAdjustmentConfig ConfigForLocal(const Scene& scene, int image_id, int max_neighbour_images);

// Mean reprojection error (pixels) of a point over the observations in registered images that
// project in front of the camera; +infinity if there is none.
double PointMeanReprojectionError(const Scene& scene, int point_id);

}  // namespace proj
