#include "cuda/matching/descriptor_matcher_gpu.h"

#include <cuda_fp16.h>

#include <algorithm>

#include "core/check.h"
#include "cuda/cuda_check.cuh"
#include "cuda/device.h"
#include "cuda/sift/device_buffer.cuh"

namespace proj::cuda {
namespace {

constexpr int kDims = 128;
constexpr int kRowsPerWarp = 32;              // two m16 tiles
constexpr int kWarps = 4;
constexpr int kRowsPerBlock = kRowsPerWarp * kWarps;
constexpr int kTileColumns = 64;              // B rows per shared-memory tile
constexpr int kTileStride = kDims + 8;        // halves; +16 bytes avoids bank conflicts
constexpr int kRowPadding = kRowsPerBlock;    // sets are padded with zero rows to this multiple
constexpr float kNoSecond = -1.0f;            // RootSIFT dots are >= 0; d^2 = 4 for the sentinel

struct BestTwo {
  int index;
  float best;
  float second;
};

// One direction of one pair: best two columns of B for every row of A.
struct BestTwoJob {
  const __half* a;
  const __half* b;
  int na;
  int nb;
  BestTwo* out;
};

struct FinalizeJob {
  const BestTwo* forward;   // rows of set 1
  const BestTwo* backward;  // rows of set 2
  int n1;
  int* matches;             // n1 entries: index in set 2 or -1
};

// RootSIFT (L1 normalise, square root) or plain L2 normalisation; unit L2 norm either way.
__global__ void NormalizeKernel(const uint8_t* descriptors, int count, bool root_sift, __half* out) {
  const int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const int lane = threadIdx.x % 32;
  if (warp >= count) return;
  const uint32_t packed = reinterpret_cast<const uint32_t*>(descriptors + static_cast<size_t>(warp) * kDims)[lane];
  float v[4];
  float sum = 0;
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    v[i] = static_cast<float>((packed >> (8 * i)) & 0xFFu);
    sum += v[i];
  }
  if (!root_sift) {
    sum = 0;
#pragma unroll
    for (int i = 0; i < 4; ++i) sum += v[i] * v[i];
  }
  for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_xor_sync(0xffffffffu, sum, offset);
  if (!root_sift) sum = sqrtf(sum);
  const float scale = sum > 0 ? 1.0f / sum : 0.0f;
#pragma unroll
  for (int i = 0; i < 4; ++i) v[i] = root_sift ? sqrtf(v[i] * scale) : v[i] * scale;
  __half2 h01 = __floats2half2_rn(v[0], v[1]);
  __half2 h23 = __floats2half2_rn(v[2], v[3]);
  __half2* dst = reinterpret_cast<__half2*>(out + static_cast<size_t>(warp) * kDims + 4 * lane);
  dst[0] = h01;
  dst[1] = h23;
}

__device__ __forceinline__ void Mma(const uint32_t a[4], uint32_t b0, uint32_t b1, float c[4]) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
      "{%8,%9}, {%0,%1,%2,%3};\n"
      : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

__device__ __forceinline__ void Update(float v, int j, float& best, int& index, float& second) {
  if (v > best) {
    second = best;
    best = v;
    index = j;
  } else if (v > second) {
    second = v;
  }
}

__device__ __forceinline__ void LoadTileAsync(__half* tile, const __half* b, int first_row) {
  // 64 rows x 16 chunks of 16 bytes, 8 chunks per thread.
  for (int chunk = threadIdx.x; chunk < kTileColumns * 16; chunk += blockDim.x) {
    const int row = chunk / 16, part = chunk % 16;
    const __half* src = b + static_cast<size_t>(first_row + row) * kDims + part * 8;
    const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(tile + row * kTileStride + part * 8));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst), "l"(src));
  }
  asm volatile("cp.async.commit_group;\n" ::);
}

// Best two dot products per row of A against all rows of B (see the header). Block: 4
// warps x 32 rows; A fragments live in registers for the whole sweep over B, B tiles are
// double-buffered in shared memory through cp.async.
__global__ void __launch_bounds__(kWarps * 32) BestTwoKernel(const BestTwoJob* jobs) {
  __shared__ __align__(16) __half tiles[2][kTileColumns * kTileStride];
  const BestTwoJob job = jobs[blockIdx.y];
  const int block_row = blockIdx.x * kRowsPerBlock;
  if (block_row >= job.na) return;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int g = lane / 4, q = lane % 4;
  const int warp_row = block_row + warp * kRowsPerWarp;

  uint32_t a[2][8][4];
#pragma unroll
  for (int m = 0; m < 2; ++m) {
    const uint32_t* row0 = reinterpret_cast<const uint32_t*>(job.a + static_cast<size_t>(warp_row + m * 16 + g) * kDims);
    const uint32_t* row8 = row0 + 8 * kDims / 2;
#pragma unroll
    for (int ks = 0; ks < 8; ++ks) {
      a[m][ks][0] = row0[ks * 8 + q];
      a[m][ks][1] = row8[ks * 8 + q];
      a[m][ks][2] = row0[ks * 8 + 4 + q];
      a[m][ks][3] = row8[ks * 8 + 4 + q];
    }
  }
  float best[4], second[4];
  int index[4];
#pragma unroll
  for (int r = 0; r < 4; ++r) {
    best[r] = kNoSecond;
    second[r] = kNoSecond;
    index[r] = -1;
  }

  const int num_tiles = (job.nb + kTileColumns - 1) / kTileColumns;
  if (num_tiles > 0) LoadTileAsync(tiles[0], job.b, 0);
  for (int t = 0; t < num_tiles; ++t) {
    if (t + 1 < num_tiles) {
      LoadTileAsync(tiles[(t + 1) & 1], job.b, (t + 1) * kTileColumns);
      asm volatile("cp.async.wait_group 1;\n" ::);
    } else {
      asm volatile("cp.async.wait_group 0;\n" ::);
    }
    __syncthreads();
    const uint32_t* tile = reinterpret_cast<const uint32_t*>(tiles[t & 1]);
#pragma unroll 2
    for (int chunk = 0; chunk < kTileColumns / 8; ++chunk) {
      float c[2][4] = {};
      const uint32_t* brow = tile + (chunk * 8 + g) * (kTileStride / 2);
#pragma unroll
      for (int ks = 0; ks < 8; ++ks) {
        const uint32_t b0 = brow[ks * 8 + q];
        const uint32_t b1 = brow[ks * 8 + 4 + q];
        Mma(a[0][ks], b0, b1, c[0]);
        Mma(a[1][ks], b0, b1, c[1]);
      }
      const int j0 = t * kTileColumns + chunk * 8 + 2 * q;
      if (j0 < job.nb) {
        Update(c[0][0], j0, best[0], index[0], second[0]);
        Update(c[0][2], j0, best[1], index[1], second[1]);
        Update(c[1][0], j0, best[2], index[2], second[2]);
        Update(c[1][2], j0, best[3], index[3], second[3]);
      }
      if (j0 + 1 < job.nb) {
        Update(c[0][1], j0 + 1, best[0], index[0], second[0]);
        Update(c[0][3], j0 + 1, best[1], index[1], second[1]);
        Update(c[1][1], j0 + 1, best[2], index[2], second[2]);
        Update(c[1][3], j0 + 1, best[3], index[3], second[3]);
      }
    }
    __syncthreads();
  }
  // Merge the four lanes of each quad (same rows, different columns).
#pragma unroll
  for (int r = 0; r < 4; ++r) {
#pragma unroll
    for (int offset = 1; offset <= 2; offset *= 2) {
      const float other_best = __shfl_xor_sync(0xffffffffu, best[r], offset);
      const float other_second = __shfl_xor_sync(0xffffffffu, second[r], offset);
      const int other_index = __shfl_xor_sync(0xffffffffu, index[r], offset);
      if (other_best > best[r] || (other_best == best[r] && other_index >= 0 &&
                                   (index[r] < 0 || other_index < index[r]))) {
        second[r] = fmaxf(best[r], other_second);
        best[r] = other_best;
        index[r] = other_index;
      } else {
        second[r] = fmaxf(second[r], other_best);
      }
    }
  }
  if (q != 0) return;
#pragma unroll
  for (int r = 0; r < 4; ++r) {
    const int row = warp_row + (r / 2) * 16 + (r % 2) * 8 + g;
    if (row < job.na) job.out[row] = {index[r], best[r], second[r]};
  }
}

__device__ bool PassesRatio(const BestTwo& r, float max_ratio_squared) {
  if (r.index < 0) return false;
  const float d1 = fmaxf(0.0f, 2.0f - 2.0f * r.best);
  const float d2 = fmaxf(0.0f, 2.0f - 2.0f * r.second);
  return d1 < max_ratio_squared * d2;
}

__global__ void FinalizeKernel(const FinalizeJob* jobs, float max_ratio_squared, bool cross_check) {
  const FinalizeJob job = jobs[blockIdx.y];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= job.n1) return;
  const BestTwo r = job.forward[i];
  bool pass = PassesRatio(r, max_ratio_squared);
  if (pass && cross_check) {
    pass = job.backward[r.index].index == i;
  }
  job.matches[i] = pass ? r.index : -1;
}

size_t Padded(int count) { return (static_cast<size_t>(count) + kRowPadding - 1) / kRowPadding * kRowPadding; }

}  // namespace

struct DescriptorMatcherGpu::Impl {
  int device = 0;
  std::string device_name;
  cudaStream_t stream = nullptr;
  cudaEvent_t start = nullptr, stop = nullptr;
  std::vector<std::unique_ptr<DeviceBuffer<__half>>> sets;
  std::vector<int> counts;
  DeviceBuffer<uint8_t> staging;
  DeviceBuffer<BestTwo> best_two;
  DeviceBuffer<int> matches;
  DeviceBuffer<BestTwoJob> best_two_jobs;
  DeviceBuffer<FinalizeJob> finalize_jobs;
  PinnedBuffer<int> host_matches;
  PinnedBuffer<BestTwoJob> host_best_two_jobs;
  PinnedBuffer<FinalizeJob> host_finalize_jobs;
  GpuMatchTimings timings;
};

DescriptorMatcherGpu::DescriptorMatcherGpu(int device) : impl_(std::make_unique<Impl>()) {
  PROJ_REQUIRE(DeviceAvailable(), "GPU matching needs a CUDA device: " << DeviceDescription());
  Impl& m = *impl_;
  m.device = device;
  PROJ_CUDA_CHECK(cudaSetDevice(device));
  cudaDeviceProp prop{};
  PROJ_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
  m.device_name = prop.name;
  PROJ_CUDA_CHECK(cudaStreamCreateWithFlags(&m.stream, cudaStreamNonBlocking));
  PROJ_CUDA_CHECK(cudaEventCreate(&m.start));
  PROJ_CUDA_CHECK(cudaEventCreate(&m.stop));
}

DescriptorMatcherGpu::~DescriptorMatcherGpu() {
  if (!impl_) return;
  cudaSetDevice(impl_->device);  // the buffers are freed on their device, whatever the thread's
  cudaStreamSynchronize(impl_->stream);
  cudaEventDestroy(impl_->start);
  cudaEventDestroy(impl_->stop);
  cudaStreamDestroy(impl_->stream);
}

int DescriptorMatcherGpu::AddDescriptors(const uint8_t* descriptors, int count, bool root_sift) {
  Impl& m = *impl_;
  PROJ_REQUIRE(count >= 0 && (count == 0 || descriptors != nullptr),
               "AddDescriptors: bad descriptor array (count " << count << ")");
  PROJ_CUDA_CHECK(cudaSetDevice(m.device));
  const size_t rows = Padded(std::max(count, 1));
  auto set = std::make_unique<DeviceBuffer<__half>>(rows * kDims);
  PROJ_CUDA_CHECK(cudaMemsetAsync(set->data(), 0, rows * kDims * sizeof(__half), m.stream));
  if (count > 0) {
    m.staging.Reserve(static_cast<size_t>(count) * kDims);
    PROJ_CUDA_CHECK(cudaMemcpyAsync(m.staging.data(), descriptors, static_cast<size_t>(count) * kDims,
                                    cudaMemcpyHostToDevice, m.stream));
    NormalizeKernel<<<(count + 7) / 8, 256, 0, m.stream>>>(m.staging.data(), count, root_sift,
                                                          set->data());
    PROJ_CUDA_CHECK(cudaGetLastError());
  }
  // The staging buffer is reused by the next call.
  PROJ_CUDA_CHECK(cudaStreamSynchronize(m.stream));
  m.sets.push_back(std::move(set));
  m.counts.push_back(count);
  return static_cast<int>(m.sets.size()) - 1;
}

void DescriptorMatcherGpu::Clear() {
  PROJ_CUDA_CHECK(cudaSetDevice(impl_->device));
  impl_->sets.clear();
  impl_->counts.clear();
}

int DescriptorMatcherGpu::NumSets() const { return static_cast<int>(impl_->sets.size()); }

std::vector<std::vector<GpuMatch>> DescriptorMatcherGpu::MatchPairs(
    const std::vector<std::pair<int, int>>& pairs, const GpuMatchOptions& options) {
  Impl& m = *impl_;
  PROJ_REQUIRE(options.max_ratio > 0 && options.max_ratio <= 1, "matching ratio must be in (0, 1]");
  PROJ_CUDA_CHECK(cudaSetDevice(m.device));
  for (const auto& pair : pairs) {
    PROJ_REQUIRE(pair.first >= 0 && pair.first < NumSets() && pair.second >= 0 &&
                     pair.second < NumSets(),
                 "MatchPairs: unknown descriptor set in pair (" << pair.first << ", "
                                                                << pair.second << ")");
  }
  std::vector<std::vector<GpuMatch>> result(pairs.size());
  constexpr size_t kMaxBatchRows = size_t{1} << 22;  // 48 MiB of BestTwo
  constexpr size_t kMaxBatchPairs = 16384;            // grid.y <= 65535 (2 jobs per pair)
  float total_ms = 0;
  size_t begin = 0;
  while (begin < pairs.size()) {
    // Batch: as many pairs as fit in kMaxBatchRows rows (at least one).
    size_t end = begin, rows = 0, rows1 = 0;
    while (end < pairs.size() && end - begin < kMaxBatchPairs) {
      const size_t r = Padded(m.counts[pairs[end].first]) + Padded(m.counts[pairs[end].second]);
      if (end > begin && rows + r > kMaxBatchRows) break;
      rows += r;
      rows1 += m.counts[pairs[end].first];
      ++end;
    }
    const size_t num_pairs = end - begin;
    m.best_two.Reserve(rows);
    m.matches.Reserve(std::max<size_t>(rows1, 1));
    m.host_matches.Reserve(std::max<size_t>(rows1, 1));
    m.best_two_jobs.Reserve(2 * num_pairs);
    m.finalize_jobs.Reserve(num_pairs);
    m.host_best_two_jobs.Reserve(2 * num_pairs);
    m.host_finalize_jobs.Reserve(num_pairs);
    size_t row_offset = 0, match_offset = 0;
    int max_rows = 1, max_n1 = 1;
    for (size_t p = 0; p < num_pairs; ++p) {
      const int s1 = pairs[begin + p].first, s2 = pairs[begin + p].second;
      const int n1 = m.counts[s1], n2 = m.counts[s2];
      const __half* d1 = m.sets[s1]->data();
      const __half* d2 = m.sets[s2]->data();
      BestTwo* forward = m.best_two.data() + row_offset;
      BestTwo* backward = forward + Padded(n1);
      row_offset += Padded(n1) + Padded(n2);
      m.host_best_two_jobs.data()[2 * p] = {d1, d2, n1, n2, forward};
      m.host_best_two_jobs.data()[2 * p + 1] = {d2, d1, n2, n1, backward};
      m.host_finalize_jobs.data()[p] = {forward, backward, n1, m.matches.data() + match_offset};
      match_offset += n1;
      max_rows = std::max({max_rows, n1, n2});
      max_n1 = std::max(max_n1, n1);
    }
    // The backward pass is only needed for the cross check.
    const int jobs_per_pair = 2;
    PROJ_CUDA_CHECK(cudaEventRecord(m.start, m.stream));
    PROJ_CUDA_CHECK(cudaMemcpyAsync(m.best_two_jobs.data(), m.host_best_two_jobs.data(),
                                    sizeof(BestTwoJob) * jobs_per_pair * num_pairs,
                                    cudaMemcpyHostToDevice, m.stream));
    PROJ_CUDA_CHECK(cudaMemcpyAsync(m.finalize_jobs.data(), m.host_finalize_jobs.data(),
                                    sizeof(FinalizeJob) * num_pairs, cudaMemcpyHostToDevice,
                                    m.stream));
    const dim3 grid((max_rows + kRowsPerBlock - 1) / kRowsPerBlock,
                    static_cast<unsigned>(jobs_per_pair * num_pairs));
    BestTwoKernel<<<grid, kWarps * 32, 0, m.stream>>>(m.best_two_jobs.data());
    PROJ_CUDA_CHECK(cudaGetLastError());
    const dim3 finalize_grid((max_n1 + 255) / 256, static_cast<unsigned>(num_pairs));
    FinalizeKernel<<<finalize_grid, 256, 0, m.stream>>>(
        m.finalize_jobs.data(), options.max_ratio * options.max_ratio, options.cross_check);
    PROJ_CUDA_CHECK(cudaGetLastError());
    if (match_offset > 0) {
      PROJ_CUDA_CHECK(cudaMemcpyAsync(m.host_matches.data(), m.matches.data(),
                                      sizeof(int) * match_offset, cudaMemcpyDeviceToHost, m.stream));
    }
    PROJ_CUDA_CHECK(cudaEventRecord(m.stop, m.stream));
    PROJ_CUDA_CHECK(cudaStreamSynchronize(m.stream));
    float ms = 0;
    PROJ_CUDA_CHECK(cudaEventElapsedTime(&ms, m.start, m.stop));
    total_ms += ms;
    match_offset = 0;
    for (size_t p = 0; p < num_pairs; ++p) {
      const int n1 = m.counts[pairs[begin + p].first];
      std::vector<GpuMatch>& out = result[begin + p];
      const int* row = m.host_matches.data() + match_offset;
      for (int i = 0; i < n1; ++i) {
        if (row[i] >= 0) out.push_back({i, row[i]});
      }
      match_offset += n1;
    }
    begin = end;
  }
  m.timings.match_ms = total_ms;
  return result;
}

const GpuMatchTimings& DescriptorMatcherGpu::last_timings() const { return impl_->timings; }

std::string DescriptorMatcherGpu::DeviceName() const { return impl_->device_name; }

}  // namespace proj::cuda
