#include "cuda/ba/bundle_adjuster_gpu.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <vector>

#include "core/check.h"
#include "cuda/ba/ba_kernels.cuh"
#include "cuda/ba/lm_solver.h"
#include "cuda/cuda_check.cuh"
#include "cuda/sift/device_buffer.cuh"

namespace proj::cuda {
namespace {

constexpr int kPose = kBaPoseDof;
constexpr int kCam = kBaMaxCameraParams;

template <typename T>
void Upload(const std::vector<T>& host, DeviceBuffer<T>* device, cudaStream_t stream) {
  device->Reserve(std::max<size_t>(host.size(), 1));
  if (!host.empty()) {
    PROJ_CUDA_CHECK(cudaMemcpyAsync(device->data(), host.data(), host.size() * sizeof(T),
                                    cudaMemcpyHostToDevice, stream));
  }
}
template <typename T>
void Download(const DeviceBuffer<T>& device, std::vector<T>* host, cudaStream_t stream) {
  if (!host->empty()) {
    PROJ_CUDA_CHECK(cudaMemcpyAsync(host->data(), device.data(), host->size() * sizeof(T),
                                    cudaMemcpyDeviceToHost, stream));
  }
}

// Device buffers of one solver instance; grown to the largest problem seen.
struct Buffers {
  DeviceBuffer<int> camera_models, image_cameras, observation_images, observation_points;
  DeviceBuffer<int> point_offsets, point_positions, invalid;
  DeviceBuffer<uint8_t> camera_mask, pose_mask, point_constant;
  DeviceBuffer<double> observations_px;
  DeviceBuffer<double> poses, camera_params, points;                      // current
  DeviceBuffer<double> candidate_poses, candidate_params, candidate_points;
  DeviceBuffer<BaObservationLinearization> linearization;
  DeviceBuffer<double> gradient_c, gradient_p, hessian_pose, hessian_camera, hessian_point;
  DeviceBuffer<double> point_inverse, preconditioner_pose, preconditioner_camera, damping_c;
  DeviceBuffer<double> u, y_p, t_p, delta_c, delta_p, b, r, z, p, q;
  DeviceBuffer<double> scalars;  // reduction results
  DeviceBuffer<unsigned long long> max_bits;
};

class GpuBackend : public BaBackend {
 public:
  GpuBackend(const BaSolverOptions& options, const BaProblem& problem, Buffers* buffers,
             cudaStream_t stream)
      : options_(options), buffers_(*buffers), stream_(stream) {
    const BaLayout layout = MakeBaLayout(problem);
    const int num_observations = problem.num_observations();
    std::vector<int> images(num_observations), points(num_observations);
    std::vector<double> observed(2 * static_cast<size_t>(num_observations));
    for (int position = 0; position < num_observations; ++position) {
      const int o = layout.order[position];
      images[position] = problem.observation_images[o];
      points[position] = problem.observation_points[o];
      observed[2 * position] = problem.observations_px[2 * o];
      observed[2 * position + 1] = problem.observations_px[2 * o + 1];
    }
    Buffers& b = buffers_;
    Upload(problem.camera_models, &b.camera_models, stream);
    Upload(problem.camera_constant_mask, &b.camera_mask, stream);
    Upload(problem.image_cameras, &b.image_cameras, stream);
    Upload(problem.pose_constant_mask, &b.pose_mask, stream);
    Upload(problem.point_constant, &b.point_constant, stream);
    Upload(images, &b.observation_images, stream);
    Upload(points, &b.observation_points, stream);
    Upload(observed, &b.observations_px, stream);
    Upload(layout.point_offsets, &b.point_offsets, stream);
    Upload(layout.point_positions, &b.point_positions, stream);
    Upload(problem.poses, &b.poses, stream);
    Upload(problem.camera_params, &b.camera_params, stream);
    Upload(problem.points, &b.points, stream);

    d_.num_images = problem.num_images();
    d_.num_cameras = problem.num_cameras();
    d_.num_points = problem.num_points();
    d_.num_observations = num_observations;
    d_.camera_offset = kPose * d_.num_images;
    d_.num_camera_side = d_.camera_offset + kCam * d_.num_cameras;
    d_.loss = options.loss;
    d_.loss_scale = options.loss_scale_px;
    const size_t nc = std::max(d_.num_camera_side, 1);
    const size_t np = 3 * static_cast<size_t>(std::max(d_.num_points, 1));
    const size_t no = std::max(num_observations, 1);
    b.candidate_poses.Reserve(std::max<size_t>(problem.poses.size(), 1));
    b.candidate_params.Reserve(std::max<size_t>(problem.camera_params.size(), 1));
    b.candidate_points.Reserve(np);
    b.linearization.Reserve(no);
    b.u.Reserve(2 * no);
    for (DeviceBuffer<double>* v : {&b.gradient_c, &b.damping_c, &b.delta_c, &b.b, &b.r, &b.z,
                                    &b.p, &b.q}) {
      v->Reserve(nc);
    }
    for (DeviceBuffer<double>* v : {&b.gradient_p, &b.y_p, &b.t_p, &b.delta_p}) v->Reserve(np);
    b.hessian_pose.Reserve(kPose * kPose * static_cast<size_t>(std::max(d_.num_images, 1)));
    b.preconditioner_pose.Reserve(kPose * kPose * static_cast<size_t>(std::max(d_.num_images, 1)));
    b.hessian_camera.Reserve(kCam * kCam * static_cast<size_t>(std::max(d_.num_cameras, 1)));
    b.preconditioner_camera.Reserve(kCam * kCam * static_cast<size_t>(std::max(d_.num_cameras, 1)));
    b.hessian_point.Reserve(3 * np);
    b.point_inverse.Reserve(3 * np);
    b.scalars.Reserve(4);
    b.max_bits.Reserve(1);
    b.invalid.Reserve(1);
    d_.camera_models = b.camera_models.data();
    d_.camera_mask = b.camera_mask.data();
    d_.image_cameras = b.image_cameras.data();
    d_.pose_mask = b.pose_mask.data();
    d_.point_constant = b.point_constant.data();
    d_.observation_images = b.observation_images.data();
    d_.observation_points = b.observation_points.data();
    d_.observations_px = b.observations_px.data();
    d_.point_offsets = b.point_offsets.data();
    d_.point_positions = b.point_positions.data();
    d_.linearization = b.linearization.data();
    d_.gradient_c = b.gradient_c.data();
    d_.gradient_p = b.gradient_p.data();
    d_.hessian_pose = b.hessian_pose.data();
    d_.hessian_camera = b.hessian_camera.data();
    d_.hessian_point = b.hessian_point.data();
    d_.point_inverse = b.point_inverse.data();
    d_.preconditioner_pose = b.preconditioner_pose.data();
    d_.preconditioner_camera = b.preconditioner_camera.data();
    d_.damping_c = b.damping_c.data();
    d_.invalid = b.invalid.data();
    SetCurrentParameters();
  }

  bool Linearize(double* cost, double* gradient_max_norm) override {
    ResetScalars();
    Zero(d_.gradient_c, d_.num_camera_side);
    Zero(d_.hessian_pose, kPose * kPose * d_.num_images);
    Zero(d_.hessian_camera, kCam * kCam * d_.num_cameras);
    LaunchLinearize(d_, Scalars(), stream_);
    LaunchPointBlocks(d_, stream_);
    PROJ_CUDA_CHECK(cudaMemsetAsync(buffers_.max_bits.data(), 0, sizeof(unsigned long long), stream_));
    LaunchMaxAbs(d_.gradient_c, d_.num_camera_side, buffers_.max_bits.data(), stream_);
    LaunchMaxAbs(d_.gradient_p, 3 * d_.num_points, buffers_.max_bits.data(), stream_);
    double sums[1];
    unsigned long long max_bits = 0;
    PROJ_CUDA_CHECK(cudaMemcpyAsync(&max_bits, buffers_.max_bits.data(), sizeof(max_bits),
                                    cudaMemcpyDeviceToHost, stream_));
    if (!ReadScalars(sums, 1)) return false;
    *cost = sums[0];
    std::memcpy(gradient_max_norm, &max_bits, sizeof(double));
    return true;
  }

  BaStep ComputeStep(double mu) override {
    BaStep step;
    Buffers& b = buffers_;
    ResetScalars();
    LaunchInitStep(d_, mu, b.b.data(), stream_);
    LaunchPointInverse(d_, mu, b.y_p.data(), stream_);
    LaunchRhsAndPreconditioner(d_, b.y_p.data(), b.b.data(), stream_);
    LaunchInvertPreconditioner(d_, stream_);
    if (!ReadScalars(nullptr, 0)) return step;  // a point block was not positive definite

    step.pcg_iterations = SolvePcg();
    LaunchMaskStep(d_, b.delta_c.data(), stream_);
    // Back-substitution dp = -A_pp^-1 (g_p + J_p^T J_c dc), then the model decrease and |step|.
    LaunchJcV(d_, b.delta_c.data(), b.u.data(), stream_);
    LaunchPointSolve(d_, b.u.data(), d_.gradient_p, -1.0, b.delta_p.data(), stream_);
    ResetScalars();
    LaunchModelChange(d_, b.u.data(), b.delta_p.data(), Scalars(), stream_);
    LaunchDot(b.delta_c.data(), b.delta_c.data(), d_.num_camera_side, Scalars() + 1, stream_);
    LaunchDot(b.delta_p.data(), b.delta_p.data(), 3 * d_.num_points, Scalars() + 1, stream_);
    double sums[2];
    ReadScalars(sums, 2);
    step.model_cost_change = sums[0];
    step.step_norm = std::sqrt(sums[1]);
    step.valid = std::isfinite(step.step_norm) && std::isfinite(step.model_cost_change);
    return step;
  }

  bool EvaluateCandidate(double* cost) override {
    Buffers& b = buffers_;
    ResetScalars();
    LaunchCandidate(d_, b.delta_c.data(), b.delta_p.data(), b.candidate_poses.data(),
                    b.candidate_params.data(), b.candidate_points.data(), stream_);
    LaunchCost(d_, b.candidate_poses.data(), b.candidate_params.data(), b.candidate_points.data(),
               Scalars(), stream_);
    return ReadScalars(cost, 1);
  }

  void AcceptCandidate() override {
    Buffers& b = buffers_;
    std::swap(b.poses, b.candidate_poses);
    std::swap(b.camera_params, b.candidate_params);
    std::swap(b.points, b.candidate_points);
    SetCurrentParameters();
  }

  double ParameterNorm() override {
    ResetScalars();
    LaunchDot(d_.poses, d_.poses, kBaPoseStride * d_.num_images, Scalars(), stream_);
    LaunchDot(d_.camera_params, d_.camera_params, kCam * d_.num_cameras, Scalars(), stream_);
    LaunchDot(d_.points, d_.points, 3 * d_.num_points, Scalars(), stream_);
    double sum = 0;
    ReadScalars(&sum, 1);
    return std::sqrt(sum);
  }

  void DownloadParameters(BaProblem* problem) {
    Download(buffers_.poses, &problem->poses, stream_);
    Download(buffers_.camera_params, &problem->camera_params, stream_);
    Download(buffers_.points, &problem->points, stream_);
  }

 private:
  void SetCurrentParameters() {
    d_.poses = buffers_.poses.data();
    d_.camera_params = buffers_.camera_params.data();
    d_.points = buffers_.points.data();
  }
  void Zero(double* v, int n) {
    if (n > 0) PROJ_CUDA_CHECK(cudaMemsetAsync(v, 0, n * sizeof(double), stream_));
  }
  double* Scalars() { return buffers_.scalars.data(); }
  void ResetScalars() {
    Zero(Scalars(), 4);
    PROJ_CUDA_CHECK(cudaMemsetAsync(d_.invalid, 0, sizeof(int), stream_));
  }
  // Copies the first n scalars to the host (synchronising); false when a kernel flagged an
  // invalid observation or block since the last ResetScalars.
  bool ReadScalars(double* out, int n) {
    double host[4];
    int invalid = 0;
    PROJ_CUDA_CHECK(cudaMemcpyAsync(host, Scalars(), sizeof(host), cudaMemcpyDeviceToHost, stream_));
    PROJ_CUDA_CHECK(cudaMemcpyAsync(&invalid, d_.invalid, sizeof(int), cudaMemcpyDeviceToHost, stream_));
    PROJ_CUDA_CHECK(cudaStreamSynchronize(stream_));
    for (int k = 0; k < n; ++k) out[k] = host[k];
    return invalid == 0;
  }
  // Conjugate gradients on S dc = b from dc = 0 (as SolvePcg of the CPU solver).
  int SolvePcg() {
    Buffers& b = buffers_;
    const int n = d_.num_camera_side;
    Zero(b.delta_c.data(), n);
    PROJ_CUDA_CHECK(cudaMemcpyAsync(b.r.data(), b.b.data(), n * sizeof(double),
                                    cudaMemcpyDeviceToDevice, stream_));
    ResetScalars();
    LaunchPrecondition(d_, b.r.data(), b.delta_c.data(), b.b.data(), b.z.data(), Scalars(),
                       stream_);
    double sums[3];
    ReadScalars(sums, 3);
    const double b_norm = std::sqrt(sums[0]);
    if (b_norm == 0) return 0;
    double rz = sums[1];
    double q_previous = 0;
    PROJ_CUDA_CHECK(cudaMemcpyAsync(b.p.data(), b.z.data(), n * sizeof(double),
                                    cudaMemcpyDeviceToDevice, stream_));
    int iteration = 0;
    while (iteration < options_.max_pcg_iterations) {
      ++iteration;
      // q = S p (implicit Schur product).
      LaunchJcV(d_, b.p.data(), b.u.data(), stream_);
      LaunchPointSolve(d_, b.u.data(), nullptr, 1.0, b.t_p.data(), stream_);
      LaunchSchurScatter(d_, b.p.data(), b.u.data(), b.t_p.data(), b.q.data(), stream_);
      ResetScalars();
      LaunchDot(b.p.data(), b.q.data(), n, Scalars(), stream_);
      double pq = 0;
      ReadScalars(&pq, 1);
      if (!(pq > 0)) break;
      const double alpha = rz / pq;
      LaunchCgUpdate(n, alpha, b.p.data(), b.q.data(), b.delta_c.data(), b.r.data(), stream_);
      ResetScalars();
      LaunchPrecondition(d_, b.r.data(), b.delta_c.data(), b.b.data(), b.z.data(), Scalars(),
                         stream_);
      ReadScalars(sums, 3);
      if (std::sqrt(sums[0]) <= options_.pcg_relative_tolerance * b_norm ||
          iteration * (sums[2] - q_previous) / sums[2] < options_.pcg_eta) {
        break;
      }
      q_previous = sums[2];
      const double beta = sums[1] / rz;
      rz = sums[1];
      LaunchCgDirection(n, beta, b.z.data(), b.p.data(), stream_);
    }
    return iteration;
  }

  const BaSolverOptions& options_;
  Buffers& buffers_;
  cudaStream_t stream_;
  BaDeviceData d_;
};

}  // namespace

struct BundleAdjusterGpu::Impl {
  int device = 0;
  cudaStream_t stream = nullptr;
  cudaEvent_t start = nullptr, stop = nullptr;
  Buffers buffers;
  float last_solve_ms = 0;
};

BundleAdjusterGpu::BundleAdjusterGpu(int device) : impl_(std::make_unique<Impl>()) {
  int count = 0;
  PROJ_REQUIRE(cudaGetDeviceCount(&count) == cudaSuccess && device >= 0 && device < count,
               "the GPU bundle adjuster needs CUDA device " << device << ", " << count
                                                           << " present");
  impl_->device = device;
  PROJ_CUDA_CHECK(cudaSetDevice(device));
  PROJ_CUDA_CHECK(cudaStreamCreateWithFlags(&impl_->stream, cudaStreamNonBlocking));
  PROJ_CUDA_CHECK(cudaEventCreate(&impl_->start));
  PROJ_CUDA_CHECK(cudaEventCreate(&impl_->stop));
}

BundleAdjusterGpu::~BundleAdjusterGpu() {
  if (impl_->stream != nullptr) {
    // Unchecked: a destructor must not throw (it also runs after a GpuError).
    cudaStreamSynchronize(impl_->stream);
    cudaEventDestroy(impl_->start);
    cudaEventDestroy(impl_->stop);
    cudaStreamDestroy(impl_->stream);
  }
}

BaSolverSummary BundleAdjusterGpu::Solve(const BaSolverOptions& options, BaProblem* problem) {
  PROJ_CHECK(problem != nullptr, "problem is null");
  options.Check();
  problem->Check();
  const auto wall_start = std::chrono::steady_clock::now();
  PROJ_CUDA_CHECK(cudaSetDevice(impl_->device));
  PROJ_CUDA_CHECK(cudaEventRecord(impl_->start, impl_->stream));
  GpuBackend backend(options, *problem, &impl_->buffers, impl_->stream);
  BaSolverSummary summary = RunLevenbergMarquardt(options, &backend);
  backend.DownloadParameters(problem);
  PROJ_CUDA_CHECK(cudaEventRecord(impl_->stop, impl_->stream));
  PROJ_CUDA_CHECK(cudaEventSynchronize(impl_->stop));
  PROJ_CUDA_CHECK(cudaEventElapsedTime(&impl_->last_solve_ms, impl_->start, impl_->stop));
  summary.time_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  return summary;
}

float BundleAdjusterGpu::last_solve_ms() const { return impl_->last_solve_ms; }

BaSolverSummary SolveBaProblemGpu(const BaSolverOptions& options, BaProblem* problem) {
  return BundleAdjusterGpu().Solve(options, problem);
}

}  // namespace proj::cuda
