// GPU KLT tracker: Shi-Tomasi corner selection and pyramidal Lucas-Kanade with a
// forward-backward check and, in sequences, the affine drift correction against each track's
// first window (cuda/klt/klt_affine.h), entirely on the device (see cuda/klt/klt_types.h for the method,
// units and conventions). Host-only header (pimpl, no CUDA includes).
//
// One instance owns one CUDA stream and all its device buffers, which are allocated on first
// use and reused while the image size and feature count allow. Not thread-safe: one caller
// at a time. Callers normally use features/klt/klt_tracker.h, which picks this or the CPU
// implementation; tests and benchmarks use the pair functions below directly.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "cuda/klt/klt_types.h"

namespace proj::cuda {

// Non-owning view of a grey image in host memory, intensities in [0, 1], row-major.
struct KltImageView {
  const float* pixels = nullptr;
  int width = 0;
  int height = 0;
};

// Device time of the stages of the last call, milliseconds, measured with CUDA events on the
// instance's stream (0 for stages that did not run).
struct KltGpuTimings {
  float upload_ms = 0;    // host -> device copy of the image(s) (8-bit: with the conversion)
  float pyramid_ms = 0;   // pyramid building
  float select_ms = 0;    // corner selection (eigenvalues, NMS, compaction)
  float track_ms = 0;     // Lucas-Kanade forward + backward, status, compaction
  float download_ms = 0;  // device -> host copy of the results
};

class KltGpuTracker {
 public:
  // Throws InputError for bad options or when no CUDA device is usable.
  explicit KltGpuTracker(const KltOptions& options, int device = 0);
  ~KltGpuTracker();
  KltGpuTracker(const KltGpuTracker&) = delete;
  KltGpuTracker& operator=(const KltGpuTracker&) = delete;

  // Sequence interface (same contract as proj::KltTracker::ProcessFrame): tracks the features
  // of the previous frame into `frame`, refines them against their templates, drops failed ones, selects new corners where tracks
  // are missing when due, and returns the features alive in `frame`, sorted by track id.
  // All frames of a sequence must have the same size.
  const std::vector<KltFeature>& ProcessFrame(const KltImageView& frame);
  // The same for an 8-bit frame: it is copied through pinned host memory (a quarter of the
  // float frame's bytes) and converted on the device; results equal those for the float
  // frame of the same intensities.
  const std::vector<KltFeature>& ProcessFrame(const KltFrame8& frame);
  // Forgets the sequence (features, previous frame, track ids restart at 0).
  void Reset();

  // Corners of `image`, strongest first, at most `max_count`, none closer than
  // options.min_distance_px to each other or to a point of `existing`.
  std::vector<KltCorner> SelectCorners(const KltImageView& image, int max_count,
                                       const std::vector<KltPoint>& existing);
  // Tracks `points` (in `from`) into `to`. Both pyramids are built by this call.
  KltTrackResult TrackPoints(const KltImageView& from, const KltImageView& to,
                             const std::vector<KltPoint>& points);

  // Stage timings of the last ProcessFrame, SelectCorners or TrackPoints call.
  const KltGpuTimings& last_timings() const;
  std::string Description() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace proj::cuda
