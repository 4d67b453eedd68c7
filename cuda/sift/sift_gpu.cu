#include "cuda/sift/sift_gpu.h"

#include <cub/device/device_radix_sort.cuh>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/check.h"
#include "core/logging.h"
#include "cuda/cuda_check.cuh"
#include "cuda/device.h"
#include "cuda/sift/device_buffer.cuh"
#include "cuda/sift/scale_space_gpu.cuh"
#include "cuda/sift/sift_kernels.cuh"

#ifdef PROJ_HAVE_CUDA_TRILATERAL
#include "cuda/trilateral/trilateral_level.cuh"
#endif

namespace proj::cuda {

void SiftGpuOptions::Check() const {
  PROJ_REQUIRE(levels_per_octave >= 1 && levels_per_octave + 3 <= kMaxLevels,
               "SiftGpuOptions.levels_per_octave must be in [1, " << kMaxLevels - 3 << "]");
  PROJ_REQUIRE(sigma0 > assumed_blur && assumed_blur >= 0,
               "SiftGpuOptions.sigma0 must exceed assumed_blur >= 0");
  PROJ_REQUIRE(selection.upsample >= -1 && selection.upsample <= 1,
               "SiftGpuOptions.upsample must be -1, 0 or 1");
  PROJ_REQUIRE(min_octave_size_px >= 8, "SiftGpuOptions.min_octave_size_px must be >= 8");
  PROJ_REQUIRE(edge_ratio > 1, "SiftGpuOptions.edge_ratio must be > 1");
  PROJ_REQUIRE(max_orientations >= 1, "SiftGpuOptions.max_orientations must be >= 1");
  PROJ_REQUIRE(selection.max_features > 0, "SiftGpuOptions.max_features must be > 0");
  PROJ_REQUIRE(max_candidates >= selection.max_features,
               "SiftGpuOptions.max_candidates must be >= max_features");
}

namespace {

// One staged image: pinned host copy, device copy, upload-done event.
struct StagingSlot {
  PinnedBuffer<uint8_t> host;
  DeviceBuffer<uint8_t> device;
  int width = 0;
  int height = 0;
  bool bytes = false;
  cudaEvent_t uploaded = nullptr;
  cudaEvent_t upload_start = nullptr;
};

static_assert(sizeof(SiftGpuKeypoint) % 8 == 0, "descriptors follow the keypoints, 4-byte aligned");

float LevelSigma(const SiftGpuOptions& o, int s) {
  return o.sigma0 * std::pow(2.0f, static_cast<float>(s) / o.levels_per_octave);
}

}  // namespace

struct SiftGpu::Impl {
  SiftGpuOptions options;
  int device = 0;
  std::string device_name;
  cudaStream_t compute = nullptr;
  cudaStream_t upload = nullptr;
  // The last two levels and the detection of octave o run on this stream (inside the
  // captured graph) while the compute stream goes on with octave o + 1.
  cudaStream_t detect_stream = nullptr;
  cudaEvent_t octave_done[kMaxOctaves] = {};
  cudaEvent_t detect_done = nullptr;
  StagingSlot slots[2];
  int next_enqueue = 0;
  int next_retrieve = 0;
  int pending = 0;

  DeviceBuffer<float> pyramid;
  DeviceBuffer<float> scratch;
  DeviceBuffer<GpuDetection> detections;
  DeviceBuffer<GpuOrientedKeypoint> oriented;
  DeviceBuffer<float> keys_in, keys_out;
  DeviceBuffer<int> values_in, values_out;
  DeviceBuffer<int> counters;
  DeviceBuffer<uint8_t> sort_temp;
  size_t sort_temp_bytes = 0;
  // Final results of n keypoints: n SiftGpuKeypoint, then n x 128 descriptor bytes, so that
  // one copy brings both back.
  DeviceBuffer<uint8_t> out_results;
  PinnedBuffer<uint8_t> host_results;
  PinnedBuffer<int> host_counters;
  cudaEvent_t events[4] = {};
  SiftGpuTimings timings;

  OctaveTable table;
  SiftKernelParams kernel_params;

  // The pyramid + detection launches (~100 small kernels) replayed as one CUDA graph per
  // staging slot; re-captured only when the image geometry or a buffer address changes.
  struct PyramidGraph {
    cudaGraphExec_t exec = nullptr;
    int width = 0, height = 0;
    bool bytes = false;
    const void* input = nullptr;
    const float* pyramid = nullptr;
  };
  PyramidGraph graphs[2];

  void LaunchPyramid(int slot_index) {
    StagingSlot& slot = slots[slot_index];
    PyramidGraph& g = graphs[slot_index];
    if (g.exec == nullptr || g.width != slot.width || g.height != slot.height ||
        g.bytes != slot.bytes || g.input != slot.device.data() || g.pyramid != pyramid.data()) {
      if (g.exec != nullptr) PROJ_CUDA_CHECK(cudaGraphExecDestroy(g.exec));
      cudaGraph_t graph = nullptr;
      PROJ_CUDA_CHECK(cudaStreamBeginCapture(compute, cudaStreamCaptureModeThreadLocal));
      PROJ_CUDA_CHECK(cudaMemsetAsync(counters.data(), 0, 2 * sizeof(int), compute));
      BuildPyramid(slot);
      PROJ_CUDA_CHECK(cudaStreamEndCapture(compute, &graph));
      PROJ_CUDA_CHECK(cudaGraphInstantiate(&g.exec, graph, 0));
      PROJ_CUDA_CHECK(cudaGraphDestroy(graph));
      g.width = slot.width;
      g.height = slot.height;
      g.bytes = slot.bytes;
      g.input = slot.device.data();
      g.pyramid = pyramid.data();
    }
    PROJ_CUDA_CHECK(cudaGraphLaunch(g.exec, compute));
  }

  bool Upsample(int width, int height) const {
    return options.selection.UpsampleFor(width, height);
  }

  // Octave geometry and pointers into `pyramid` for a width x height input; returns the
  // number of floats the pyramid needs (pointers are only valid when base != nullptr).
  size_t Plan(int width, int height, float* base) {
    const int S = options.levels_per_octave;
    const int first = Upsample(width, height) ? -1 : 0;
    table = OctaveTable{};
    size_t offset = 0;
    for (int o = first; table.count < kMaxOctaves; ++o) {
      const int w = o < 0 ? 2 * width : width >> o;
      const int h = o < 0 ? 2 * height : height >> o;
      if (std::min(w, h) < options.min_octave_size_px) break;
      const int slot = table.count++;
      table.index[slot] = o;
      table.width[slot] = w;
      table.height[slot] = h;
      const size_t plane = static_cast<size_t>(w) * h;
      for (int l = 0; l < S + 3; ++l, offset += plane) {
        table.gaussians[slot][l] = base != nullptr ? base + offset : nullptr;
      }
      for (int l = 0; l < S + 2; ++l, offset += plane) {
        table.dogs[slot][l] = base != nullptr ? base + offset : nullptr;
      }
    }
    return offset;
  }

  void ReserveFor(int width, int height) {
    const int first_width = Upsample(width, height) ? 2 * width : width;
    const int first_height = Upsample(width, height) ? 2 * height : height;
    pyramid.Reserve(Plan(width, height, nullptr));
    // The fused Gaussian blur needs no scratch; the trilateral smoother may.
    if (options.scale_space != SiftGpuScaleSpace::kGaussian) {
      scratch.Reserve(static_cast<size_t>(first_width) * first_height);
    }
  }

  void BuildPyramid(const StagingSlot& slot) {
    const int S = options.levels_per_octave;
    const bool upsample = table.index[0] < 0;
    const float base_sigma = LevelSigma(options, -1);
    for (int o = 0; o < table.count; ++o) {
      const int w = table.width[o], h = table.height[o];
      float* const* g = const_cast<float* const*>(table.gaussians[o]);
      float* const* dog = const_cast<float* const*>(table.dogs[o]);
      if (o == 0) {
        // The prepared input goes to level 0's slot (overwritten later), blurred into -1.
        LaunchPrepareInput(slot.device.data(), slot.bytes, slot.width, slot.height, upsample,
                           g[1], compute);
        const float input_sigma = options.assumed_blur * (upsample ? 2.0f : 1.0f);
        if (base_sigma > input_sigma + 1e-6f) {
          LaunchGaussianBlur(g[1], w, h,
                             MakeBlurTaps(std::sqrt(base_sigma * base_sigma - input_sigma * input_sigma)),
                             nullptr, g[0], nullptr, nullptr, compute);
        } else {
          PROJ_CUDA_CHECK(cudaMemcpyAsync(g[0], g[1], sizeof(float) * w * h,
                                          cudaMemcpyDeviceToDevice, compute));
        }
      } else {
        LaunchDecimate(table.gaussians[o - 1][S], table.width[o - 1], table.height[o - 1], g[0],
                       compute);
      }
      const bool gaussian = options.scale_space == SiftGpuScaleSpace::kGaussian;
      for (int s = 0; s <= S + 1; ++s) {
        const float previous_sigma = LevelSigma(options, s - 1);
        const float target_sigma = LevelSigma(options, s);
        if (gaussian) {
          // Level S - 1 (index S) seeds the next octave; levels S and S + 1 and the detection
          // go to the side stream, off the critical path of the next octaves.
          cudaStream_t stream = compute;
          if (s >= S) {
            if (s == S) {
              PROJ_CUDA_CHECK(cudaEventRecord(octave_done[o], compute));
              PROJ_CUDA_CHECK(cudaStreamWaitEvent(detect_stream, octave_done[o], 0));
            }
            stream = detect_stream;
          }
          LaunchGaussianBlur(g[s], w, h,
                             MakeBlurTaps(std::sqrt(target_sigma * target_sigma -
                                                    previous_sigma * previous_sigma)),
                             nullptr, g[s + 1], g[s], dog[s], stream);
        } else {
#ifdef PROJ_HAVE_CUDA_TRILATERAL
          LevelSmoothArgs args;
          args.base = g[0];
          args.base_sigma = base_sigma;
          args.previous = g[s];
          args.previous_sigma = previous_sigma;
          args.target_sigma = target_sigma;
          args.out = g[s + 1];
          args.scratch = scratch.data();
          args.width = w;
          args.height = h;
          args.stream = compute;
          TrilateralSmoothLevel(args, options.trilateral_sigma_c);
          LaunchDifference(g[s + 1], g[s], w * h, dog[s], compute);
#else
          PROJ_CHECK(false, "trilateral scale space not built in");
#endif
        }
      }
      if (!gaussian) {
        PROJ_CUDA_CHECK(cudaEventRecord(octave_done[o], compute));
        PROJ_CUDA_CHECK(cudaStreamWaitEvent(detect_stream, octave_done[o], 0));
      }
      LaunchDetect(table, o, kernel_params, detections.data(), keys_in.data(), values_in.data(),
                   counters.data(), options.max_candidates, detect_stream);
    }
    PROJ_CUDA_CHECK(cudaEventRecord(detect_done, detect_stream));
    PROJ_CUDA_CHECK(cudaStreamWaitEvent(compute, detect_done, 0));
  }

  // Reads counters[index] back (synchronises the compute stream).
  int ReadCounter(int index) {
    PROJ_CUDA_CHECK(cudaMemcpyAsync(host_counters.data(), counters.data() + index, sizeof(int),
                                    cudaMemcpyDeviceToHost, compute));
    PROJ_CUDA_CHECK(cudaStreamSynchronize(compute));
    const int count = host_counters.data()[0];
    if (count > options.max_candidates) {
      PROJ_LOG(kWarning, "GPU SIFT: " << count << " candidates exceed max_candidates ("
                                      << options.max_candidates << "); extra ones dropped");
    }
    return std::min(count, options.max_candidates);
  }

  void SortDescending(int n) {
    size_t bytes = sort_temp_bytes;
    PROJ_CUDA_CHECK(cub::DeviceRadixSort::SortPairsDescending(
        sort_temp.data(), bytes, keys_in.data(), keys_out.data(), values_in.data(),
        values_out.data(), n, 0, 32, compute));
  }

  SiftGpuResult Process(int slot_index) {
    StagingSlot& slot = slots[slot_index];
    PROJ_CUDA_CHECK(cudaStreamWaitEvent(compute, slot.uploaded, 0));
    PROJ_CUDA_CHECK(cudaEventRecord(events[0], compute));
    ReserveFor(slot.width, slot.height);
    Plan(slot.width, slot.height, pyramid.data());
    SiftGpuResult result;
    if (table.count == 0) {
      PROJ_CUDA_CHECK(cudaStreamSynchronize(compute));
      return result;
    }
    LaunchPyramid(slot_index);
    PROJ_CUDA_CHECK(cudaEventRecord(events[1], compute));
    const int num_detections = ReadCounter(0);

    const int* order = nullptr;
    int num_kept = num_detections;
    if (num_detections > options.selection.max_features) {
      SortDescending(num_detections);
      LaunchOrderTies(keys_out.data(), values_out.data(), detections.data(), num_detections, compute);
      order = values_out.data();
      num_kept = options.selection.max_features;
    }
    LaunchOrientations(table, kernel_params, detections.data(), order, num_kept, oriented.data(),
                       keys_in.data(), values_in.data(), counters.data() + 1,
                       options.max_candidates, compute);
    const int num_oriented = ReadCounter(1);
    if (num_oriented > 0) {
      SortDescending(num_oriented);
      LaunchOrderTies(keys_out.data(), values_out.data(), oriented.data(), num_oriented, compute);
    }
    const int num_out = std::min(num_oriented, options.selection.max_features);
    PROJ_CUDA_CHECK(cudaEventRecord(events[2], compute));

    const size_t keypoint_bytes = sizeof(SiftGpuKeypoint) * num_out;
    const size_t result_bytes = keypoint_bytes + static_cast<size_t>(num_out) * 128;
    LaunchDescriptors(table, kernel_params, oriented.data(), values_out.data(), num_out,
                      reinterpret_cast<SiftGpuKeypoint*>(out_results.data()),
                      out_results.data() + keypoint_bytes, compute);
    if (num_out > 0) {
      PROJ_CUDA_CHECK(cudaMemcpyAsync(host_results.data(), out_results.data(), result_bytes,
                                      cudaMemcpyDeviceToHost, compute));
    }
    PROJ_CUDA_CHECK(cudaEventRecord(events[3], compute));
    PROJ_CUDA_CHECK(cudaStreamSynchronize(compute));
    PROJ_CUDA_CHECK(cudaEventElapsedTime(&timings.upload_ms, slot.upload_start, slot.uploaded));
    PROJ_CUDA_CHECK(cudaEventElapsedTime(&timings.pyramid_ms, events[0], events[1]));
    PROJ_CUDA_CHECK(cudaEventElapsedTime(&timings.select_ms, events[1], events[2]));
    PROJ_CUDA_CHECK(cudaEventElapsedTime(&timings.describe_ms, events[2], events[3]));
    const auto* keypoints = reinterpret_cast<const SiftGpuKeypoint*>(host_results.data());
    result.keypoints.assign(keypoints, keypoints + num_out);
    result.descriptors.assign(host_results.data() + keypoint_bytes,
                              host_results.data() + result_bytes);
    return result;
  }
};

SiftGpu::SiftGpu(const SiftGpuOptions& options, int device) : impl_(std::make_unique<Impl>()) {
  options.Check();
  PROJ_REQUIRE(DeviceAvailable(), "GPU SIFT needs a CUDA device: " << DeviceDescription());
#ifndef PROJ_HAVE_CUDA_TRILATERAL
  PROJ_REQUIRE(options.scale_space != SiftGpuScaleSpace::kTrilateral,
               "trilateral scale space not available");
#endif
  Impl& m = *impl_;
  m.options = options;
  m.device = device;
  PROJ_CUDA_CHECK(cudaSetDevice(device));
  cudaDeviceProp prop{};
  PROJ_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
  m.device_name = prop.name;
  PROJ_CUDA_CHECK(cudaStreamCreateWithFlags(&m.compute, cudaStreamNonBlocking));
  PROJ_CUDA_CHECK(cudaStreamCreateWithFlags(&m.upload, cudaStreamNonBlocking));
  PROJ_CUDA_CHECK(cudaStreamCreateWithFlags(&m.detect_stream, cudaStreamNonBlocking));
  for (cudaEvent_t& event : m.octave_done) {
    PROJ_CUDA_CHECK(cudaEventCreateWithFlags(&event, cudaEventDisableTiming));
  }
  PROJ_CUDA_CHECK(cudaEventCreateWithFlags(&m.detect_done, cudaEventDisableTiming));
  for (StagingSlot& slot : m.slots) {
    PROJ_CUDA_CHECK(cudaEventCreate(&slot.uploaded));
    PROJ_CUDA_CHECK(cudaEventCreate(&slot.upload_start));
  }
  for (cudaEvent_t& event : m.events) PROJ_CUDA_CHECK(cudaEventCreate(&event));

  SiftKernelParams& p = m.kernel_params;
  p.levels_per_octave = options.levels_per_octave;
  p.sigma0 = options.sigma0;
  p.peak_threshold = options.peak_threshold;
  p.prefilter_threshold = options.prefilter_ratio * options.peak_threshold;
  p.edge_test = options.edge_test;
  p.edge_ratio = options.edge_ratio;
  p.max_refinement_steps = options.max_refinement_steps;
  p.orientation_window_factor = options.orientation_window_factor;
  p.orientation_peak_ratio = options.orientation_peak_ratio;
  p.max_orientations = options.max_orientations;
  p.descriptor_magnification = options.descriptor_magnification;

  const size_t capacity = options.max_candidates;
  m.detections.Reserve(capacity);
  m.oriented.Reserve(capacity);
  m.keys_in.Reserve(capacity);
  m.keys_out.Reserve(capacity);
  m.values_in.Reserve(capacity);
  m.values_out.Reserve(capacity);
  m.counters.Reserve(2);
  m.host_counters.Reserve(2);
  const size_t result_capacity =
      static_cast<size_t>(options.selection.max_features) * (sizeof(SiftGpuKeypoint) + 128);
  m.out_results.Reserve(result_capacity);
  m.host_results.Reserve(result_capacity);
  PROJ_CUDA_CHECK(cub::DeviceRadixSort::SortPairsDescending(
      nullptr, m.sort_temp_bytes, m.keys_in.data(), m.keys_out.data(), m.values_in.data(),
      m.values_out.data(), options.max_candidates, 0, 32, m.compute));
  m.sort_temp.Reserve(m.sort_temp_bytes);
}

SiftGpu::~SiftGpu() {
  if (!impl_) return;
  Impl& m = *impl_;
  cudaSetDevice(m.device);  // the buffers below are freed on their device, whatever the thread's
  cudaStreamSynchronize(m.compute);
  cudaStreamSynchronize(m.upload);
  for (StagingSlot& slot : m.slots) {
    cudaEventDestroy(slot.uploaded);
    cudaEventDestroy(slot.upload_start);
  }
  for (cudaEvent_t event : m.events) cudaEventDestroy(event);
  for (cudaEvent_t event : m.octave_done) cudaEventDestroy(event);
  cudaEventDestroy(m.detect_done);
  for (auto& graph : m.graphs) {
    if (graph.exec != nullptr) cudaGraphExecDestroy(graph.exec);
  }
  cudaStreamDestroy(m.compute);
  cudaStreamDestroy(m.upload);
  cudaStreamDestroy(m.detect_stream);
}

void SiftGpu::Reserve(int width, int height) {
  PROJ_CUDA_CHECK(cudaSetDevice(impl_->device));
  impl_->ReserveFor(width, height);
}

void SiftGpu::Enqueue(const ImageView& image) {
  Impl& m = *impl_;
  PROJ_REQUIRE(m.pending < 2, "SiftGpu::Enqueue: two images are already staged; Retrieve first");
  PROJ_REQUIRE((image.pixels != nullptr) != (image.bytes != nullptr),
               "SiftGpu::Enqueue: set exactly one of ImageView.pixels and ImageView.bytes");
  PROJ_REQUIRE(image.width > 0 && image.height > 0,
               "SiftGpu::Enqueue: empty image (" << image.width << "x" << image.height << ")");
  PROJ_CUDA_CHECK(cudaSetDevice(m.device));
  StagingSlot& slot = m.slots[m.next_enqueue];
  slot.width = image.width;
  slot.height = image.height;
  slot.bytes = image.bytes != nullptr;
  const size_t size = static_cast<size_t>(image.width) * image.height *
                      (slot.bytes ? sizeof(uint8_t) : sizeof(float));
  slot.host.Reserve(size);
  slot.device.Reserve(size);
  std::memcpy(slot.host.data(), slot.bytes ? static_cast<const void*>(image.bytes) : image.pixels,
              size);
  PROJ_CUDA_CHECK(cudaEventRecord(slot.upload_start, m.upload));
  PROJ_CUDA_CHECK(cudaMemcpyAsync(slot.device.data(), slot.host.data(), size,
                                  cudaMemcpyHostToDevice, m.upload));
  PROJ_CUDA_CHECK(cudaEventRecord(slot.uploaded, m.upload));
  m.next_enqueue ^= 1;
  ++m.pending;
}

SiftGpuResult SiftGpu::Retrieve() {
  Impl& m = *impl_;
  PROJ_REQUIRE(m.pending > 0, "SiftGpu::Retrieve: no image was enqueued");
  PROJ_CUDA_CHECK(cudaSetDevice(m.device));
  const int slot_index = m.next_retrieve;
  m.next_retrieve ^= 1;
  --m.pending;
  return m.Process(slot_index);
}

SiftGpuResult SiftGpu::Extract(const ImageView& image) {
  Enqueue(image);
  return Retrieve();
}

const SiftGpuTimings& SiftGpu::last_timings() const { return impl_->timings; }

std::string SiftGpu::DeviceName() const { return impl_->device_name; }

}  // namespace proj::cuda
