// The five steps of the trilateral filter enqueued on CUDA streams, over caller-owned device
// memory. Shared by TrilateralFilterGpu (grow-only buffers, two streams, timing events) and
// the SIFT scale-space hook (stream-ordered allocations on the SIFT stream).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "cuda/trilateral/trilateral_gpu.h"
#include "cuda/trilateral/trilateral_kernels.cuh"

namespace proj::cuda::trilateral {

// Sizes and derived parameters of one filtering.
struct Plan {
  int width = 0;
  int height = 0;
  int count = 0;             // width * height
  int level_max = 0;
  int half_window = 0;       // gradient filter, (floor(sigma_c) - 1) / 2
  int max_radius = 0;        // largest detail half-window (after trunc_radius)
  float domain_coeff = 0;    // 1 / (2 sigma_c^2)
  long long disk_cut = 0;    // optimised: taps with m^2 + n^2 > disk_cut weigh exactly 0
  int disk_rows = 0;         // optimised: rows |n| <= disk_rows hold taps
  bool published = false;
  size_t sort_bytes = 0;     // CUB temporary storage
  size_t stack_floats = 0;   // published: 2 * level_max * count
};
Plan MakePlan(int width, int height, const TrilateralGpuOptions& options);

// Device memory for one filtering (sizes from the plan; stack only for the published method).
struct Workspace {
  float* gx = nullptr;
  float* gy = nullptr;
  float* g = nullptr;
  float* smoothed_gx = nullptr;
  float* smoothed_gy = nullptr;
  float* stack = nullptr;
  uint8_t* level = nullptr;
  uint8_t* keys_in = nullptr;
  uint8_t* keys_out = nullptr;
  int* order_in = nullptr;
  int* order_out = nullptr;
  unsigned int* counts = nullptr;  // kMaxLevels
  RangeParams* range = nullptr;
  void* sort_temp = nullptr;
  long long* echo = nullptr;  // optional, 4: see DetailArgs::echo
};

// Step boundaries, recorded when Enqueue gets an event array of kNumPipelineEvents.
enum PipelineEvent {
  kStart,
  kGradientsEnd,
  kSigmaEnd,
  kStackEnd,
  kRegionEnd,
  kFilterStart,
  kFilterEnd,
  kSortEnd,
  kDetailEnd,
  kNumPipelineEvents
};

// Enqueues the whole filter: image -> output (device pointers, not aliased). The gradient
// filter runs on side_stream when it differs from stream (then `events` is required, for the
// fork and join). detail_blocks: persistent grid size of the optimised detail kernel.
void Enqueue(const Plan& plan, const Workspace& workspace, const TrilateralGpuOptions& options,
             const float* image, float* output, cudaStream_t stream, cudaStream_t side_stream,
             cudaEvent_t* events, int detail_blocks);

}  // namespace proj::cuda::trilateral
