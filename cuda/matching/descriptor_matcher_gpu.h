// Brute-force SIFT descriptor matching on a CUDA device. Host-only header.
//
// Descriptors (uint8, 128 per feature, the SIFT convention) are uploaded once per image and
// kept on the device as RootSIFT (L1 normalise, square root: unit L2 norm; or plain L2
// normalised SIFT) in FP16. For a
// pair (A, B) a fused tensor-core kernel (mma.sync m16n8k16, FP16 in, FP32 accumulate)
// computes every dot product A_i . B_j tile by tile and keeps, per row, the best and second
// best without ever writing the distance matrix; the same kernel run as (B, A) gives the
// column-wise best. A final kernel applies Lowe's ratio test on L2 distances
// (d^2 = 2 - 2 dot) of each row of set 1 and the mutual nearest-neighbour (cross) check,
// the same rule as the CPU matcher (matching/cpu_descriptor_matcher.h). Many pairs (both
// directions each) are processed in one launch, so small images do not starve the GPU.
// Ties between equal dot products keep the lower index.
//
// Not thread-safe: one thread at a time per instance.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace proj::cuda {

struct GpuMatchOptions {
  float max_ratio = 0.8f;  // best / second-best L2 distance must be below this
  bool cross_check = true; // keep (i, j) only when i is also the nearest neighbour of j
};

struct GpuMatch {
  int index1 = -1;
  int index2 = -1;
};

// Device time of the last MatchPairs call, in milliseconds.
struct GpuMatchTimings {
  float match_ms = 0;  // best-two kernels + ratio/cross-check + copy back
};

class DescriptorMatcherGpu {
 public:
  // Throws InputError without a usable device.
  explicit DescriptorMatcherGpu(int device = 0);
  ~DescriptorMatcherGpu();
  DescriptorMatcherGpu(const DescriptorMatcherGpu&) = delete;
  DescriptorMatcherGpu& operator=(const DescriptorMatcherGpu&) = delete;

  // Uploads `count` descriptors (count x 128 bytes, host), converted to RootSIFT (or, with
  // root_sift false, L2-normalised), and returns their set id.
  int AddDescriptors(const uint8_t* descriptors, int count, bool root_sift = true);
  // Frees every uploaded set (ids restart at 0).
  void Clear();
  int NumSets() const;

  // Matches each (set1, set2) pair; result[p] lists the matches of pairs[p] sorted by
  // index1. Pairs are processed in batches sized to device memory.
  std::vector<std::vector<GpuMatch>> MatchPairs(const std::vector<std::pair<int, int>>& pairs,
                                                const GpuMatchOptions& options);

  const GpuMatchTimings& last_timings() const;
  std::string DeviceName() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace proj::cuda
