#include "cuda/ba/bundle_adjuster_gpu.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <type_traits>
#include <vector>

#include "core/check.h"
#include "cuda/ba/ba_kernels.cuh"
#include "cuda/cuda_check.cuh"
#include "cuda/sift/device_buffer.cuh"

namespace proj::cuda {
namespace {

constexpr int kPose = kBaPoseDof;
constexpr int kCam = kBaMaxCameraParams;

// Byte ranges of one allocation, each aligned for any element type; laid out before the
// allocation is (re)sized, then turned into pointers.
class Sections {
 public:
  template <typename T>
  size_t Add(size_t count) {
    const size_t offset = bytes_;
    bytes_ += (count * sizeof(T) + kAlignment - 1) / kAlignment * kAlignment;
    return offset;
  }
  size_t bytes() const { return std::max<size_t>(bytes_, kAlignment); }

 private:
  static constexpr size_t kAlignment = 256;
  size_t bytes_ = 0;
};

template <typename T>
T* At(char* base, size_t offset) {
  return reinterpret_cast<T*>(base + offset);
}

// Grows a buffer by a quarter more than asked, so that the sizes of successive problems (local
// adjustments) rarely reallocate.
template <typename T>
void Grow(size_t count, DeviceBuffer<T>* buffer) {
  if (count > buffer->capacity()) buffer->Reserve(count + count / 4);
}
template <typename T>
void Grow(size_t count, PinnedBuffer<T>* buffer) {
  if (count > buffer->capacity()) buffer->Reserve(count + count / 4);
}

// Memory of one solver instance, reused by every solve.
struct Buffers {
  PinnedBuffer<char> staging;     // host side of the one upload (and of the download)
  DeviceBuffer<char> input;       // the problem, in position order, and its layout
  DeviceBuffer<char> workspace;   // everything the solve computes
  PinnedBuffer<BaScalars> scalars;
  PinnedBuffer<BaPcgState> pcg;   // two for the iterations in flight, one for the final state
};

// The steps on one loaded problem.
class GpuBackend : public BaBackend {
 public:
  GpuBackend(const BaSolverOptions& options, const BaProblem& problem, const BaLayout& layout,
             Buffers* buffers, cudaStream_t stream, cudaEvent_t* pcg_events)
      : options_(options), buffers_(*buffers), stream_(stream), pcg_events_(pcg_events) {
    const BaChunks chunks = MakeBaChunks(problem, layout);
    const int num_observations = problem.num_observations();
    d_.num_images = problem.num_images();
    d_.num_cameras = problem.num_cameras();
    d_.num_points = problem.num_points();
    d_.num_observations = num_observations;
    d_.num_point_priors = problem.num_point_priors();
    d_.num_chunks = chunks.num_chunks();
    d_.camera_offset = kPose * d_.num_images;
    d_.num_camera_side = d_.camera_offset + kCam * d_.num_cameras;
    d_.loss = options.loss;
    d_.loss_scale = options.loss_scale_px;
    Upload(problem, layout, chunks);
    AllocateWorkspace(problem.has_position_priors());
    buffers_.scalars.Reserve(1);
    buffers_.pcg.Reserve(3);
  }

  bool Linearize(double* cost, double* gradient_max_norm) override {
    ResetScalars();
    LaunchLinearize(d_, stream_);
    const BaScalars& s = ReadScalars();
    if (s.invalid != 0) return false;
    *cost = s.cost;
    std::memcpy(gradient_max_norm, &s.max_gradient_bits, sizeof(double));
    return true;
  }

  BaStep ComputeStep(double mu) override {
    BaStep step;
    ResetScalars();
    LaunchPrepareStep(d_, mu, y_p_, b_, stream_);
    LaunchPcgInit(d_, options_, b_, delta_c_, r_, z_, p_, stream_);
    step.pcg_iterations = SolvePcg();
    LaunchMaskStep(d_, delta_c_, stream_);
    // Back-substitution dp = -A_pp^-1 (g_p + J_p^T J_c dc), then the model decrease and |step|.
    LaunchJcV(d_, delta_c_, u_, nullptr, stream_);
    LaunchPointSolve(d_, u_, d_.gradient_p, -1.0, delta_p_, nullptr, stream_);
    LaunchModelChange(d_, u_, delta_c_, delta_p_, stream_);
    LaunchSquaredNorm(d_, delta_c_, d_.num_camera_side, delta_p_, 3 * d_.num_points, nullptr, 0,
                      &d_.scalars->squared_step_norm, stream_);
    const BaScalars& s = ReadScalars();
    if (s.invalid != 0) return step;  // a point block was not positive definite
    step.model_cost_change = s.model_change;
    step.step_norm = std::sqrt(s.squared_step_norm);
    step.valid = std::isfinite(step.step_norm) && std::isfinite(step.model_cost_change);
    return step;
  }

  bool EvaluateCandidate(double* cost) override {
    ResetScalars();
    LaunchCandidate(d_, delta_c_, delta_p_, candidate_poses_, candidate_params_,
                    candidate_points_, stream_);
    LaunchCost(d_, candidate_poses_, candidate_params_, candidate_points_, stream_);
    // The LM loop asks for |x| next: computed in the same round trip.
    LaunchParameterNorm();
    const BaScalars& s = ReadScalars();
    parameter_norm_ = std::sqrt(s.squared_parameter_norm);
    *cost = s.cost;
    return s.invalid == 0;
  }

  void AcceptCandidate() override {
    std::swap(poses_, candidate_poses_);
    std::swap(camera_params_, candidate_params_);
    std::swap(points_, candidate_points_);
    SetCurrentParameters();
    parameter_norm_ = -1;
  }

  double ParameterNorm() override {
    if (parameter_norm_ < 0) {
      ResetScalars();
      LaunchParameterNorm();
      parameter_norm_ = std::sqrt(ReadScalars().squared_parameter_norm);
    }
    return parameter_norm_;
  }

  void DownloadParameters(BaProblem* problem) {
    char* host = buffers_.staging.data();
    const size_t poses = problem->poses.size() * sizeof(double);
    const size_t params = problem->camera_params.size() * sizeof(double);
    const size_t points = problem->points.size() * sizeof(double);
    CopyToHost(host, poses_, poses);
    CopyToHost(host + poses, camera_params_, params);
    CopyToHost(host + poses + params, points_, points);
    PROJ_CUDA_CHECK(cudaStreamSynchronize(stream_));
    std::memcpy(problem->poses.data(), host, poses);
    std::memcpy(problem->camera_params.data(), host + poses, params);
    std::memcpy(problem->points.data(), host + poses + params, points);
  }

 private:
  // The problem's arrays (observations in position order) and the layout, through the
  // pinned staging buffer in one copy.
  void Upload(const BaProblem& problem, const BaLayout& layout, const BaChunks& chunks) {
    const int num_observations = problem.num_observations();
    Sections sections;
    const size_t camera_models = sections.Add<int>(problem.camera_models.size());
    const size_t camera_mask = sections.Add<uint8_t>(problem.camera_constant_mask.size());
    const size_t image_cameras = sections.Add<int>(problem.image_cameras.size());
    const size_t pose_mask = sections.Add<uint8_t>(problem.pose_constant_mask.size());
    const size_t point_constant = sections.Add<uint8_t>(problem.point_constant.size());
    const size_t images = sections.Add<int>(num_observations);
    const size_t points = sections.Add<int>(num_observations);
    const size_t observed = sections.Add<double>(2 * static_cast<size_t>(num_observations));
    const size_t point_offsets = sections.Add<int>(layout.point_offsets.size());
    const size_t point_positions = sections.Add<int>(layout.point_positions.size());
    const size_t chunk_starts = sections.Add<int>(chunks.starts.size());
    const size_t segment_offsets = sections.Add<int>(chunks.segment_offsets.size());
    const size_t segment_chunks = sections.Add<int>(chunks.segment_chunks.size());
    const size_t prior_centers = sections.Add<double>(problem.position_prior_centers.size());
    const size_t prior_weights = sections.Add<double>(problem.position_prior_weights.size());
    const size_t camera_prior_means = sections.Add<double>(problem.camera_prior_means.size());
    const size_t camera_prior_weights = sections.Add<double>(problem.camera_prior_weights.size());
    const size_t point_prior_points = sections.Add<int>(problem.point_prior_points.size());
    const size_t point_prior_positions = sections.Add<double>(problem.point_prior_positions.size());
    const size_t point_prior_weights = sections.Add<double>(problem.point_prior_weights.size());
    const size_t poses = sections.Add<double>(problem.poses.size());
    const size_t camera_params = sections.Add<double>(problem.camera_params.size());
    const size_t point_values = sections.Add<double>(problem.points.size());
    Grow(sections.bytes(), &buffers_.staging);
    Grow(sections.bytes(), &buffers_.input);
    char* host = buffers_.staging.data();
    auto put = [&](const auto& values, size_t offset) {
      std::copy(values.begin(), values.end(), At<std::decay_t<decltype(values[0])>>(host, offset));
    };
    put(problem.camera_models, camera_models);
    put(problem.camera_constant_mask, camera_mask);
    put(problem.image_cameras, image_cameras);
    put(problem.pose_constant_mask, pose_mask);
    put(problem.point_constant, point_constant);
    for (int position = 0; position < num_observations; ++position) {
      const int o = layout.order[position];
      At<int>(host, images)[position] = problem.observation_images[o];
      At<int>(host, points)[position] = problem.observation_points[o];
      At<double>(host, observed)[2 * position] = problem.observations_px[2 * o];
      At<double>(host, observed)[2 * position + 1] = problem.observations_px[2 * o + 1];
    }
    put(layout.point_offsets, point_offsets);
    put(layout.point_positions, point_positions);
    put(chunks.starts, chunk_starts);
    put(chunks.segment_offsets, segment_offsets);
    put(chunks.segment_chunks, segment_chunks);
    put(problem.position_prior_centers, prior_centers);
    put(problem.position_prior_weights, prior_weights);
    put(problem.camera_prior_means, camera_prior_means);
    put(problem.camera_prior_weights, camera_prior_weights);
    put(problem.point_prior_points, point_prior_points);
    put(problem.point_prior_positions, point_prior_positions);
    put(problem.point_prior_weights, point_prior_weights);
    put(problem.poses, poses);
    put(problem.camera_params, camera_params);
    put(problem.points, point_values);
    PROJ_CUDA_CHECK(cudaMemcpyAsync(buffers_.input.data(), host, sections.bytes(),
                                    cudaMemcpyHostToDevice, stream_));

    char* device = buffers_.input.data();
    d_.camera_models = At<int>(device, camera_models);
    d_.camera_mask = At<uint8_t>(device, camera_mask);
    d_.image_cameras = At<int>(device, image_cameras);
    d_.pose_mask = At<uint8_t>(device, pose_mask);
    d_.point_constant = At<uint8_t>(device, point_constant);
    d_.observation_images = At<int>(device, images);
    d_.observation_points = At<int>(device, points);
    d_.observations_px = At<double>(device, observed);
    d_.point_offsets = At<int>(device, point_offsets);
    d_.point_positions = At<int>(device, point_positions);
    d_.chunk_starts = At<int>(device, chunk_starts);
    d_.segment_offsets = At<int>(device, segment_offsets);
    d_.segment_chunks = At<int>(device, segment_chunks);
    if (problem.has_position_priors()) {
      d_.prior_centers = At<double>(device, prior_centers);
      d_.prior_weights = At<double>(device, prior_weights);
    }
    if (problem.has_camera_priors()) {
      d_.camera_prior_means = At<double>(device, camera_prior_means);
      d_.camera_prior_weights = At<double>(device, camera_prior_weights);
    }
    if (problem.num_point_priors() > 0) {
      d_.point_prior_points = At<int>(device, point_prior_points);
      d_.point_prior_positions = At<double>(device, point_prior_positions);
      d_.point_prior_weights = At<double>(device, point_prior_weights);
    }
    poses_ = At<double>(device, poses);
    camera_params_ = At<double>(device, camera_params);
    points_ = At<double>(device, point_values);
    SetCurrentParameters();
  }

  void AllocateWorkspace(bool position_priors) {
    const size_t ni = d_.num_images, ncam = d_.num_cameras, np = d_.num_points;
    const size_t no = d_.num_observations, nc = d_.num_camera_side;
    Sections sections;
    const size_t candidate_poses = sections.Add<double>(kBaPoseStride * ni);
    const size_t candidate_params = sections.Add<double>(kCam * ncam);
    const size_t candidate_points = sections.Add<double>(3 * np);
    const size_t linearization = sections.Add<BaObservationLinearization>(no);
    const size_t prior_linearization =
        sections.Add<BaPositionPriorLinearization>(position_priors ? ni : 0);
    const size_t gradient_c = sections.Add<double>(nc);
    const size_t gradient_p = sections.Add<double>(3 * np);
    const size_t hessian_pose = sections.Add<double>(kPose * kPose * ni);
    const size_t hessian_camera = sections.Add<double>(kCam * kCam * ncam);
    const size_t hessian_point = sections.Add<double>(9 * np);
    const size_t point_inverse = sections.Add<double>(9 * np);
    const size_t preconditioner_pose = sections.Add<double>(kPose * kPose * ni);
    const size_t preconditioner_camera = sections.Add<double>(kCam * kCam * ncam);
    const size_t damping_c = sections.Add<double>(nc);
    const size_t chunk_partials =
        sections.Add<double>(kBaMaxChunkWidth * static_cast<size_t>(d_.num_chunks));
    const size_t block_partials = sections.Add<double>(BaBlockPartials(d_));
    const size_t segment_terms = sections.Add<double>(ni + ncam + d_.num_point_priors);
    const size_t scalars = sections.Add<BaScalars>(1);
    const size_t pcg = sections.Add<BaPcgState>(1);
    const size_t u = sections.Add<double>(2 * no);
    size_t point_vectors[3], camera_vectors[6];
    for (size_t& v : point_vectors) v = sections.Add<double>(3 * np);
    for (size_t& v : camera_vectors) v = sections.Add<double>(nc);
    Grow(sections.bytes(), &buffers_.workspace);

    char* base = buffers_.workspace.data();
    candidate_poses_ = At<double>(base, candidate_poses);
    candidate_params_ = At<double>(base, candidate_params);
    candidate_points_ = At<double>(base, candidate_points);
    d_.linearization = At<BaObservationLinearization>(base, linearization);
    d_.prior_linearization = At<BaPositionPriorLinearization>(base, prior_linearization);
    d_.gradient_c = At<double>(base, gradient_c);
    d_.gradient_p = At<double>(base, gradient_p);
    d_.hessian_pose = At<double>(base, hessian_pose);
    d_.hessian_camera = At<double>(base, hessian_camera);
    d_.hessian_point = At<double>(base, hessian_point);
    d_.point_inverse = At<double>(base, point_inverse);
    d_.preconditioner_pose = At<double>(base, preconditioner_pose);
    d_.preconditioner_camera = At<double>(base, preconditioner_camera);
    d_.damping_c = At<double>(base, damping_c);
    d_.chunk_partials = At<double>(base, chunk_partials);
    d_.block_partials = At<double>(base, block_partials);
    d_.segment_terms = At<double>(base, segment_terms);
    d_.scalars = At<BaScalars>(base, scalars);
    d_.pcg = At<BaPcgState>(base, pcg);
    u_ = At<double>(base, u);
    y_p_ = At<double>(base, point_vectors[0]);
    t_p_ = At<double>(base, point_vectors[1]);
    delta_p_ = At<double>(base, point_vectors[2]);
    double** camera_side[6] = {&delta_c_, &b_, &r_, &z_, &p_, &q_};
    for (int k = 0; k < 6; ++k) *camera_side[k] = At<double>(base, camera_vectors[k]);
  }

  void SetCurrentParameters() {
    d_.poses = poses_;
    d_.camera_params = camera_params_;
    d_.points = points_;
  }
  void LaunchParameterNorm() {
    LaunchSquaredNorm(d_, poses_, kBaPoseStride * d_.num_images, camera_params_,
                      kCam * d_.num_cameras, points_, 3 * d_.num_points,
                      &d_.scalars->squared_parameter_norm, stream_);
  }
  void CopyToHost(char* host, const double* device, size_t bytes) {
    if (bytes > 0) {
      PROJ_CUDA_CHECK(cudaMemcpyAsync(host, device, bytes, cudaMemcpyDeviceToHost, stream_));
    }
  }
  void ResetScalars() {
    PROJ_CUDA_CHECK(cudaMemsetAsync(d_.scalars, 0, sizeof(BaScalars), stream_));
  }
  // The scalars after the work enqueued so far (synchronises).
  const BaScalars& ReadScalars() {
    BaScalars* host = buffers_.scalars.data();
    PROJ_CUDA_CHECK(cudaMemcpyAsync(host, d_.scalars, sizeof(BaScalars), cudaMemcpyDeviceToHost,
                                    stream_));
    PROJ_CUDA_CHECK(cudaStreamSynchronize(stream_));
    return *host;
  }
  // Conjugate gradients on S dc = b from dc = 0, started by LaunchPcgInit. Iterations are
  // enqueued one ahead of the host's look at the state: the host checks whether iteration k
  // stopped while the device runs k + 1, which returns at once if so.
  int SolvePcg() {
    BaPcgState* host = buffers_.pcg.data();
    for (int enqueued = 0; enqueued < options_.max_pcg_iterations;) {
      LaunchPcgIteration(d_, b_, delta_c_, r_, z_, p_, q_, u_, t_p_, stream_);
      const int slot = enqueued % 2;
      PROJ_CUDA_CHECK(cudaMemcpyAsync(host + slot, d_.pcg, sizeof(BaPcgState),
                                      cudaMemcpyDeviceToHost, stream_));
      PROJ_CUDA_CHECK(cudaEventRecord(pcg_events_[slot], stream_));
      ++enqueued;
      if (enqueued >= 2) {
        const int previous = (enqueued - 2) % 2;
        PROJ_CUDA_CHECK(cudaEventSynchronize(pcg_events_[previous]));
        if (host[previous].done != 0) break;
      }
    }
    PROJ_CUDA_CHECK(cudaMemcpyAsync(host + 2, d_.pcg, sizeof(BaPcgState), cudaMemcpyDeviceToHost,
                                    stream_));
    PROJ_CUDA_CHECK(cudaStreamSynchronize(stream_));
    return host[2].iteration;
  }

  const BaSolverOptions& options_;
  Buffers& buffers_;
  cudaStream_t stream_;
  cudaEvent_t* pcg_events_;  // two
  BaDeviceData d_;
  double *poses_ = nullptr, *camera_params_ = nullptr, *points_ = nullptr;  // current
  double *candidate_poses_ = nullptr, *candidate_params_ = nullptr, *candidate_points_ = nullptr;
  double *u_ = nullptr, *y_p_ = nullptr, *t_p_ = nullptr, *delta_p_ = nullptr;
  double *delta_c_ = nullptr, *b_ = nullptr, *r_ = nullptr, *z_ = nullptr, *p_ = nullptr,
         *q_ = nullptr;
  double parameter_norm_ = -1;  // of the current parameters; < 0: not computed
};

}  // namespace

struct BundleAdjusterGpu::Impl {
  int device = 0;
  cudaStream_t stream = nullptr;
  cudaEvent_t start = nullptr, stop = nullptr;
  cudaEvent_t pcg_events[2] = {nullptr, nullptr};
  Buffers buffers;
  BaSolverOptions options;              // of the loaded problem; the backend refers to it
  std::unique_ptr<GpuBackend> backend;  // of the loaded problem
  float last_solve_ms = 0;

  GpuBackend& Loaded() {
    PROJ_CHECK(backend != nullptr, "BundleAdjusterGpu: no problem loaded");
    return *backend;
  }
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
  for (cudaEvent_t& event : impl_->pcg_events) {
    PROJ_CUDA_CHECK(cudaEventCreateWithFlags(&event, cudaEventDisableTiming));
  }
}

BundleAdjusterGpu::~BundleAdjusterGpu() {
  impl_->backend.reset();
  if (impl_->stream != nullptr) {
    // Unchecked: a destructor must not throw (it also runs after a GpuError).
    cudaStreamSynchronize(impl_->stream);
    cudaEventDestroy(impl_->start);
    cudaEventDestroy(impl_->stop);
    for (cudaEvent_t event : impl_->pcg_events) cudaEventDestroy(event);
    cudaStreamDestroy(impl_->stream);
  }
}

void BundleAdjusterGpu::Load(const BaSolverOptions& options, const BaProblem& problem,
                             const BaLayout& layout) {
  options.Check();
  problem.Check();
  PROJ_REQUIRE(layout.order.size() == static_cast<size_t>(problem.num_observations()) &&
                   layout.image_offsets.size() == static_cast<size_t>(problem.num_images()) + 1 &&
                   layout.point_offsets.size() == static_cast<size_t>(problem.num_points()) + 1,
               "BundleAdjusterGpu::Load: the layout is not the problem's");
  impl_->backend.reset();
  impl_->options = options;
  PROJ_CUDA_CHECK(cudaSetDevice(impl_->device));
  PROJ_CUDA_CHECK(cudaEventRecord(impl_->start, impl_->stream));
  impl_->backend = std::make_unique<GpuBackend>(impl_->options, problem, layout, &impl_->buffers,
                                                impl_->stream, impl_->pcg_events);
}

bool BundleAdjusterGpu::Linearize(double* cost, double* gradient_max_norm) {
  return impl_->Loaded().Linearize(cost, gradient_max_norm);
}
BaStep BundleAdjusterGpu::ComputeStep(double mu) { return impl_->Loaded().ComputeStep(mu); }
bool BundleAdjusterGpu::EvaluateCandidate(double* cost) {
  return impl_->Loaded().EvaluateCandidate(cost);
}
void BundleAdjusterGpu::AcceptCandidate() { impl_->Loaded().AcceptCandidate(); }
double BundleAdjusterGpu::ParameterNorm() { return impl_->Loaded().ParameterNorm(); }

void BundleAdjusterGpu::Download(BaProblem* problem) {
  PROJ_CHECK(problem != nullptr, "problem is null");
  impl_->Loaded().DownloadParameters(problem);
  PROJ_CUDA_CHECK(cudaEventRecord(impl_->stop, impl_->stream));
  PROJ_CUDA_CHECK(cudaEventSynchronize(impl_->stop));
  PROJ_CUDA_CHECK(cudaEventElapsedTime(&impl_->last_solve_ms, impl_->start, impl_->stop));
}

float BundleAdjusterGpu::last_solve_ms() const { return impl_->last_solve_ms; }
int BundleAdjusterGpu::device() const { return impl_->device; }

}  // namespace proj::cuda
