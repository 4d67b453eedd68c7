#include "sfm/ba/schur_pcg_cpu.h"

#include <algorithm>
#include <cstdint>
#include <cmath>
#include <numeric>
#include <vector>

#include <Eigen/Cholesky>
#include <Eigen/Core>

#include "core/check.h"
#include "core/parallel_for.h"
#include "core/timer.h"
#include "cuda/ba/ba_block_math.h"
#include "cuda/ba/ba_prior.h"
#include "cuda/ba/ba_residual.h"
#include "sfm/ba/ba_problem.h"
#include "sfm/ba/lm_solver.h"

namespace proj {
namespace {

using cuda::AddXtv;
using cuda::AddXtY;
using cuda::AddXv;
using cuda::BaLayout;
using cuda::BaObservationLinearization;
using cuda::BaPositionPriorLinearization;
using cuda::BaProblem;
using cuda::BaSolverOptions;
using cuda::BaStep;
using cuda::kBaMaxCameraParams;
using cuda::kBaPoseDof;
using cuda::kBaPoseStride;
using cuda::MatVec;
using cuda::SubtractSchurBlock;

constexpr int kPose = kBaPoseDof;
constexpr int kCam = kBaMaxCameraParams;

double Dot(const std::vector<double>& a, const std::vector<double>& b) {
  return std::inner_product(a.begin(), a.end(), b.begin(), 0.0);
}

class CpuBackend : public cuda::BaBackend {
 public:
  CpuBackend(const BaSolverOptions& options, BaProblem* problem)
      : options_(options),
        problem_(*problem),
        layout_(MakeBaLayout(*problem)),
        threads_(ResolveNumThreads(options.num_threads)),
        num_images_(problem->num_images()),
        num_cameras_(problem->num_cameras()),
        num_points_(problem->num_points()),
        camera_offset_(kPose * num_images_),
        nc_(camera_offset_ + kCam * num_cameras_) {
    const int num_observations = problem->num_observations();
    linearization_.resize(num_observations);
    u_.resize(2 * num_observations);
    gradient_c_.resize(nc_);
    gradient_p_.resize(3 * num_points_);
    hessian_pose_.resize(kPose * kPose * num_images_);
    hessian_camera_.resize(kCam * kCam * num_cameras_);
    hessian_point_.resize(9 * num_points_);
    point_inverse_.resize(9 * num_points_);
    preconditioner_pose_.resize(kPose * kPose * num_images_);
    preconditioner_camera_.resize(kCam * kCam * num_cameras_);
    damping_c_.resize(nc_);
    damping_p_.resize(3 * num_points_);
    y_p_.resize(3 * num_points_);
    t_p_.resize(3 * num_points_);
    delta_c_.resize(nc_);
    delta_p_.resize(3 * num_points_);
    scratch_.resize(static_cast<size_t>(num_images_) * kCam * kCam);
    if (problem->has_position_priors()) {
      for (int image = 0; image < num_images_; ++image) {
        const double* w = &problem->position_prior_weights[9 * image];
        if (std::any_of(w, w + 9, [](double v) { return v != 0; })) prior_images_.push_back(image);
      }
    }
    prior_linearization_.resize(prior_images_.size());
    if (options.dense_schur) {
      schur_.resize(static_cast<size_t>(nc_) * nc_);
      schur_parts_.resize(static_cast<size_t>(kSchurParts) * nc_ * nc_);
      position_images_.resize(num_observations);
      for (int image = 0; image < num_images_; ++image) {
        std::fill(position_images_.begin() + layout_.image_offsets[image],
                  position_images_.begin() + layout_.image_offsets[image + 1], image);
      }
    }
    if (problem->has_camera_priors()) {
      for (int k = 0; k < kCam * num_cameras_; ++k) {
        if (problem->camera_prior_weights[k] != 0) prior_camera_params_.push_back(k);
      }
    }
  }

  bool Linearize(double* cost, double* gradient_max_norm) override {
    std::vector<double> image_cost(num_images_, 0.0);
    std::vector<char> image_valid(num_images_, 1);
    std::fill(gradient_c_.begin(), gradient_c_.end(), 0.0);
    std::fill(hessian_pose_.begin(), hessian_pose_.end(), 0.0);
    std::vector<double> camera_partial(static_cast<size_t>(num_images_) * (kCam + kCam * kCam));
    ForImages([&](int image, int camera, int begin, int end) {
      double* partial = &camera_partial[static_cast<size_t>(image) * (kCam + kCam * kCam)];
      for (int position = begin; position < end; ++position) {
        const int o = layout_.order[position];
        const int point = problem_.observation_points[o];
        BaObservationLinearization& l = linearization_[position];
        double c = 0;
        if (!cuda::LinearizeObservation(
                problem_.camera_models[camera], &problem_.camera_params[camera * kCam],
                problem_.camera_constant_mask[camera], &problem_.poses[image * kBaPoseStride],
                problem_.pose_constant_mask[image], &problem_.points[point * 3],
                problem_.point_constant[point] != 0, &problem_.observations_px[o * 2],
                options_.loss, options_.loss_scale_px, &l, &c)) {
          image_valid[image] = 0;
          return;
        }
        image_cost[image] += c;
        AddXtv<kPose>(l.jac_pose, l.residual, &gradient_c_[kPose * image]);
        AddXtY<kPose, kPose>(l.jac_pose, l.jac_pose, 1.0, &hessian_pose_[kPose * kPose * image]);
        AddXtv<kCam>(l.jac_camera, l.residual, partial);
        AddXtY<kCam, kCam>(l.jac_camera, l.jac_camera, 1.0, partial + kCam);
      }
    });
    if (std::find(image_valid.begin(), image_valid.end(), 0) != image_valid.end()) return false;
    *cost = std::accumulate(image_cost.begin(), image_cost.end(), 0.0);
    std::vector<double> camera_sums(static_cast<size_t>(num_cameras_) * (kCam + kCam * kCam));
    SumPerCamera(camera_partial, kCam + kCam * kCam, &camera_sums);
    for (int camera = 0; camera < num_cameras_; ++camera) {
      const double* sums = &camera_sums[static_cast<size_t>(camera) * (kCam + kCam * kCam)];
      std::copy(sums, sums + kCam, &gradient_c_[camera_offset_ + kCam * camera]);
      std::copy(sums + kCam, sums + kCam + kCam * kCam, &hessian_camera_[kCam * kCam * camera]);
    }
    *cost += LinearizePriors();
    ForPoints([&](int point, int begin, int end) {
      double* g = &gradient_p_[3 * point];
      double* w = &hessian_point_[9 * point];
      std::fill(g, g + 3, 0.0);
      std::fill(w, w + 9, 0.0);
      for (int k = begin; k < end; ++k) {
        const BaObservationLinearization& l = linearization_[layout_.point_positions[k]];
        AddXtv<3>(l.jac_point, l.residual, g);
        AddXtY<3, 3>(l.jac_point, l.jac_point, 1.0, w);
      }
    });
    *cost += LinearizePointPriors();
    double max_norm = 0;
    for (double g : gradient_c_) max_norm = std::max(max_norm, std::abs(g));
    for (double g : gradient_p_) max_norm = std::max(max_norm, std::abs(g));
    *gradient_max_norm = max_norm;
    return true;
  }

  BaStep ComputeStep(double mu) override {
    BaStep step;
    for (int image = 0; image < num_images_; ++image) {
      for (int k = 0; k < kPose; ++k) {
        damping_c_[kPose * image + k] =
            cuda::LmDamping(hessian_pose_[kPose * kPose * image + k * kPose + k], mu);
      }
    }
    for (int camera = 0; camera < num_cameras_; ++camera) {
      for (int k = 0; k < kCam; ++k) {
        damping_c_[camera_offset_ + kCam * camera + k] =
            cuda::LmDamping(hessian_camera_[kCam * kCam * camera + k * kCam + k], mu);
      }
    }
    // Point blocks: A_pp = W_p + D_p, inverted; y_p = A_pp^-1 g_p.
    std::vector<char> point_valid(num_points_, 1);
    ForPoints([&](int point, int, int) {
      double* a = &point_inverse_[9 * point];
      std::copy(&hessian_point_[9 * point], &hessian_point_[9 * point] + 9, a);
      for (int k = 0; k < 3; ++k) {
        damping_p_[3 * point + k] = cuda::LmDamping(a[4 * k], mu);
        a[4 * k] += damping_p_[3 * point + k];
      }
      if (!cuda::InvertSymmetricPositive<3>(a)) point_valid[point] = 0;
      MatVec(a, &gradient_p_[3 * point], 3, &y_p_[3 * point]);
    });
    if (std::find(point_valid.begin(), point_valid.end(), 0) != point_valid.end()) return step;

    // Right-hand side b = -g_c + J_c^T J_p y and the block-Jacobi preconditioner of S.
    std::vector<double> b(nc_);
    for (int k = 0; k < nc_; ++k) b[k] = -gradient_c_[k];
    std::fill(scratch_.begin(), scratch_.end(), 0.0);
    std::vector<double> camera_rhs(static_cast<size_t>(num_images_) * kCam, 0.0);
    ForImages([&](int image, int, int begin, int end) {
      double* m = &preconditioner_pose_[kPose * kPose * image];
      std::copy(&hessian_pose_[kPose * kPose * image],
                &hessian_pose_[kPose * kPose * (image + 1)], m);
      for (int k = 0; k < kPose; ++k) m[k * kPose + k] += damping_c_[kPose * image + k];
      double* camera_block = &scratch_[static_cast<size_t>(image) * kCam * kCam];
      for (int position = begin; position < end; ++position) {
        const BaObservationLinearization& l = linearization_[position];
        const int point = problem_.observation_points[layout_.order[position]];
        double v[2] = {0, 0};
        AddXv<3>(l.jac_point, &y_p_[3 * point], v);
        AddXtv<kPose>(l.jac_pose, v, &b[kPose * image]);
        AddXtv<kCam>(l.jac_camera, v, &camera_rhs[kCam * image]);
        if (options_.dense_schur) continue;
        SubtractSchurBlock<kPose>(l.jac_pose, l.jac_point, &point_inverse_[9 * point], m);
        SubtractSchurBlock<kCam>(l.jac_camera, l.jac_point, &point_inverse_[9 * point],
                                 camera_block);
      }
      if (!options_.dense_schur) cuda::InvertPreconditionerBlock<kPose>(m);
    });
    std::vector<double> camera_sums(static_cast<size_t>(num_cameras_) * kCam);
    SumPerCamera(camera_rhs, kCam, &camera_sums);
    for (int k = 0; k < kCam * num_cameras_; ++k) b[camera_offset_ + k] += camera_sums[k];
    if (options_.dense_schur) {
      if (!SolveDense(b, &delta_c_)) return step;
    } else {
      BuildCameraPreconditioner();
      step.pcg_iterations = SolvePcg(b, &delta_c_);
    }
    MaskConstantCameraSide(&delta_c_);

    // Back-substitution: dp = -A_pp^-1 (g_p + J_p^T J_c dc).
    ComputeJcV(delta_c_);
    ForPoints([&](int point, int begin, int end) {
      double s[3] = {gradient_p_[3 * point], gradient_p_[3 * point + 1], gradient_p_[3 * point + 2]};
      for (int k = begin; k < end; ++k) {
        const int position = layout_.point_positions[k];
        AddXtv<3>(linearization_[position].jac_point, &u_[2 * position], s);
      }
      MatVec(&point_inverse_[9 * point], s, 3, &delta_p_[3 * point]);
      for (int k = 0; k < 3; ++k) delta_p_[3 * point + k] = -delta_p_[3 * point + k];
    });
    // Model decrease: -(r . e + e . e / 2) with e = J_c dc + J_p dp.
    std::vector<double> image_change(num_images_, 0.0);
    ForImages([&](int image, int, int begin, int end) {
      for (int position = begin; position < end; ++position) {
        const BaObservationLinearization& l = linearization_[position];
        const int point = problem_.observation_points[layout_.order[position]];
        double e[2] = {u_[2 * position], u_[2 * position + 1]};
        AddXv<3>(l.jac_point, &delta_p_[3 * point], e);
        image_change[image] -= l.residual[0] * e[0] + l.residual[1] * e[1] +
                               0.5 * (e[0] * e[0] + e[1] * e[1]);
      }
    });
    step.model_cost_change = std::accumulate(image_change.begin(), image_change.end(), 0.0) +
                             PriorModelChange(delta_c_) + PointPriorModelChange(delta_p_);
    step.step_norm = std::sqrt(Dot(delta_c_, delta_c_) + Dot(delta_p_, delta_p_));
    step.valid = std::isfinite(step.step_norm) && std::isfinite(step.model_cost_change);
    return step;
  }

  bool EvaluateCandidate(double* cost) override {
    candidate_poses_.resize(problem_.poses.size());
    candidate_params_.resize(problem_.camera_params.size());
    candidate_points_.resize(problem_.points.size());
    for (int image = 0; image < num_images_; ++image) {
      cuda::UpdatePose(&problem_.poses[kBaPoseStride * image], &delta_c_[kPose * image],
                       &candidate_poses_[kBaPoseStride * image]);
    }
    for (int k = 0; k < kCam * num_cameras_; ++k) {
      candidate_params_[k] = problem_.camera_params[k] + delta_c_[camera_offset_ + k];
    }
    for (int k = 0; k < 3 * num_points_; ++k) candidate_points_[k] = problem_.points[k] + delta_p_[k];
    std::vector<double> image_cost(num_images_, 0.0);
    std::vector<char> image_valid(num_images_, 1);
    ForImages([&](int image, int camera, int begin, int end) {
      for (int position = begin; position < end; ++position) {
        const int o = layout_.order[position];
        double c = 0;
        if (!cuda::ObservationCost(problem_.camera_models[camera], &candidate_params_[kCam * camera],
                                   &candidate_poses_[kBaPoseStride * image],
                                   &candidate_points_[3 * problem_.observation_points[o]],
                                   &problem_.observations_px[2 * o], options_.loss,
                                   options_.loss_scale_px, &c)) {
          image_valid[image] = 0;
          return;
        }
        image_cost[image] += c;
      }
    });
    if (std::find(image_valid.begin(), image_valid.end(), 0) != image_valid.end()) return false;
    *cost = std::accumulate(image_cost.begin(), image_cost.end(), 0.0) +
            PriorCost(problem_, candidate_poses_.data(), candidate_params_.data(),
                      candidate_points_.data());
    return true;
  }

  void AcceptCandidate() override {
    problem_.poses.swap(candidate_poses_);
    problem_.camera_params.swap(candidate_params_);
    problem_.points.swap(candidate_points_);
  }

  double ParameterNorm() override {
    return std::sqrt(Dot(problem_.poses, problem_.poses) +
                     Dot(problem_.camera_params, problem_.camera_params) +
                     Dot(problem_.points, problem_.points));
  }

 private:
  // Residual of the prior on camera_params[k] at the current parameters.
  double CameraPriorResidual(int k) const {
    return cuda::CameraPriorResidual(problem_.camera_params[k], problem_.camera_prior_means[k],
                                     problem_.camera_prior_weights[k]);
  }
  // Its Jacobian (0 when the parameter is constant).
  double CameraPriorJacobian(int k) const {
    return cuda::CameraPriorJacobian(problem_.camera_constant_mask[k / kCam], k % kCam,
                                     problem_.camera_prior_weights[k]);
  }
  // Adds the priors' gradient and J^T J blocks (and keeps their linearisation for the Schur
  // products); returns their cost.
  double LinearizePriors() {
    double cost = 0;
    for (size_t j = 0; j < prior_images_.size(); ++j) {
      const int image = prior_images_[j];
      cuda::LinearizePositionPrior(&problem_.poses[kBaPoseStride * image],
                                   problem_.pose_constant_mask[image],
                                   &problem_.position_prior_centers[3 * image],
                                   &problem_.position_prior_weights[9 * image],
                                   &prior_linearization_[j]);
      const double* r = prior_linearization_[j].residual;
      cost += 0.5 * (r[0] * r[0] + r[1] * r[1] + r[2] * r[2]);
      cuda::AddPositionPriorNormalEquations(prior_linearization_[j], &gradient_c_[kPose * image],
                                            &hessian_pose_[kPose * kPose * image]);
    }
    for (int k : prior_camera_params_) {
      const double residual = CameraPriorResidual(k), jacobian = CameraPriorJacobian(k);
      cost += 0.5 * residual * residual;
      gradient_c_[camera_offset_ + k] += jacobian * residual;
      hessian_camera_[kCam * kCam * (k / kCam) + (k % kCam) * (kCam + 1)] += jacobian * jacobian;
    }
    return cost;
  }
  // The priors' part of the model decrease for the camera-side step.
  double PriorModelChange(const std::vector<double>& delta) const {
    double change = 0;
    for (size_t j = 0; j < prior_images_.size(); ++j) {
      change += cuda::PositionPriorModelChange(prior_linearization_[j],
                                               &delta[kPose * prior_images_[j]]);
    }
    for (int k : prior_camera_params_) {
      change += cuda::CameraPriorModelChange(CameraPriorResidual(k), CameraPriorJacobian(k),
                                             delta[camera_offset_ + k]);
    }
    return change;
  }
  // Adds the point priors' gradient and J^T J blocks (variable points only); returns the cost of
  // all of them. After the observations' point blocks, which it adds to.
  double LinearizePointPriors() {
    double cost = 0;
    for (int j = 0; j < problem_.num_point_priors(); ++j) {
      const int point = problem_.point_prior_points[j];
      const double* prior = &problem_.point_prior_positions[3 * j];
      const double* weight = &problem_.point_prior_weights[9 * j];
      cost += cuda::PointPriorCost(&problem_.points[3 * point], prior, weight);
      if (problem_.point_constant[point] != 0) continue;
      cuda::AddPointPriorNormalEquations(&problem_.points[3 * point], prior, weight,
                                         &gradient_p_[3 * point], &hessian_point_[9 * point]);
    }
    return cost;
  }
  // The point priors' part of the model decrease for the point step.
  double PointPriorModelChange(const std::vector<double>& delta_p) const {
    double change = 0;
    for (int j = 0; j < problem_.num_point_priors(); ++j) {
      const int point = problem_.point_prior_points[j];
      if (problem_.point_constant[point] != 0) continue;
      change += cuda::PointPriorModelChange(&problem_.points[3 * point], &problem_.point_prior_positions[3 * j],
                                            &problem_.point_prior_weights[9 * j], &delta_p[3 * point]);
    }
    return change;
  }
  // body(image, camera, begin, end) over positions [begin, end) of the image's observations.
  template <typename F>
  void ForImages(F&& body) {
    ParallelFor(0, num_images_, threads_, [&](int image, int) {
      body(image, problem_.image_cameras[image], layout_.image_offsets[image],
           layout_.image_offsets[image + 1]);
    });
  }
  // body(point, begin, end) over indices [begin, end) of layout_.point_positions.
  template <typename F>
  void ForPoints(F&& body) {
    constexpr int kChunk = 512;
    ParallelFor(0, (num_points_ + kChunk - 1) / kChunk, threads_, [&](int chunk, int) {
      const int end = std::min(num_points_, (chunk + 1) * kChunk);
      for (int point = chunk * kChunk; point < end; ++point) {
        body(point, layout_.point_offsets[point], layout_.point_offsets[point + 1]);
      }
    });
  }
  // sums[camera * width + k] = sum over the camera's images of partial[image * width + k].
  void SumPerCamera(const std::vector<double>& partial, int width, std::vector<double>* sums) const {
    std::fill(sums->begin(), sums->end(), 0.0);
    for (int image = 0; image < num_images_; ++image) {
      const int camera = problem_.image_cameras[image];
      for (int k = 0; k < width; ++k) {
        (*sums)[static_cast<size_t>(camera) * width + k] +=
            partial[static_cast<size_t>(image) * width + k];
      }
    }
  }
  // The camera blocks of the block-Jacobi preconditioner, from the per-image partial Schur
  // blocks in scratch_.
  void BuildCameraPreconditioner() {
    std::vector<double> camera_sums(static_cast<size_t>(num_cameras_) * kCam * kCam, 0.0);
    SumPerCamera(scratch_, kCam * kCam, &camera_sums);
    for (int camera = 0; camera < num_cameras_; ++camera) {
      double* m = &preconditioner_camera_[kCam * kCam * camera];
      for (int k = 0; k < kCam * kCam; ++k) {
        m[k] = hessian_camera_[kCam * kCam * camera + k] + camera_sums[kCam * kCam * camera + k];
      }
      for (int k = 0; k < kCam; ++k) m[k * kCam + k] += damping_c_[camera_offset_ + kCam * camera + k];
      cuda::InvertPreconditionerBlock<kCam>(m);
    }
  }
  // S = J_c^T J_c + D_c + priors - sum over points of J_c^T J_p A_pp^-1 J_p^T J_c, formed
  // explicitly into schur_ (nc_ x nc_, row-major). S is symmetric: each off-diagonal term is
  // summed once, into A, and S = A + A^T (terms on the diagonal go in at half weight). The
  // points are cut into kSchurParts fixed parts, each summed into an A of its own, added in
  // order afterwards: the same sums for any thread count.
  void FormSchurComplement() {
    constexpr int kSide = kPose + kCam;  // camera-side unknowns of one observation
    using PoseRow = Eigen::Matrix<double, 1, kPose>;
    using CameraRow = Eigen::Matrix<double, 1, kCam>;
    const size_t size = static_cast<size_t>(nc_) * nc_;
    std::fill(schur_parts_.begin(), schur_parts_.end(), 0.0);
    ParallelFor(0, kSchurParts, threads_, [&](int part, int) {
      double* out = &schur_parts_[part * size];
      const int first_point = static_cast<int>(static_cast<int64_t>(num_points_) * part / kSchurParts);
      const int last_point = static_cast<int>(static_cast<int64_t>(num_points_) * (part + 1) / kSchurParts);
      // Per observation of the point: f^T = J_p^T [J_pose J_camera] (3 x kSide) and
      // g = f A_pp^-1 (kSide x 3), and its first pose and first camera unknown.
      std::vector<double> ft, g;
      std::vector<int> first;
      for (int point = first_point; point < last_point; ++point) {
        const int begin = layout_.point_offsets[point], end = layout_.point_offsets[point + 1];
        const int length = end - begin;
        ft.resize(static_cast<size_t>(length) * kSide * 3);
        g.resize(ft.size());
        first.resize(2 * static_cast<size_t>(length));
        const double* inverse = &point_inverse_[9 * point];
        for (int i = 0; i < length; ++i) {
          const int position = layout_.point_positions[begin + i];
          const BaObservationLinearization& l = linearization_[position];
          const int image = position_images_[position];
          first[2 * i] = kPose * image;
          first[2 * i + 1] = camera_offset_ + kCam * problem_.image_cameras[image];
          // The pose-camera block of J_c^T J_c (the diagonal blocks are hessian_pose_ and
          // hessian_camera_); its transpose comes from A^T.
          for (int a = 0; a < kPose; ++a) {
            double* row = out + static_cast<size_t>(first[2 * i] + a) * nc_ + first[2 * i + 1];
            for (int c = 0; c < kCam; ++c) {
              row[c] += l.jac_pose[0][a] * l.jac_camera[0][c] + l.jac_pose[1][a] * l.jac_camera[1][c];
            }
          }
          double* fti = &ft[static_cast<size_t>(i) * kSide * 3];
          for (int k = 0; k < 3; ++k) {
            for (int a = 0; a < kSide; ++a) {
              const double j0 = a < kPose ? l.jac_pose[0][a] : l.jac_camera[0][a - kPose];
              const double j1 = a < kPose ? l.jac_pose[1][a] : l.jac_camera[1][a - kPose];
              fti[k * kSide + a] = j0 * l.jac_point[0][k] + j1 * l.jac_point[1][k];
            }
          }
          double* gi = &g[static_cast<size_t>(i) * kSide * 3];
          for (int a = 0; a < kSide; ++a) {
            for (int k = 0; k < 3; ++k) {
              gi[3 * a + k] = fti[a] * inverse[k] + fti[kSide + a] * inverse[3 + k] +
                              fti[2 * kSide + a] * inverse[6 + k];
            }
          }
        }
        if (problem_.point_constant[point] != 0) continue;
        for (int i = 0; i < length; ++i) {
          const double* gi = &g[static_cast<size_t>(i) * kSide * 3];
          for (int j = i; j < length; ++j) {
            // A[rows of i, columns of j] -= g_i f_j^T, row by row in two contiguous runs.
            // A local copy: the stores into A cannot alias it, so the loops vectorize.
            double ftj[3 * kSide];
            std::copy(&ft[static_cast<size_t>(j) * kSide * 3], &ft[static_cast<size_t>(j + 1) * kSide * 3], ftj);
            const double weight = j == i ? 0.5 : 1.0;
            for (int a = 0; a < kSide; ++a) {
              const int r = a < kPose ? first[2 * i] + a : first[2 * i + 1] + a - kPose;
              double* row = out + static_cast<size_t>(r) * nc_;
              const double g0 = weight * gi[3 * a], g1 = weight * gi[3 * a + 1], g2 = weight * gi[3 * a + 2];
              Eigen::Map<PoseRow>(row + first[2 * j]) -=
                  g0 * Eigen::Map<const PoseRow>(ftj) + g1 * Eigen::Map<const PoseRow>(ftj + kSide) +
                  g2 * Eigen::Map<const PoseRow>(ftj + 2 * kSide);
              Eigen::Map<CameraRow>(row + first[2 * j + 1]) -=
                  g0 * Eigen::Map<const CameraRow>(ftj + kPose) +
                  g1 * Eigen::Map<const CameraRow>(ftj + kSide + kPose) +
                  g2 * Eigen::Map<const CameraRow>(ftj + 2 * kSide + kPose);
            }
          }
        }
      }
    });
    // Sum of the parts (rows in parallel, parts in order), then S = A + A^T.
    ParallelFor(0, nc_, threads_, [&](int r, int) {
      double* row = &schur_[static_cast<size_t>(r) * nc_];
      std::copy(&schur_parts_[static_cast<size_t>(r) * nc_], &schur_parts_[static_cast<size_t>(r + 1) * nc_], row);
      for (int part = 1; part < kSchurParts; ++part) {
        const double* in = &schur_parts_[part * size + static_cast<size_t>(r) * nc_];
        for (int c = 0; c < nc_; ++c) row[c] += in[c];
      }
    });
    for (int r = 0; r < nc_; ++r) {
      for (int c = r; c < nc_; ++c) {
        const double sum = schur_[static_cast<size_t>(r) * nc_ + c] + schur_[static_cast<size_t>(c) * nc_ + r];
        schur_[static_cast<size_t>(r) * nc_ + c] = schur_[static_cast<size_t>(c) * nc_ + r] = sum;
      }
    }
    for (int image = 0; image < num_images_; ++image) {
      for (int a = 0; a < kPose; ++a) {
        double* row = &schur_[static_cast<size_t>(kPose * image + a) * nc_ + kPose * image];
        for (int c = 0; c < kPose; ++c) row[c] += hessian_pose_[kPose * kPose * image + a * kPose + c];
        row[a] += damping_c_[kPose * image + a];
      }
    }
    for (int camera = 0; camera < num_cameras_; ++camera) {
      const int first = camera_offset_ + kCam * camera;
      for (int a = 0; a < kCam; ++a) {
        double* row = &schur_[static_cast<size_t>(first + a) * nc_ + first];
        for (int c = 0; c < kCam; ++c) row[c] += hessian_camera_[kCam * kCam * camera + a * kCam + c];
        row[a] += damping_c_[first + a];
      }
    }
  }
  // x = S^-1 b by Cholesky; false when S is not numerically positive definite.
  bool SolveDense(const std::vector<double>& b, std::vector<double>* x) {
    FormSchurComplement();
    using Matrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    const Eigen::LLT<Matrix> cholesky(Eigen::Map<const Matrix>(schur_.data(), nc_, nc_));
    if (cholesky.info() != Eigen::Success) return false;
    Eigen::Map<Eigen::VectorXd>(x->data(), nc_) =
        cholesky.solve(Eigen::Map<const Eigen::VectorXd>(b.data(), nc_));
    return true;
  }
  // u_[position] = J_c v for every observation.
  void ComputeJcV(const std::vector<double>& v) {
    ForImages([&](int image, int camera, int begin, int end) {
      for (int position = begin; position < end; ++position) {
        const BaObservationLinearization& l = linearization_[position];
        double* u = &u_[2 * position];
        u[0] = u[1] = 0;
        AddXv<kPose>(l.jac_pose, &v[kPose * image], u);
        AddXv<kCam>(l.jac_camera, &v[camera_offset_ + kCam * camera], u);
      }
    });
  }
  // out = S v = J_c^T (J_c v - J_p A_pp^-1 J_p^T J_c v) + D_c v.
  void SchurProduct(const std::vector<double>& v, std::vector<double>* out) {
    ComputeJcV(v);
    ForPoints([&](int point, int begin, int end) {
      double s[3] = {0, 0, 0};
      for (int k = begin; k < end; ++k) {
        const int position = layout_.point_positions[k];
        AddXtv<3>(linearization_[position].jac_point, &u_[2 * position], s);
      }
      MatVec(&point_inverse_[9 * point], s, 3, &t_p_[3 * point]);
    });
    std::vector<double> camera_partial(static_cast<size_t>(num_images_) * kCam, 0.0);
    for (int k = 0; k < nc_; ++k) (*out)[k] = damping_c_[k] * v[k];
    ForImages([&](int image, int, int begin, int end) {
      for (int position = begin; position < end; ++position) {
        const BaObservationLinearization& l = linearization_[position];
        const int point = problem_.observation_points[layout_.order[position]];
        double z[2] = {u_[2 * position], u_[2 * position + 1]};
        double jt[2] = {0, 0};
        AddXv<3>(l.jac_point, &t_p_[3 * point], jt);
        z[0] -= jt[0];
        z[1] -= jt[1];
        AddXtv<kPose>(l.jac_pose, z, &(*out)[kPose * image]);
        AddXtv<kCam>(l.jac_camera, z, &camera_partial[kCam * image]);
      }
    });
    std::vector<double> camera_sums(static_cast<size_t>(num_cameras_) * kCam);
    SumPerCamera(camera_partial, kCam, &camera_sums);
    for (int k = 0; k < kCam * num_cameras_; ++k) (*out)[camera_offset_ + k] += camera_sums[k];
    for (size_t j = 0; j < prior_images_.size(); ++j) {
      const int image = prior_images_[j];
      cuda::AddPositionPriorProduct(prior_linearization_[j], &v[kPose * image],
                                    &(*out)[kPose * image]);
    }
    for (int k : prior_camera_params_) {
      (*out)[camera_offset_ + k] += CameraPriorJacobian(k) * CameraPriorJacobian(k) *
                                    v[camera_offset_ + k];
    }
  }
  void ApplyPreconditioner(const std::vector<double>& r, std::vector<double>* z) const {
    for (int image = 0; image < num_images_; ++image) {
      MatVec(&preconditioner_pose_[kPose * kPose * image], &r[kPose * image], kPose,
             &(*z)[kPose * image]);
    }
    for (int camera = 0; camera < num_cameras_; ++camera) {
      MatVec(&preconditioner_camera_[kCam * kCam * camera], &r[camera_offset_ + kCam * camera],
             kCam, &(*z)[camera_offset_ + kCam * camera]);
    }
  }
  // Conjugate gradients on S x = b from x = 0; returns the iteration count.
  int SolvePcg(const std::vector<double>& b, std::vector<double>* x) {
    std::fill(x->begin(), x->end(), 0.0);
    std::vector<double> r = b, z(nc_), p(nc_), q(nc_);
    const double b_norm = std::sqrt(Dot(b, b));
    if (b_norm == 0) return 0;
    ApplyPreconditioner(r, &z);
    p = z;
    double rz = Dot(r, z);
    double q_previous = 0;
    int iteration = 0;
    while (iteration < options_.max_pcg_iterations) {
      ++iteration;
      SchurProduct(p, &q);
      const double pq = Dot(p, q);
      if (!(pq > 0)) break;
      const double alpha = rz / pq;
      for (int k = 0; k < nc_; ++k) {
        (*x)[k] += alpha * p[k];
        r[k] -= alpha * q[k];
      }
      // Residual test, and the truncated-Newton test of Nash & Sofer (1990) on the model
      // Q(x) = x^T S x - 2 b^T x = -x^T (b + r), as Ceres' CG: i (Q_i - Q_i-1) / Q_i < eta.
      double q = 0;
      for (int k = 0; k < nc_; ++k) q -= (*x)[k] * (b[k] + r[k]);
      if (std::sqrt(Dot(r, r)) <= options_.pcg_relative_tolerance * b_norm ||
          iteration * (q - q_previous) / q < options_.pcg_eta) {
        break;
      }
      q_previous = q;
      ApplyPreconditioner(r, &z);
      const double rz_next = Dot(r, z);
      const double beta = rz_next / rz;
      rz = rz_next;
      for (int k = 0; k < nc_; ++k) p[k] = z[k] + beta * p[k];
    }
    return iteration;
  }
  // Zeroes the step of constant coordinates (PCG keeps them at 0 up to rounding).
  void MaskConstantCameraSide(std::vector<double>* delta) const {
    for (int image = 0; image < num_images_; ++image) {
      for (int k = 0; k < kPose; ++k) {
        if ((problem_.pose_constant_mask[image] >> k) & 1) (*delta)[kPose * image + k] = 0;
      }
    }
    for (int camera = 0; camera < num_cameras_; ++camera) {
      for (int k = 0; k < kCam; ++k) {
        if ((problem_.camera_constant_mask[camera] >> k) & 1) {
          (*delta)[camera_offset_ + kCam * camera + k] = 0;
        }
      }
    }
  }

  const BaSolverOptions& options_;
  BaProblem& problem_;
  const BaLayout layout_;
  const int threads_;
  const int num_images_, num_cameras_, num_points_;
  const int camera_offset_;  // camera-side vector: 6 per image, then 5 per camera
  const int nc_;
  std::vector<BaObservationLinearization> linearization_;  // by position (image order)
  std::vector<double> u_;                                  // 2 per position
  std::vector<double> gradient_c_, gradient_p_;
  std::vector<double> hessian_pose_, hessian_camera_, hessian_point_;  // blocks of J^T J
  std::vector<double> point_inverse_;  // (W_p + D_p)^-1
  std::vector<double> preconditioner_pose_, preconditioner_camera_;
  std::vector<double> damping_c_, damping_p_;
  std::vector<double> y_p_, t_p_;
  std::vector<double> delta_c_, delta_p_;
  std::vector<double> scratch_;  // per-image partial camera blocks
  // Dense path: S, the parts it is summed from, the image of each position.
  static constexpr int kSchurParts = 8;
  std::vector<double> schur_, schur_parts_;
  std::vector<int> position_images_;
  std::vector<double> candidate_poses_, candidate_params_, candidate_points_;
  // Priors: images with a position prior and their linearisation; indices into camera_params
  // (camera * kCam + parameter) of the parameters with a prior.
  std::vector<int> prior_images_;
  std::vector<BaPositionPriorLinearization> prior_linearization_;
  std::vector<int> prior_camera_params_;
};

}  // namespace

cuda::BaSolverSummary SolveBaProblemCpu(const BaSolverOptions& options, BaProblem* problem) {
  PROJ_CHECK(problem != nullptr, "problem is null");
  options.Check();
  problem->Check();
  const Timer timer;
  CpuBackend backend(options, problem);
  cuda::BaSolverSummary summary = RunLevenbergMarquardt(options, &backend);
  summary.time_s = timer.ElapsedSeconds();
  return summary;
}

}  // namespace proj
