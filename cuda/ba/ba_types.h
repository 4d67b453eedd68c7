// A bundle adjustment problem in plain arrays, and the options and summary of our own
// Levenberg-Marquardt solver, shared by its CPU (sfm/ba/schur_pcg_cpu.h) and GPU
// (cuda/ba/bundle_adjuster_gpu.h) implementations. Plain data only, so the CUDA side takes it
// without depending on sfm/; the host algorithms on it live in sfm/ba/ba_problem.h.
// Host-only header.
//
// Residual of observation o (image i, point p, camera c of image i), in pixels:
//   ProjectPoint<Model_c>(camera_params_c, R_i * X_p + t_i) - observed_o
// with (R_i, t_i) = cam_from_world of image i and the camera models of
// geometry/camera/camera_models.h. Cost: 0.5 * sum_o rho(|residual_o|^2), rho as Ceres' loss of
// the same name and scale (see BaLoss), so costs compare one to one with the Ceres path.
// Optional prior terms add 0.5 |residual|^2 each (no robust loss), as the Ceres path's:
//  - position prior on image i: W_i (C_i - c_i), C_i = -R_i^T t_i its camera centre (3 values);
//  - camera parameter prior on parameter k of camera c: w_ck (params_ck - m_ck);
//  - point prior j on point p_j (a ground control point): W_j (X_pj - x_j) (3 values).
//
// Local parametrisation (the tangent space the solver steps in):
//  - pose: 6 values (w, dt): R <- exp([w]x) R (left-multiplied rotation vector, radians),
//    t <- t + dt. The update of a point in the camera frame is then w x (R X) + dt, a clean
//    Jacobian -[R X]x | I.
//  - camera: kBaMaxCameraParams values, added to the parameters (unused tail stays 0).
//  - point: 3 values, added.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace proj::cuda {

constexpr int kBaMaxCameraParams = 5;  // stride of camera parameters (RADIAL has 5)
constexpr int kBaPoseStride = 7;       // qx, qy, qz, qw (Eigen storage order), tx, ty, tz
constexpr int kBaPoseDof = 6;          // tangent: rotation vector, translation
constexpr uint8_t kBaConstantPose = 0x3f;

// Robust loss rho(s) of the squared residual norm s, with b = scale^2 (Ceres' definitions):
// trivial s; Huber s if s <= b else 2 sqrt(b s) - b; Cauchy b log(1 + s / b).
enum class BaLoss { kTrivial = 0, kHuber = 1, kCauchy = 2 };

struct BaProblem {
  // Cameras (intrinsics). camera_models[c] is a CameraModelId as int; camera_params holds
  // kBaMaxCameraParams doubles per camera (model layout, unused tail 0). Bit k of
  // camera_constant_mask[c] holds parameter k constant (bits of unused parameters are ignored).
  std::vector<int> camera_models;
  std::vector<double> camera_params;
  std::vector<uint8_t> camera_constant_mask;
  // Images. image_cameras[i] indexes the cameras; poses holds kBaPoseStride doubles per image
  // (cam_from_world, unit quaternion); bit k of pose_constant_mask[i] holds tangent coordinate k
  // constant (0-2 rotation, 3-5 translation; kBaConstantPose: the whole pose).
  std::vector<int> image_cameras;
  std::vector<double> poses;
  std::vector<uint8_t> pose_constant_mask;
  // Points in the world frame, 3 doubles each; point_constant[p] != 0 holds point p constant.
  std::vector<double> points;
  std::vector<uint8_t> point_constant;
  // Observations: image and point index, observed pixel (x, y).
  std::vector<int> observation_images;
  std::vector<int> observation_points;
  std::vector<double> observations_px;
  // Position priors (empty: none; else num_images entries each): prior centre c_i, 3 doubles
  // per image, and W_i, 9 doubles per image (row-major 3 x 3: the square root of the prior's
  // information matrix, diag(1 / sigma) for per-axis sigmas; all zero: no prior on image i).
  std::vector<double> position_prior_centers;
  std::vector<double> position_prior_weights;
  // Camera parameter priors (empty: none; else kBaMaxCameraParams per camera each): mean m_ck
  // and weight w_ck (1 / sigma; 0: no prior on that parameter).
  std::vector<double> camera_prior_means;
  std::vector<double> camera_prior_weights;
  // Point priors, a few points of many (ground control points): point index p_j (each point
  // at most once), prior position x_j (3 doubles) and W_j (9 doubles, as position priors').
  std::vector<int> point_prior_points;
  std::vector<double> point_prior_positions;
  std::vector<double> point_prior_weights;

  int num_cameras() const { return static_cast<int>(camera_models.size()); }
  int num_images() const { return static_cast<int>(image_cameras.size()); }
  int num_points() const { return static_cast<int>(point_constant.size()); }
  int num_observations() const { return static_cast<int>(observation_images.size()); }
  bool has_position_priors() const { return !position_prior_weights.empty(); }
  bool has_camera_priors() const { return !camera_prior_weights.empty(); }
  int num_point_priors() const { return static_cast<int>(point_prior_points.size()); }
  // Throws InputError for inconsistent sizes, out-of-range indices, unknown camera models,
  // non-finite prior values or a point with two priors.
  void Check() const;
};

struct BaSolverOptions {
  BaLoss loss = BaLoss::kTrivial;
  double loss_scale_px = 1.0;        // > 0
  int max_iterations = 100;          // LM iterations (accepted and rejected steps); >= 1
  double function_tolerance = 1e-6;  // stop when |cost change| <= this * cost; >= 0
  double gradient_tolerance = 1e-10; // stop when max |gradient| <= this; >= 0
  double parameter_tolerance = 1e-8; // stop when |step| <= this * (|x| + this); >= 0
  double initial_trust_region_radius = 1e4;  // Ceres' default; > 0
  // Preconditioned conjugate gradients on the reduced camera system: at most this many
  // iterations, stopping once |residual| <= pcg_relative_tolerance * |right-hand side| or
  // once the quadratic model stalls, i (Q_i - Q_i-1) / Q_i < pcg_eta (truncated Newton, Nash
  // and Sofer 1990; Ceres' ITERATIVE_SCHUR uses eta = 0.1).
  int max_pcg_iterations = 100;         // >= 1
  double pcg_relative_tolerance = 1e-6; // in (0, 1)
  double pcg_eta = 0.1;                 // in [0, 1); 0: residual test only
  int num_threads = 0;  // CPU solver only; 0: all hardware threads
  // CPU solver only: each step solves the reduced camera system exactly, formed explicitly
  // and factored by dense Cholesky (Ceres' DENSE_SCHUR), instead of by PCG (the GPU
  // solver's algorithm). For problems of a few hundred camera unknowns forming it costs about
  // what one PCG product does; the PCG settings are then unused.
  bool dense_schur = false;
  bool verbose = false; // per-iteration progress to the log (kInfo)

  void Check() const;  // throws InputError naming the field
};

struct BaSolverSummary {
  bool success = false;  // a usable solution (converged or hit max_iterations)
  int num_iterations = 0;
  int num_successful_steps = 0;
  int num_pcg_iterations = 0;  // over all steps
  double initial_cost = 0;     // 0.5 * sum of robustified squared errors
  double final_cost = 0;
  double time_s = 0;  // wall time of the solve (GPU: includes uploads and downloads)
  std::string message;
};

// The problem's observations regrouped for the solvers: observations in image order (stable)
// and, for each point, the positions in that order of its observations (CSR). Made by
// MakeBaLayout (sfm/ba/ba_problem.h).
struct BaLayout {
  std::vector<int> order;              // observation index, sorted by image
  std::vector<int> point_offsets;      // num_points + 1
  std::vector<int> point_positions;    // positions in `order`, grouped by point
  std::vector<int> image_offsets;      // num_images + 1 (positions in `order`)
};

// The GPU solver's reduction layout (cuda/ba/ba_kernels.cuh): the positions of BaLayout::order
// cut into chunks of at most kBaChunkSize positions of one image, and for each image and each
// camera the chunks whose partial sums add up to its own.
constexpr int kBaChunkSize = 128;
struct BaChunks {
  std::vector<int> starts;           // num_chunks + 1 positions; a chunk lies in one image
  std::vector<int> segment_offsets;  // num_images + num_cameras + 1, into segment_chunks
  std::vector<int> segment_chunks;   // each image's chunks, then each camera's, in chunk order
  int num_chunks() const { return static_cast<int>(starts.size()) - 1; }
};
BaChunks MakeBaChunks(const BaProblem& problem, const BaLayout& layout);

}  // namespace proj::cuda
