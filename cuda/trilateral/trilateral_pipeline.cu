#include "cuda/trilateral/trilateral_pipeline.cuh"

#include <cub/device/device_radix_sort.cuh>

#include <algorithm>

#include "core/check.h"
#include "cuda/cuda_check.cuh"
#include "cuda/trilateral/trilateral_shared.h"

namespace proj::cuda::trilateral {
namespace {

void Record(cudaEvent_t* events, PipelineEvent event, cudaStream_t stream) {
  if (events != nullptr) PROJ_CUDA_CHECK(cudaEventRecord(events[event], stream));
}

}  // namespace

Plan MakePlan(int width, int height, const TrilateralGpuOptions& options) {
  options.Check();
  PROJ_REQUIRE(width > 0 && height > 0 && static_cast<long long>(width) * height < (1LL << 31),
               "trilateral filter: bad image size for the GPU path (" << width << "x" << height
                                                                      << ")");
  Plan plan;
  plan.width = width;
  plan.height = height;
  plan.count = width * height;
  plan.level_max = options.level_max_override > 0 ? options.level_max_override
                                                   : proj::trilateral::LevelMax(width, height);
  plan.half_window = proj::trilateral::GradientHalfWindow(options.sigma_c);
  plan.max_radius = plan.level_max >= 2 ? 1 << (plan.level_max - 2) : 0;
  if (options.trunc_radius > 0) plan.max_radius = std::min(plan.max_radius, options.trunc_radius);
  plan.domain_coeff = static_cast<float>(1.0 / (2.0 * options.sigma_c * options.sigma_c));
  plan.published = options.method == TrilateralGpuMethod::kPublished;
  plan.disk_cut = DiskCutSquared(plan.domain_coeff, options.fast_math,
                                 static_cast<float>(options.domain_cut_sigmas), plan.max_radius);
  plan.disk_rows = DiskRows(plan.disk_cut, plan.max_radius);
  plan.stack_floats = plan.published ? 2 * static_cast<size_t>(plan.level_max) * plan.count : 0;
  PROJ_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(
      nullptr, plan.sort_bytes, static_cast<const uint8_t*>(nullptr), static_cast<uint8_t*>(nullptr),
      static_cast<const int*>(nullptr), static_cast<int*>(nullptr), plan.count, 0, 5));
  return plan;
}

void Enqueue(const Plan& plan, const Workspace& ws, const TrilateralGpuOptions& options,
             const float* image, float* output, cudaStream_t stream, cudaStream_t side_stream,
             cudaEvent_t* events, int detail_blocks) {
  const int w = plan.width, h = plan.height, n = plan.count;
  const bool fork = side_stream != stream;
  PROJ_CHECK(!fork || events != nullptr, "two-stream trilateral pipeline needs events");
  Record(events, kStart, stream);
  LaunchGradients(image, w, h, ws.gx, ws.gy, ws.g, stream);
  Record(events, kGradientsEnd, stream);
  LaunchRangeSigma(ws.g, n, static_cast<float>(options.beta),
                   static_cast<float>(options.sigma_r_override), ws.range, stream);
  Record(events, kSigmaEnd, stream);

  // §3.3 on the side stream, overlapped with §3.2 + §3.4 (independent, spec §3.4).
  if (fork) PROJ_CUDA_CHECK(cudaStreamWaitEvent(side_stream, events[kSigmaEnd], 0));
  Record(events, kFilterStart, side_stream);
  LaunchGradientFilter(ws.gx, ws.gy, ws.g, w, h, plan.half_window, plan.domain_coeff, ws.range,
                       options.constant_guard, ws.smoothed_gx, ws.smoothed_gy, side_stream);
  Record(events, kFilterEnd, side_stream);

  if (plan.published) {
    const size_t count = plan.count;
    float* stack_min = ws.stack;
    float* stack_max = ws.stack + count * plan.level_max;
    PROJ_CUDA_CHECK(cudaMemcpyAsync(stack_min, ws.g, count * sizeof(float), cudaMemcpyDeviceToDevice, stream));
    PROJ_CUDA_CHECK(cudaMemcpyAsync(stack_max, ws.g, count * sizeof(float), cudaMemcpyDeviceToDevice, stream));
    for (int k = 1; k < plan.level_max; ++k) {
      LaunchStackLevel(stack_min + (k - 1) * count, stack_max + (k - 1) * count, w, h,
                       stack_min + k * count, stack_max + k * count, stream);
    }
    Record(events, kStackEnd, stream);
    LaunchRegionFromStack(stack_min, stack_max, ws.g, w, h, plan.level_max, ws.range,
                          options.constant_guard, ws.level, stream);
  } else {
    Record(events, kStackEnd, stream);
    LaunchRegionRing(ws.g, w, h, plan.level_max, ws.range, options.constant_guard, ws.level, stream);
  }
  Record(events, kRegionEnd, stream);

  // Stable sort by level: ascending for the published method, largest first otherwise.
  LaunchLevelKeys(ws.level, n, plan.level_max, !plan.published, ws.counts, ws.keys_in,
                  ws.order_in, stream);
  size_t sort_bytes = plan.sort_bytes;
  PROJ_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(ws.sort_temp, sort_bytes, ws.keys_in, ws.keys_out,
                                                  ws.order_in, ws.order_out, n, 0, 5, stream));
  Record(events, kSortEnd, stream);
  if (fork) PROJ_CUDA_CHECK(cudaStreamWaitEvent(stream, events[kFilterEnd], 0));

  DetailArgs args;
  args.image = image;
  args.smoothed_gx = ws.smoothed_gx;
  args.smoothed_gy = ws.smoothed_gy;
  args.level = ws.level;
  args.order = ws.order_out;
  args.counts = ws.counts;
  args.range = ws.range;
  args.host_disk_cut = plan.disk_cut;
  args.host_disk_rows = plan.disk_rows;
  args.echo = ws.echo;
  args.width = w;
  args.height = h;
  args.trunc_radius = options.trunc_radius;
  args.domain_coeff = plan.domain_coeff;
  args.cut_sigmas = static_cast<float>(options.domain_cut_sigmas);
  args.constant_guard = options.constant_guard;
  args.fast_math = options.fast_math;
  args.output = output;
  if (plan.published || options.detail_schedule == TrilateralDetailSchedule::kFullWindow) {
    LaunchDetailPublished(args, stream);
  } else if (options.detail_schedule == TrilateralDetailSchedule::kThreadPerPixel) {
    LaunchDetailDiskThread(args, stream);
  } else {
    LaunchDetailOptimized(args, detail_blocks, stream);
  }
  Record(events, kDetailEnd, stream);
}

}  // namespace proj::cuda::trilateral
