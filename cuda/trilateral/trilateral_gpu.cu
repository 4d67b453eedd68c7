// Orchestration of the trilateral filter on the GPU: buffers, streams, events, CUB sort.
#include "cuda/trilateral/trilateral_gpu.h"

#include <algorithm>
#include <cmath>

#include "core/check.h"
#include "cuda/cuda_check.cuh"
#include "cuda/device_memory.cuh"
#include "cuda/trilateral/trilateral_pipeline.cuh"

namespace proj::cuda {
namespace {

namespace kernels = ::proj::cuda::trilateral;

// Grow-only device allocation.
template <typename T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer() {
    DeviceFree(data_, Bytes(capacity_));  // unchecked: no throw in a destructor
  }
  T* Reserve(size_t count) {
    if (count > capacity_) {
      T* old = data_;
      const size_t old_bytes = Bytes(capacity_);
      data_ = nullptr;
      capacity_ = 0;
      PROJ_CUDA_CHECK(DeviceFree(old, old_bytes));
      PROJ_CUDA_CHECK(DeviceMalloc(&data_, Bytes(count)));
      capacity_ = count;
    }
    return data_;
  }
  T* get() const { return data_; }

 private:
  static size_t Bytes(size_t count) { return std::max<size_t>(count, 1) * sizeof(T); }
  T* data_ = nullptr;
  size_t capacity_ = 0;
};

// Boundaries of the host transfers (the pipeline's own events follow).
enum TransferEvent { kUploadStart = kernels::kNumPipelineEvents, kDownloadEnd, kNumEvents };

}  // namespace

struct TrilateralFilterGpu::Impl {
  int device = 0;
  int num_sms = 1;
  int detail_blocks_per_sm = 1;
  cudaStream_t stream = nullptr;
  cudaStream_t side_stream = nullptr;
  cudaEvent_t events[kNumEvents] = {};
  bool has_run = false;
  bool host_transfers = false;
  kernels::Plan plan;

  DeviceBuffer<float> image, output, gx, gy, g, smoothed_gx, smoothed_gy, stack;
  DeviceBuffer<uint8_t> level, keys_in, keys_out, sort_temp;
  DeviceBuffer<int> order_in, order_out;
  DeviceBuffer<unsigned int> counts;
  DeviceBuffer<kernels::RangeParams> range;
  DeviceBuffer<long long> echo;

  void Run(const float* d_image, int w, int h, const TrilateralGpuOptions& options, float* d_out) {
    plan = kernels::MakePlan(w, h, options);
    const size_t count = plan.count;
    kernels::Workspace ws;
    ws.gx = gx.Reserve(count);
    ws.gy = gy.Reserve(count);
    ws.g = g.Reserve(count);
    ws.smoothed_gx = smoothed_gx.Reserve(count);
    ws.smoothed_gy = smoothed_gy.Reserve(count);
    if (plan.published) ws.stack = stack.Reserve(plan.stack_floats);
    ws.level = level.Reserve(count);
    ws.keys_in = keys_in.Reserve(count);
    ws.keys_out = keys_out.Reserve(count);
    ws.order_in = order_in.Reserve(count);
    ws.order_out = order_out.Reserve(count);
    ws.counts = counts.Reserve(kernels::kMaxLevels);
    ws.range = range.Reserve(1);
    ws.sort_temp = sort_temp.Reserve(plan.sort_bytes);
    ws.echo = echo.Reserve(4);
    PROJ_CUDA_CHECK(cudaMemsetAsync(ws.echo, 0xff, 4 * sizeof(long long), stream));  // -1
    kernels::Enqueue(plan, ws, options, d_image, d_out, stream, side_stream, events,
                     num_sms * detail_blocks_per_sm);
    has_run = true;
  }
};

TrilateralFilterGpu::TrilateralFilterGpu(int device) : impl_(std::make_unique<Impl>()) {
  int count = 0;
  PROJ_REQUIRE(cudaGetDeviceCount(&count) == cudaSuccess && device >= 0 && device < count,
               "trilateral filter: CUDA device " << device << " is not usable (" << count
                                                 << " devices)");
  impl_->device = device;
  PROJ_CUDA_CHECK(cudaSetDevice(device));
  PROJ_CUDA_CHECK(cudaDeviceGetAttribute(&impl_->num_sms, cudaDevAttrMultiProcessorCount, device));
  impl_->detail_blocks_per_sm = kernels::DetailOptimizedBlocksPerSm();
  PROJ_CUDA_CHECK(cudaStreamCreateWithFlags(&impl_->stream, cudaStreamNonBlocking));
  PROJ_CUDA_CHECK(cudaStreamCreateWithFlags(&impl_->side_stream, cudaStreamNonBlocking));
  for (cudaEvent_t& event : impl_->events) PROJ_CUDA_CHECK(cudaEventCreate(&event));
}

TrilateralFilterGpu::~TrilateralFilterGpu() {
  if (!impl_) return;
  cudaSetDevice(impl_->device);
  cudaStreamSynchronize(impl_->stream);
  cudaStreamSynchronize(impl_->side_stream);
  for (cudaEvent_t event : impl_->events) cudaEventDestroy(event);
  cudaStreamDestroy(impl_->side_stream);
  cudaStreamDestroy(impl_->stream);
}

void TrilateralFilterGpu::Filter(const float* image, int width, int height,
                                 const TrilateralGpuOptions& options, float* output) {
  options.Check();
  PROJ_REQUIRE(image != nullptr && output != nullptr && width > 0 && height > 0,
               "trilateral filter: empty image or null buffer (" << width << "x" << height << ")");
  PROJ_CUDA_CHECK(cudaSetDevice(impl_->device));
  const size_t count = static_cast<size_t>(width) * height;
  float* d_image = impl_->image.Reserve(count);
  float* d_out = impl_->output.Reserve(count);
  PROJ_CUDA_CHECK(cudaEventRecord(impl_->events[kUploadStart], impl_->stream));
  PROJ_CUDA_CHECK(cudaMemcpyAsync(d_image, image, count * sizeof(float), cudaMemcpyHostToDevice,
                                  impl_->stream));
  impl_->Run(d_image, width, height, options, d_out);
  PROJ_CUDA_CHECK(cudaMemcpyAsync(output, d_out, count * sizeof(float), cudaMemcpyDeviceToHost,
                                  impl_->stream));
  PROJ_CUDA_CHECK(cudaEventRecord(impl_->events[kDownloadEnd], impl_->stream));
  PROJ_CUDA_CHECK(cudaStreamSynchronize(impl_->stream));
  impl_->host_transfers = true;
}

void TrilateralFilterGpu::FilterDevice(const float* device_image, int width, int height,
                                       const TrilateralGpuOptions& options, float* device_output) {
  options.Check();
  PROJ_REQUIRE(device_image != nullptr && device_output != nullptr && width > 0 && height > 0 &&
                   device_image != device_output,
               "trilateral filter: bad device buffers (" << width << "x" << height << ")");
  PROJ_CUDA_CHECK(cudaSetDevice(impl_->device));
  impl_->Run(device_image, width, height, options, device_output);
  impl_->host_transfers = false;
}

void* TrilateralFilterGpu::Stream() const { return impl_->stream; }

TrilateralGpuStepTimes TrilateralFilterGpu::LastStepTimes() const {
  TrilateralGpuStepTimes times;
  if (!impl_->has_run) return times;
  PROJ_CUDA_CHECK(cudaStreamSynchronize(impl_->stream));
  using kernels::kStart;
  using kernels::kGradientsEnd;
  using kernels::kSigmaEnd;
  using kernels::kStackEnd;
  using kernels::kRegionEnd;
  using kernels::kFilterStart;
  using kernels::kFilterEnd;
  using kernels::kSortEnd;
  using kernels::kDetailEnd;
  const cudaEvent_t* e = impl_->events;
  auto elapsed = [&](int from, int to) {
    float ms = 0;
    PROJ_CUDA_CHECK(cudaEventElapsedTime(&ms, e[from], e[to]));
    return ms;
  };
  times.gradients_ms = elapsed(kStart, kGradientsEnd);
  times.range_sigma_ms = elapsed(kGradientsEnd, kSigmaEnd);
  times.stack_ms = elapsed(kSigmaEnd, kStackEnd);
  times.region_ms = elapsed(kStackEnd, kRegionEnd);
  times.gradient_filter_ms = elapsed(kFilterStart, kFilterEnd);
  times.sort_ms = elapsed(kRegionEnd, kSortEnd);
  // The detail kernel starts after both the sort and the gradient filter.
  const float filter_end = elapsed(kStart, kFilterEnd);
  const float sort_end = elapsed(kStart, kSortEnd);
  times.total_ms = elapsed(kStart, kDetailEnd);
  times.detail_ms = times.total_ms - std::max(filter_end, sort_end);
  if (impl_->host_transfers) {
    times.upload_ms = elapsed(kUploadStart, kStart);
    times.download_ms = elapsed(kDetailEnd, kDownloadEnd);
  }
  return times;
}

TrilateralGpuDiagnostics TrilateralFilterGpu::LastDiagnostics() const {
  TrilateralGpuDiagnostics diagnostics;
  if (!impl_->has_run) return diagnostics;
  PROJ_CUDA_CHECK(cudaSetDevice(impl_->device));
  PROJ_CUDA_CHECK(cudaStreamSynchronize(impl_->stream));
  const size_t count = impl_->plan.count;
  auto download = [&](const float* source, std::vector<float>* target) {
    target->resize(count);
    PROJ_CUDA_CHECK(cudaMemcpy(target->data(), source, count * sizeof(float), cudaMemcpyDeviceToHost));
  };
  download(impl_->gx.get(), &diagnostics.gx);
  download(impl_->gy.get(), &diagnostics.gy);
  download(impl_->g.get(), &diagnostics.g);
  download(impl_->smoothed_gx.get(), &diagnostics.smoothed_gx);
  download(impl_->smoothed_gy.get(), &diagnostics.smoothed_gy);
  diagnostics.level.resize(count);
  PROJ_CUDA_CHECK(cudaMemcpy(diagnostics.level.data(), impl_->level.get(), count, cudaMemcpyDeviceToHost));
  diagnostics.order.resize(count);
  PROJ_CUDA_CHECK(cudaMemcpy(diagnostics.order.data(), impl_->order_out.get(), count * sizeof(int),
                             cudaMemcpyDeviceToHost));
  diagnostics.level_counts.resize(kernels::kMaxLevels);
  PROJ_CUDA_CHECK(cudaMemcpy(diagnostics.level_counts.data(), impl_->counts.get(),
                             kernels::kMaxLevels * sizeof(unsigned int), cudaMemcpyDeviceToHost));
  kernels::RangeParams range;
  PROJ_CUDA_CHECK(cudaMemcpy(&range, impl_->range.get(), sizeof(range), cudaMemcpyDeviceToHost));
  diagnostics.sigma_r = range.sigma_r;
  diagnostics.plan_disk_cut = impl_->plan.disk_cut;
  diagnostics.plan_disk_rows = impl_->plan.disk_rows;
  diagnostics.detail_disk_echo.resize(4);
  PROJ_CUDA_CHECK(cudaMemcpy(diagnostics.detail_disk_echo.data(), impl_->echo.get(),
                             4 * sizeof(long long), cudaMemcpyDeviceToHost));
  diagnostics.level_max = impl_->plan.level_max;
  return diagnostics;
}

}  // namespace proj::cuda
