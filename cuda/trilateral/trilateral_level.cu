#include "cuda/trilateral/trilateral_level.cuh"

#include "core/check.h"
#include "cuda/cuda_check.cuh"
#include "cuda/device_memory.cuh"
#include "cuda/trilateral/trilateral_pipeline.cuh"

namespace proj::cuda {
namespace {

constexpr size_t kAlignment = 256;

size_t Aligned(size_t bytes) { return (bytes + kAlignment - 1) / kAlignment * kAlignment; }

}  // namespace

void TrilateralSmoothLevel(const LevelSmoothArgs& args, float sigma_c_scale) {
  PROJ_CHECK(args.base != nullptr && args.out != nullptr && args.base != args.out,
             "TrilateralSmoothLevel needs distinct base and output planes");
  TrilateralGpuOptions options;
  options.sigma_c = static_cast<double>(sigma_c_scale > 0 ? sigma_c_scale : 1.0f) * args.target_sigma;
  const trilateral::Plan plan = trilateral::MakePlan(args.width, args.height, options);
  const size_t count = plan.count;
  const size_t sizes[] = {
      5 * count * sizeof(float),                 // gx, gy, g, smoothed gx, smoothed gy
      3 * count,                                 // level, keys in, keys out
      2 * count * sizeof(int),                   // order in, order out
      trilateral::kMaxLevels * sizeof(unsigned),  // level histogram
      sizeof(trilateral::RangeParams),
      plan.sort_bytes,
      plan.stack_floats * sizeof(float)};            // min-max stack (published method)
  size_t total = 0;
  for (size_t bytes : sizes) total += Aligned(bytes);
  char* block = nullptr;
  PROJ_CUDA_CHECK(DeviceMallocAsync(&block, total, args.stream));
  char* cursor = block;
  auto take = [&](size_t bytes) {
    char* start = cursor;
    cursor += Aligned(bytes);
    return start;
  };
  trilateral::Workspace ws;
  float* planes = reinterpret_cast<float*>(take(sizes[0]));
  ws.gx = planes;
  ws.gy = planes + count;
  ws.g = planes + 2 * count;
  ws.smoothed_gx = planes + 3 * count;
  ws.smoothed_gy = planes + 4 * count;
  uint8_t* bytes = reinterpret_cast<uint8_t*>(take(sizes[1]));
  ws.level = bytes;
  ws.keys_in = bytes + count;
  ws.keys_out = bytes + 2 * count;
  int* order = reinterpret_cast<int*>(take(sizes[2]));
  ws.order_in = order;
  ws.order_out = order + count;
  ws.counts = reinterpret_cast<unsigned*>(take(sizes[3]));
  ws.range = reinterpret_cast<trilateral::RangeParams*>(take(sizes[4]));
  ws.sort_temp = take(sizes[5]);
  if (plan.published) ws.stack = reinterpret_cast<float*>(take(sizes[6]));

  int detail_blocks = 0;  // only the warp schedule's persistent grid needs a size
  if (!plan.published && options.detail_schedule == TrilateralDetailSchedule::kWarpAndThread) {
    int device = 0, num_sms = 1;
    PROJ_CUDA_CHECK(cudaGetDevice(&device));
    PROJ_CUDA_CHECK(cudaDeviceGetAttribute(&num_sms, cudaDevAttrMultiProcessorCount, device));
    detail_blocks = num_sms * trilateral::DetailOptimizedBlocksPerSm();
  }
  trilateral::Enqueue(plan, ws, options, args.base, args.out, args.stream, args.stream, nullptr,
                      detail_blocks);
  PROJ_CUDA_CHECK(DeviceFreeAsync(block, total, args.stream));
}

}  // namespace proj::cuda
