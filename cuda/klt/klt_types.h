// Options and results shared by the GPU (cuda/klt/) and CPU (features/klt/) KLT trackers.
// Host-only header: plain aggregates, no CUDA includes. It sits in cuda/ because cuda/ is the
// lowest module both implementations see (STYLE P1); the public entry point for callers is
// features/klt/klt_tracker.h.
//
// Method: corners by Shi & Tomasi, "Good Features to Track" (CVPR 1994), the smaller
// eigenvalue of the gradient structure tensor; tracking by pyramidal Lucas-Kanade as in
// Bouguet, "Pyramidal Implementation of the Lucas Kanade Feature Tracker" (Intel, 2001),
// with the forward-backward check of Kalal et al., "Forward-Backward Error" (ICPR 2010); in
// sequences each position is then refined against the track's first window under an affine
// warp (Shi & Tomasi's affine window, by inverse compositional alignment; cuda/klt/klt_affine.h)
// so that errors do not add up along a track.
//
// Coordinates: pixels, centre of the top-left pixel at (0.5, 0.5) (the project convention,
// geometry/camera/camera_models.h). Intensities: grey values in [0, 1].
#pragma once

#include <cstdint>
#include <vector>

namespace proj {

struct KltOptions {
  // --- Corner selection (Shi-Tomasi) ---
  int max_features = 2000;        // N: features kept alive per frame (strongest first)
  double quality_level = 0.01;    // corners need min eigenvalue > quality_level * image maximum
  double min_distance_px = 10.0;  // minimum distance between selected corners and to existing
                                  // tracks (the mask of existing tracks uses the same radius)
  int corner_block_size = 3;      // structure-tensor summation window, pixels (odd, 3..7);
                                  // gradients are 3x3 Sobel, as OpenCV's cornerMinEigenVal
  // --- Pyramidal Lucas-Kanade ---
  int window_size = 21;           // integration window, pixels (odd, 5..31)
  int num_levels = 5;             // pyramid levels including full resolution (1..8); 5 follows
                                  // a 90-degree turn at 7 deg per frame (4 kept a sixth of the
                                  // tracks across it: bench/RESULTS-video.md)
  int max_iterations = 30;        // per level
  double epsilon_px = 0.01;       // stop when the update is below this, pixels of the level
  // Minimum of the smaller eigenvalue of (1/window area) * sum(grad grad^T), gradients in
  // intensity units per pixel (Scharr, normalised); 1.5e-6 equals OpenCV's default
  // minEigThreshold 1e-4 (which uses 8-bit intensities and unnormalised Scharr).
  double min_eigenvalue = 1.5e-6;
  // Track back from the result and drop features that do not return within this distance,
  // pixels; <= 0 disables the check (and halves the tracking work).
  double max_forward_backward_px = 0.5;
  // Drop features whose mean absolute intensity difference over the final window (level 0)
  // exceeds this; <= 0 disables the check.
  double max_residual = 0.08;
  // --- Sequences (KltTracker::ProcessFrame) ---
  int reselect_interval_frames = 5;  // select new corners every k frames ...
  double reselect_min_fraction = 0.5;  // ... or when fewer than this fraction of N survive
  // --- Drift correction (sequences only; cuda/klt/klt_affine.h) ---
  // After Lucas-Kanade, each position is refined by aligning the window the track began with
  // (kept from the frame that selected it) to the current frame under an affine warp, so
  // errors do not add up along a track. The residual check (max_residual) then applies to
  // that alignment.
  bool affine_refinement = true;
  int affine_max_iterations = 20;       // per frame; stops earlier below epsilon_px
  double affine_max_scale = 4.0;        // drop when the window grew or shrank beyond this
  double affine_max_correction_px = 3.0;  // drop when the refinement moves the point farther
                                          // than this from the Lucas-Kanade result

  // Half window, pixels. A feature is dropped when its level-0 window leaves the image; new
  // corners are selected only at least this far from the border.
  int half_window() const { return window_size / 2; }
  // Throws InputError naming the field.
  void Check() const;
};

// Why a feature was kept or dropped by one tracking step.
enum class KltStatus : uint8_t {
  kTracked = 0,          // converged (or ran out of iterations) and passed every check
  kLost = 1,             // the window left the (pyramid) image during the iterations
  kLowTexture = 2,       // gradient matrix too weak (min_eigenvalue) at some level
  kOutOfImage = 3,       // final level-0 window not entirely inside the image
  kLargeResidual = 4,    // mean absolute difference above max_residual (after the affine
                         // alignment when it runs)
  kForwardBackward = 5,  // backward track failed or ended more than max_forward_backward_px away
  kTemplateMismatch = 6,  // the affine alignment with the track's first window failed: too
                          // little texture for it, the window deformed beyond
                          // affine_max_scale, or it moved the point beyond
                          // affine_max_correction_px
};

const char* KltStatusName(KltStatus status);

struct KltPoint {
  float x = 0;
  float y = 0;
};

// A corner found by selection; score is the smaller structure-tensor eigenvalue (relative
// units, only comparable within one image).
struct KltCorner {
  float x = 0;
  float y = 0;
  float score = 0;
};

// Result of tracking points from one image into another, one entry per input point.
struct KltTrackResult {
  std::vector<KltPoint> points;              // position in the second image (valid if tracked)
  std::vector<KltStatus> status;
  std::vector<float> residual;               // mean |J - I| over the window; 0 if not reached
  std::vector<float> forward_backward_px;    // distance after tracking back; -1 if not run
};

// Non-owning view of a frame with 8-bit grey values, row-major: intensity = value / 255.0f
// (the form sequences are kept in, a quarter of float's memory). Trackers take it as well as
// float images and compute the same as on the float image of those intensities.
struct KltFrame8 {
  const uint8_t* pixels = nullptr;
  int width = 0;
  int height = 0;
};

// A feature alive in the current frame of a sequence.
struct KltFeature {
  int track_id = -1;  // increasing in order of creation, starting at 0 for each sequence
  float x = 0;
  float y = 0;
};

}  // namespace proj
