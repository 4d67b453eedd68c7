// The project's SIFT on a CUDA device: the same algorithm as the CPU reference
// (features/sift/sift_cpu.h; parameters documented in features/sift/sift_params.h, which the
// features/ adapter copies into SiftGpuOptions). Host-only header (no CUDA includes).
//
// Design: one SiftGpu owns a compute stream, an upload stream, two pinned staging slots and
// every device buffer (the whole pyramid, candidate lists, outputs); buffers grow only when
// a larger image arrives, so a run over same-sized images allocates nothing per image.
// The pyramid is built with one fused kernel per level (both separable Gaussian passes
// through shared memory, DoG written by the same kernel); the last levels and the extrema
// detection of an octave overlap the next octave on a second stream; detection, refinement
// and compaction (atomics) run on the device;
// the strongest max_features are selected by a device radix sort; orientations and
// descriptors run one warp per keypoint; only the final keypoints and descriptors are
// copied back.
//
// Pipelining across images: Enqueue() stages image k + 1 in pinned memory and starts its
// upload on the upload stream, then returns; Retrieve() processes the oldest staged image
// on the compute stream and returns its features. A caller that decodes images on CPU
// threads overlaps decode, upload and compute with
//   sift.Enqueue(image[0]);
//   for (k = 0; k < n; ++k) { if (k + 1 < n) sift.Enqueue(image[k + 1]); out[k] = sift.Retrieve(); }
// At most two images may be staged and not retrieved. Not thread-safe: one thread at a time.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cuda/sift/sift_selection.h"

namespace proj::cuda {

enum class SiftGpuScaleSpace { kGaussian, kTrilateral };

// Mirrors proj::SiftParams field by field (see features/sift/sift_params.h for meanings).
struct SiftGpuOptions {
  int levels_per_octave = 3;
  float sigma0 = 1.6f;
  float assumed_blur = 0.5f;
  SiftSelection selection;  // max_features; upsample resolved per image (UpsampleFor)
  int min_octave_size_px = 16;
  float peak_threshold = 0.02f / 3;
  float prefilter_ratio = 0.8f;
  bool edge_test = true;
  float edge_ratio = 10.0f;
  int max_refinement_steps = 5;
  float orientation_window_factor = 1.5f;
  float orientation_peak_ratio = 0.8f;
  int max_orientations = 4;
  float descriptor_magnification = 3.0f;
  SiftGpuScaleSpace scale_space = SiftGpuScaleSpace::kGaussian;
  float trilateral_sigma_c = 0;  // passed to the trilateral smoother (0 = from the level)
  int max_candidates = 1 << 19;  // refined detections kept before the strongest are chosen
  void Check() const;            // throws InputError naming the field
};

// Host image, row-major, not owned. Exactly one of `pixels` (values in [0, 1]) and `bytes`
// (0..255, scaled by 1/255 on the device: 4x less to upload) is set.
struct ImageView {
  const float* pixels = nullptr;
  const uint8_t* bytes = nullptr;
  int width = 0;
  int height = 0;
};

// Keypoint in input image pixels, centre of the top-left pixel at (0.5, 0.5); same fields
// and meaning as proj::Keypoint.
struct SiftGpuKeypoint {
  float x = 0;
  float y = 0;
  float scale = 0;
  float orientation = 0;
  float response = 0;
  int octave = 0;
};

struct SiftGpuResult {
  std::vector<SiftGpuKeypoint> keypoints;  // strongest first
  std::vector<uint8_t> descriptors;        // 128 per keypoint, same layout as the CPU
};

// Device time of the stages of the last Retrieve(), in milliseconds (CUDA events).
struct SiftGpuTimings {
  float upload_ms = 0;
  float pyramid_ms = 0;  // scale space + detection + refinement
  float select_ms = 0;   // sorts, orientations
  float describe_ms = 0; // descriptors + copy back
};

class SiftGpu {
 public:
  // Throws InputError when there is no usable device, the options are invalid or ask for
  // a scale space that is not built in ("trilateral scale space not available").
  explicit SiftGpu(const SiftGpuOptions& options, int device = 0);
  ~SiftGpu();
  SiftGpu(const SiftGpu&) = delete;
  SiftGpu& operator=(const SiftGpu&) = delete;

  // Extract = Enqueue + Retrieve.
  SiftGpuResult Extract(const ImageView& image);
  void Enqueue(const ImageView& image);
  SiftGpuResult Retrieve();

  // Reserves device buffers for images up to width x height (optional; avoids the first
  // allocation happening inside a timed loop).
  void Reserve(int width, int height);
  const SiftGpuTimings& last_timings() const;
  std::string DeviceName() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace proj::cuda
