// Host side of the GPU KLT tracker: buffers, pyramids, the per-frame sequence logic.
#include "cuda/klt/klt_gpu_tracker.h"

#include <algorithm>
#include <cstring>
#include <sstream>
#include <utility>

#include "core/check.h"
#include "cuda/device.h"
#include "cuda/klt/klt_internal.cuh"

namespace proj::cuda {
namespace {

using internal::KltDeviceArray;
using internal::KltLevel;

// Pinned host memory, grow-only.
template <typename T>
class PinnedArray {
 public:
  PinnedArray() = default;
  ~PinnedArray() { if (data_) cudaFreeHost(data_); }
  PinnedArray(const PinnedArray&) = delete;
  PinnedArray& operator=(const PinnedArray&) = delete;
  void Reserve(size_t count) {
    if (count <= capacity_) return;
    if (data_) PROJ_CUDA_CHECK(cudaFreeHost(data_));
    data_ = nullptr;
    PROJ_CUDA_CHECK(cudaMallocHost(&data_, count * sizeof(T)));
    capacity_ = count;
  }
  T* data() const { return data_; }

 private:
  T* data_ = nullptr;
  size_t capacity_ = 0;
};

// A Gaussian pyramid in device memory with one texture per level.
class Pyramid {
 public:
  Pyramid() = default;
  ~Pyramid() { Release(); }
  Pyramid(const Pyramid&) = delete;
  Pyramid& operator=(const Pyramid&) = delete;

  // Levels stop before one would be no larger than the window (as OpenCV's
  // buildOpticalFlowPyramid), so the used count can be below `max_levels`.
  void Allocate(int width, int height, int max_levels, int window_size) {
    if (width == width_ && height == height_ && max_levels == max_levels_ &&
        window_size == window_size_) {
      return;
    }
    Release();
    width_ = width;
    height_ = height;
    max_levels_ = max_levels;
    window_size_ = window_size;
    int w = width;
    int h = height;
    for (int level = 0; level < max_levels; ++level) {
      if (level > 0 && (w <= window_size || h <= window_size)) break;
      KltLevel l;
      l.width = w;
      l.height = h;
      PROJ_CUDA_CHECK(DeviceMallocPitch(&l.data, &l.pitch_bytes, w * sizeof(float), h));
      cudaResourceDesc resource{};
      resource.resType = cudaResourceTypePitch2D;
      resource.res.pitch2D.devPtr = l.data;
      resource.res.pitch2D.desc = cudaCreateChannelDesc<float>();
      resource.res.pitch2D.width = w;
      resource.res.pitch2D.height = h;
      resource.res.pitch2D.pitchInBytes = l.pitch_bytes;
      cudaTextureDesc texture{};
      texture.addressMode[0] = cudaAddressModeClamp;
      texture.addressMode[1] = cudaAddressModeClamp;
      texture.filterMode = cudaFilterModeLinear;
      texture.readMode = cudaReadModeElementType;
      texture.normalizedCoords = 0;
      PROJ_CUDA_CHECK(cudaCreateTextureObject(&l.texture, &resource, &texture, nullptr));
      levels_.push_back(l);
      w = (w + 1) / 2;
      h = (h + 1) / 2;
    }
  }

  void Upload(const KltImageView& image, cudaStream_t stream) {
    const KltLevel& l = levels_[0];
    PROJ_CUDA_CHECK(cudaMemcpy2DAsync(l.data, l.pitch_bytes, image.pixels, image.width * sizeof(float),
                                      image.width * sizeof(float), image.height,
                                      cudaMemcpyHostToDevice, stream));
  }

  // An 8-bit frame through `staging` (pinned, width * height bytes) into `device_bytes`, then
  // converted into level 0. Copied in row bands so that the host copy of one band overlaps
  // the transfer of the previous one. The stream must have finished with `staging` (each call
  // ends synchronised).
  void Upload8(const KltFrame8& frame, uint8_t* staging, uint8_t* device_bytes, cudaStream_t stream) {
    constexpr int kBands = 4;
    const size_t row_bytes = static_cast<size_t>(frame.width);
    const int rows_per_band = (frame.height + kBands - 1) / kBands;
    for (int row = 0; row < frame.height; row += rows_per_band) {
      const size_t offset = row * row_bytes;
      const size_t bytes = std::min(rows_per_band, frame.height - row) * row_bytes;
      std::memcpy(staging + offset, frame.pixels + offset, bytes);
      PROJ_CUDA_CHECK(cudaMemcpyAsync(device_bytes + offset, staging + offset, bytes,
                                      cudaMemcpyHostToDevice, stream));
    }
    internal::LaunchEightBitToLevel(device_bytes, levels_[0], stream);
  }

  void Build(cudaStream_t stream) {
    for (size_t level = 1; level < levels_.size(); ++level) {
      internal::LaunchPyramidDown(levels_[level - 1], levels_[level], stream);
    }
  }

  const std::vector<KltLevel>& levels() const { return levels_; }

 private:
  void Release() {
    for (KltLevel& l : levels_) {
      cudaDestroyTextureObject(l.texture);
      DeviceFree(l.data, l.width * sizeof(float) * l.height);  // unchecked: also a destructor
    }
    levels_.clear();
    width_ = height_ = max_levels_ = window_size_ = 0;
  }

  std::vector<KltLevel> levels_;
  int width_ = 0;
  int height_ = 0;
  int max_levels_ = 0;
  int window_size_ = 0;
};

}  // namespace

struct KltGpuTracker::Impl {
  KltOptions options;
  int device = 0;
  cudaStream_t stream = nullptr;
  cudaEvent_t events[6] = {};
  Pyramid pyramids[2];
  int current = 0;  // pyramids[current] holds the latest frame

  // Sequence state: features of the latest frame in points[active], ids[active].
  KltDeviceArray<float2> points[2];
  KltDeviceArray<int> ids[2];
  // Drift correction (options.affine_refinement): each feature's template and warp, in the
  // order of points[active].
  KltDeviceArray<float> templates[2];
  KltDeviceArray<KltAffineWarp> warps[2];
  int active = 0;
  int count = 0;
  int next_id = 0;
  int frame_index = 0;
  int frames_since_selection = 0;
  int width = 0;
  int height = 0;
  std::vector<KltFeature> features;

  // Tracking scratch.
  KltDeviceArray<float2> tracked;
  KltDeviceArray<uint8_t> status;
  KltDeviceArray<float> residual;
  KltDeviceArray<float> forward_backward;
  KltDeviceArray<int> flags;
  KltDeviceArray<int> positions;
  KltDeviceArray<int> compact_count;
  KltDeviceArray<unsigned char> cub_temp;
  KltDeviceArray<float> scores;
  internal::KltSelectBuffers select;

  // 8-bit frames: pinned staging and device copy.
  PinnedArray<uint8_t> host_frame8;
  KltDeviceArray<uint8_t> frame8;

  PinnedArray<unsigned int> host_scratch;
  PinnedArray<float2> host_points;
  PinnedArray<int> host_ids;
  PinnedArray<uint8_t> host_status;
  PinnedArray<float> host_floats;
  KltGpuTimings timings;

  void Record(int index) { PROJ_CUDA_CHECK(cudaEventRecord(events[index], stream)); }

  // Events 0..5 are recorded before upload and after upload, pyramid, track, select and
  // download; stages that did not run read ~0. The stream must be synchronised.
  void ReadTimings() {
    float* fields[5] = {&timings.upload_ms, &timings.pyramid_ms, &timings.track_ms,
                        &timings.select_ms, &timings.download_ms};
    for (int stage = 0; stage < 5; ++stage) {
      PROJ_CUDA_CHECK(cudaEventElapsedTime(fields[stage], events[stage], events[stage + 1]));
    }
  }

  void CheckImage(const void* pixels, int width, int height) const {
    PROJ_REQUIRE(pixels != nullptr, "KLT: image has no pixels");
    PROJ_REQUIRE(width >= 2 * options.window_size && height >= 2 * options.window_size,
                 "KLT: image " << width << "x" << height
                               << " is too small for the tracking window " << options.window_size);
  }
  void CheckImage(const KltImageView& image) const { CheckImage(image.pixels, image.width, image.height); }

  // ProcessFrame for a frame of width x height that `upload` enqueues into a pyramid's level 0.
  template <typename Upload>
  const std::vector<KltFeature>& ProcessFrame(int frame_width, int frame_height, const Upload& upload);

  void Prepare(int w, int h) {
    for (Pyramid& pyramid : pyramids) pyramid.Allocate(w, h, options.num_levels, options.window_size);
  }

  internal::KltTrackParams TrackParams(const Pyramid& from, const Pyramid& to, int n) const {
    internal::KltTrackParams p;
    const auto& from_levels = from.levels();
    const auto& to_levels = to.levels();
    p.num_levels = static_cast<int>(from_levels.size());
    for (int level = 0; level < p.num_levels; ++level) {
      p.from_texture[level] = from_levels[level].texture;
      p.to_texture[level] = to_levels[level].texture;
      p.level_width[level] = from_levels[level].width;
      p.level_height[level] = from_levels[level].height;
    }
    p.window_size = options.window_size;
    p.max_iterations = options.max_iterations;
    p.epsilon_sq = static_cast<float>(options.epsilon_px * options.epsilon_px);
    p.min_eigenvalue = static_cast<float>(options.min_eigenvalue);
    p.max_fb_sq = options.max_forward_backward_px > 0
                      ? static_cast<float>(options.max_forward_backward_px * options.max_forward_backward_px)
                      : -1.0f;
    p.max_residual = options.max_residual > 0 ? static_cast<float>(options.max_residual) : -1.0f;
    p.count = n;
    p.points_out = tracked.data();
    p.status = status.data();
    p.residual = residual.data();
    p.forward_backward = forward_backward.data();
    return p;
  }

  int PatchFloats() const { return (options.window_size + 2) * (options.window_size + 2); }

  internal::KltAffineParams AffineParams(const Pyramid& to, int n) const {
    internal::KltAffineParams p;
    const KltLevel& level = to.levels()[0];
    p.texture = level.texture;
    p.width = level.width;
    p.height = level.height;
    p.window_size = options.window_size;
    p.max_iterations = options.affine_max_iterations;
    p.epsilon = static_cast<float>(options.epsilon_px);
    p.max_scale = static_cast<float>(options.affine_max_scale);
    p.max_correction = static_cast<float>(options.affine_max_correction_px);
    p.max_residual = options.max_residual > 0 ? static_cast<float>(options.max_residual) : -1.0f;
    p.count = n;
    p.templates = templates[active].data();
    p.warps = warps[active].data();
    p.points = tracked.data();
    p.status = status.data();
    p.residual = residual.data();
    return p;
  }

  void ReserveTracking(int n) {
    tracked.Reserve(n);
    status.Reserve(n);
    residual.Reserve(n);
    forward_backward.Reserve(n);
    flags.Reserve(n);
    positions.Reserve(n);
  }

  internal::KltSelectParams SelectParams(const Pyramid& pyramid, int max_new) const {
    internal::KltSelectParams p;
    const KltLevel& level = pyramid.levels()[0];
    p.image = level.data;
    p.pitch_bytes = level.pitch_bytes;
    p.width = level.width;
    p.height = level.height;
    p.border = options.half_window();
    p.block_size = options.corner_block_size;
    p.quality_level = static_cast<float>(options.quality_level);
    p.min_distance = static_cast<float>(options.min_distance_px);
    p.max_new = max_new;
    return p;
  }
};

KltGpuTracker::KltGpuTracker(const KltOptions& options, int device) : impl_(std::make_unique<Impl>()) {
  options.Check();
  PROJ_REQUIRE(DeviceAvailable(), "the GPU KLT tracker needs a CUDA device: " << DeviceDescription());
  impl_->options = options;
  impl_->device = device;
  PROJ_CUDA_CHECK(cudaSetDevice(device));
  PROJ_CUDA_CHECK(cudaStreamCreateWithFlags(&impl_->stream, cudaStreamNonBlocking));
  for (cudaEvent_t& event : impl_->events) PROJ_CUDA_CHECK(cudaEventCreate(&event));
  impl_->host_scratch.Reserve(8);
  for (auto& array : impl_->points) array.Reserve(options.max_features);
  for (auto& array : impl_->ids) array.Reserve(options.max_features);
  if (options.affine_refinement) {
    const size_t patch_floats = static_cast<size_t>(impl_->PatchFloats());
    for (auto& array : impl_->templates) array.Reserve(options.max_features * patch_floats);
    for (auto& array : impl_->warps) array.Reserve(options.max_features);
  }
  impl_->compact_count.Reserve(1);
  impl_->ReserveTracking(options.max_features);
  impl_->host_points.Reserve(options.max_features);
  impl_->host_ids.Reserve(options.max_features);
}

KltGpuTracker::~KltGpuTracker() {
  if (!impl_) return;
  cudaSetDevice(impl_->device);
  if (impl_->stream) cudaStreamSynchronize(impl_->stream);
  for (cudaEvent_t event : impl_->events) cudaEventDestroy(event);
  if (impl_->stream) cudaStreamDestroy(impl_->stream);
}

void KltGpuTracker::Reset() {
  impl_->count = 0;
  impl_->next_id = 0;
  impl_->frame_index = 0;
  impl_->frames_since_selection = 0;
  impl_->features.clear();
}

const KltGpuTimings& KltGpuTracker::last_timings() const { return impl_->timings; }

std::string KltGpuTracker::Description() const { return "klt (gpu: " + DeviceDescription() + ")"; }

const std::vector<KltFeature>& KltGpuTracker::ProcessFrame(const KltImageView& frame) {
  impl_->CheckImage(frame);
  return impl_->ProcessFrame(frame.width, frame.height,
                             [&](Pyramid& pyramid) { pyramid.Upload(frame, impl_->stream); });
}

const std::vector<KltFeature>& KltGpuTracker::ProcessFrame(const KltFrame8& frame) {
  Impl& s = *impl_;
  s.CheckImage(frame.pixels, frame.width, frame.height);
  const size_t bytes = static_cast<size_t>(frame.width) * frame.height;
  return s.ProcessFrame(frame.width, frame.height, [&](Pyramid& pyramid) {
    s.host_frame8.Reserve(bytes);
    s.frame8.Reserve(bytes);
    pyramid.Upload8(frame, s.host_frame8.data(), s.frame8.data(), s.stream);
  });
}

template <typename Upload>
const std::vector<KltFeature>& KltGpuTracker::Impl::ProcessFrame(int frame_width, int frame_height,
                                                                 const Upload& upload) {
  Impl& s = *this;
  PROJ_CUDA_CHECK(cudaSetDevice(s.device));
  if (s.frame_index == 0) {
    s.width = frame_width;
    s.height = frame_height;
    s.Prepare(frame_width, frame_height);
  }
  PROJ_REQUIRE(frame_width == s.width && frame_height == s.height,
               "KLT: frame " << s.frame_index << " is " << frame_width << "x" << frame_height
                             << " but the sequence started with " << s.width << "x" << s.height);
  const int options_n = s.options.max_features;
  const int previous = s.current;
  s.current = 1 - s.current;
  Pyramid& pyramid = s.pyramids[s.current];

  s.Record(0);
  upload(pyramid);
  s.Record(1);
  pyramid.Build(s.stream);
  s.Record(2);
  if (s.frame_index > 0 && s.count > 0) {
    internal::KltTrackParams params = s.TrackParams(s.pyramids[previous], pyramid, s.count);
    params.points_in = s.points[s.active].data();
    internal::LaunchLucasKanade(params, s.stream);
    const bool refine = s.options.affine_refinement;
    if (refine) internal::LaunchAffineRefine(s.AffineParams(pyramid, s.count), s.stream);
    const int other = 1 - s.active;
    internal::CompactTracked(s.tracked.data(), s.ids[s.active].data(), s.status.data(), s.count,
                             s.flags.data(), s.positions.data(), &s.cub_temp,
                             s.points[other].data(), s.ids[other].data(), s.compact_count.data(),
                             s.stream);
    if (refine) {
      internal::ScatterKeptTemplates(s.templates[s.active].data(), s.warps[s.active].data(),
                                     s.flags.data(), s.positions.data(), s.count,
                                     s.options.window_size, s.templates[other].data(),
                                     s.warps[other].data(), s.stream);
    }
    PROJ_CUDA_CHECK(cudaMemcpyAsync(s.host_scratch.data(), s.compact_count.data(), sizeof(int),
                                    cudaMemcpyDeviceToHost, s.stream));
    PROJ_CUDA_CHECK(cudaStreamSynchronize(s.stream));
    s.count = static_cast<int>(s.host_scratch.data()[0]);
    s.active = other;
  }
  s.Record(3);
  ++s.frames_since_selection;
  const bool due = s.frame_index == 0 ||
                   s.frames_since_selection >= s.options.reselect_interval_frames ||
                   s.count < s.options.reselect_min_fraction * options_n;
  if (due) {
    s.frames_since_selection = 0;
    if (s.count < options_n) {
      internal::KltSelectParams params = s.SelectParams(pyramid, options_n - s.count);
      params.existing = s.points[s.active].data();
      params.num_existing = s.count;
      params.out_points = s.points[s.active].data() + s.count;
      params.out_ids = s.ids[s.active].data() + s.count;
      params.first_id = s.next_id;
      const int added = internal::SelectCorners(params, &s.select, s.host_scratch.data(), s.stream);
      if (s.options.affine_refinement) {
        const size_t patch_floats = static_cast<size_t>(s.PatchFloats());
        internal::LaunchCaptureTemplates(pyramid.levels()[0].texture, params.out_points, added,
                                         s.options.window_size,
                                         s.templates[s.active].data() + s.count * patch_floats,
                                         s.warps[s.active].data() + s.count, s.stream);
      }
      s.count += added;
      s.next_id += added;
    }
  }
  s.Record(4);
  if (s.count > 0) {
    PROJ_CUDA_CHECK(cudaMemcpyAsync(s.host_points.data(), s.points[s.active].data(),
                                    s.count * sizeof(float2), cudaMemcpyDeviceToHost, s.stream));
    PROJ_CUDA_CHECK(cudaMemcpyAsync(s.host_ids.data(), s.ids[s.active].data(), s.count * sizeof(int),
                                    cudaMemcpyDeviceToHost, s.stream));
  }
  s.Record(5);
  PROJ_CUDA_CHECK(cudaStreamSynchronize(s.stream));
  s.ReadTimings();
  s.features.resize(s.count);
  for (int i = 0; i < s.count; ++i) {
    s.features[i] = KltFeature{s.host_ids.data()[i], s.host_points.data()[i].x, s.host_points.data()[i].y};
  }
  ++s.frame_index;
  return s.features;
}

std::vector<KltCorner> KltGpuTracker::SelectCorners(const KltImageView& image, int max_count,
                                                    const std::vector<KltPoint>& existing) {
  Impl& s = *impl_;
  s.CheckImage(image);
  PROJ_REQUIRE(max_count >= 0, "KLT: max_count must be >= 0");
  PROJ_CUDA_CHECK(cudaSetDevice(s.device));
  Reset();
  s.Prepare(image.width, image.height);
  Pyramid& pyramid = s.pyramids[0];
  const int n_existing = static_cast<int>(existing.size());
  s.tracked.Reserve(std::max(1, n_existing));
  s.scores.Reserve(std::max(1, max_count));
  s.ReserveTracking(std::max(1, max_count));
  s.host_points.Reserve(std::max(1, std::max(n_existing, max_count)));
  s.host_floats.Reserve(std::max(1, max_count));
  for (int i = 0; i < n_existing; ++i) s.host_points.data()[i] = make_float2(existing[i].x, existing[i].y);

  s.Record(0);
  pyramid.Upload(image, s.stream);
  if (n_existing > 0) {
    PROJ_CUDA_CHECK(cudaMemcpyAsync(s.tracked.data(), s.host_points.data(), n_existing * sizeof(float2),
                                    cudaMemcpyHostToDevice, s.stream));
  }
  s.Record(1);
  s.Record(2);
  s.Record(3);
  internal::KltSelectParams params = s.SelectParams(pyramid, max_count);
  params.existing = s.tracked.data();
  params.num_existing = n_existing;
  // Reuse the tracking output buffers for the corners (tracked holds the existing points).
  KltDeviceArray<float2>& corner_points = s.points[1 - s.active];
  corner_points.Reserve(std::max(1, max_count));
  params.out_points = corner_points.data();
  params.out_scores = s.scores.data();
  const int found = internal::SelectCorners(params, &s.select, s.host_scratch.data(), s.stream);
  s.Record(4);
  if (found > 0) {
    PROJ_CUDA_CHECK(cudaMemcpyAsync(s.host_points.data(), corner_points.data(), found * sizeof(float2),
                                    cudaMemcpyDeviceToHost, s.stream));
    PROJ_CUDA_CHECK(cudaMemcpyAsync(s.host_floats.data(), s.scores.data(), found * sizeof(float),
                                    cudaMemcpyDeviceToHost, s.stream));
  }
  s.Record(5);
  PROJ_CUDA_CHECK(cudaStreamSynchronize(s.stream));
  s.ReadTimings();
  std::vector<KltCorner> corners(found);
  for (int i = 0; i < found; ++i) {
    corners[i] = KltCorner{s.host_points.data()[i].x, s.host_points.data()[i].y, s.host_floats.data()[i]};
  }
  return corners;
}

KltTrackResult KltGpuTracker::TrackPoints(const KltImageView& from, const KltImageView& to,
                                          const std::vector<KltPoint>& points) {
  Impl& s = *impl_;
  s.CheckImage(from);
  s.CheckImage(to);
  PROJ_REQUIRE(from.width == to.width && from.height == to.height,
               "KLT: images to track between differ in size (" << from.width << "x" << from.height
                                                              << " vs " << to.width << "x" << to.height << ")");
  PROJ_CUDA_CHECK(cudaSetDevice(s.device));
  Reset();
  s.Prepare(from.width, from.height);
  const int n = static_cast<int>(points.size());
  const int capacity = std::max(1, n);
  s.ReserveTracking(capacity);
  s.points[0].Reserve(capacity);
  s.host_points.Reserve(capacity);
  s.host_status.Reserve(capacity);
  s.host_floats.Reserve(2 * static_cast<size_t>(capacity));
  for (int i = 0; i < n; ++i) s.host_points.data()[i] = make_float2(points[i].x, points[i].y);

  s.Record(0);
  s.pyramids[0].Upload(from, s.stream);
  s.pyramids[1].Upload(to, s.stream);
  if (n > 0) {
    PROJ_CUDA_CHECK(cudaMemcpyAsync(s.points[0].data(), s.host_points.data(), n * sizeof(float2),
                                    cudaMemcpyHostToDevice, s.stream));
  }
  s.Record(1);
  s.pyramids[0].Build(s.stream);
  s.pyramids[1].Build(s.stream);
  s.Record(2);
  internal::KltTrackParams params = s.TrackParams(s.pyramids[0], s.pyramids[1], n);
  params.points_in = s.points[0].data();
  internal::LaunchLucasKanade(params, s.stream);
  s.Record(3);
  s.Record(4);
  if (n > 0) {
    PROJ_CUDA_CHECK(cudaMemcpyAsync(s.host_points.data(), s.tracked.data(), n * sizeof(float2),
                                    cudaMemcpyDeviceToHost, s.stream));
    PROJ_CUDA_CHECK(cudaMemcpyAsync(s.host_status.data(), s.status.data(), n, cudaMemcpyDeviceToHost,
                                    s.stream));
    PROJ_CUDA_CHECK(cudaMemcpyAsync(s.host_floats.data(), s.residual.data(), n * sizeof(float),
                                    cudaMemcpyDeviceToHost, s.stream));
    PROJ_CUDA_CHECK(cudaMemcpyAsync(s.host_floats.data() + n, s.forward_backward.data(),
                                    n * sizeof(float), cudaMemcpyDeviceToHost, s.stream));
  }
  s.Record(5);
  PROJ_CUDA_CHECK(cudaStreamSynchronize(s.stream));
  s.ReadTimings();
  KltTrackResult result;
  result.points.resize(n);
  result.status.resize(n);
  result.residual.resize(n);
  result.forward_backward_px.resize(n);
  for (int i = 0; i < n; ++i) {
    result.points[i] = KltPoint{s.host_points.data()[i].x, s.host_points.data()[i].y};
    result.status[i] = static_cast<KltStatus>(s.host_status.data()[i]);
    result.residual[i] = s.host_floats.data()[i];
    result.forward_backward_px[i] = s.host_floats.data()[n + i];
  }
  return result;
}

}  // namespace proj::cuda
