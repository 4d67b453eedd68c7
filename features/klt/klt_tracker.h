// KLT feature tracking for image sequences: the interface both implementations share and the
// factory that picks one. The GPU implementation is cuda/klt/klt_gpu_tracker.h; the CPU one
// wraps OpenCV's goodFeaturesToTrack and calcOpticalFlowPyrLK (features/klt/klt_cpu_tracker.h)
// and is the reference the GPU one is tested against. Options, units, conventions and the
// papers behind the method: cuda/klt/klt_types.h.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "cuda/klt/klt_types.h"
#include "features/feature_extractor.h"
#include "features/feature_types.h"

namespace proj {

class KltTracker {
 public:
  virtual ~KltTracker() = default;

  // Adds the next frame of a sequence: tracks the features of the previous frame into it,
  // refines each position against the track's first window (options.affine_refinement), drops
  // those whose status is not kTracked, then, on the first frame, every
  // options.reselect_interval_frames frames, or when fewer than reselect_min_fraction *
  // max_features survive, selects new corners away from the surviving ones (min_distance_px)
  // up to max_features in total. Returns the features alive in `frame`, sorted by track id;
  // the reference stays valid until the next call. A track is contiguous: it is alive from
  // the frame that created it to the last frame it was tracked into. All frames of one
  // sequence must have the same size.
  virtual const std::vector<KltFeature>& ProcessFrame(const GrayImage& frame) = 0;
  // The same for an 8-bit frame (the form sequences are kept in): the result equals that for
  // the float frame ToFloatFrame(frame). The GPU tracker copies and converts a quarter of the
  // bytes; both kinds of frame may be mixed in one sequence.
  virtual const std::vector<KltFeature>& ProcessFrame(const KltFrame8& frame) = 0;
  // Starts a new sequence (no features, track ids restart at 0).
  virtual void Reset() = 0;

  // Corners of `image`, strongest first, at most `max_count`, at least min_distance_px from
  // each other and from every point of `existing`, at least half_window() from the border.
  // Ends any sequence in progress (as Reset).
  virtual std::vector<KltCorner> SelectCorners(const GrayImage& image, int max_count,
                                               const std::vector<KltPoint>& existing) = 0;
  // Tracks `points` of `from` into `to` (same size); one result entry per point (Lucas-Kanade
  // only: a pair has no track history to refine against). Ends any sequence in progress (as
  // Reset).
  virtual KltTrackResult TrackPoints(const GrayImage& from, const GrayImage& to,
                                     const std::vector<KltPoint>& points) = 0;

  // "klt (gpu: NVIDIA H100 ...)" or "klt (cpu: opencv)".
  virtual std::string Description() const = 0;
};

// Intensities value / 255.0f of an 8-bit frame into *image (storage reused).
void ToFloatFrame(const KltFrame8& frame, GrayImage* image);

// kCpu: OpenCV; kGpu: CUDA (throws InputError without a usable device); kAuto: the GPU when
// one is usable, else the CPU. Throws InputError for bad options.
std::unique_ptr<KltTracker> CreateKltTracker(const KltOptions& options,
                                             ComputeDevice device = ComputeDevice::kAuto);

}  // namespace proj
