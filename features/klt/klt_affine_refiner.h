// Drift correction of the CPU KLT tracker (method and shared arithmetic:
// cuda/klt/klt_affine.h): each track keeps the window it began with and an affine warp, and
// each position Lucas-Kanade finds is refined by aligning that window to the frame. The GPU
// tracker runs the same steps in cuda/klt/klt_affine_refine.cu.
#pragma once

#include <vector>

#include "cuda/klt/klt_affine.h"
#include "cuda/klt/klt_types.h"
#include "features/feature_types.h"

namespace proj {

// A track's template: (window_size + 2)^2 intensities, row-major, the window with a one-pixel
// ring (for its gradients), centred on the track's first position; and its current warp.
struct KltAffineTrack {
  std::vector<float> patch;
  KltAffineWarp warp;
};

// Bilinear intensity of `image` at (x, y), pixel centres at integers, indices clamped to the
// image (as a texture with clamp-to-edge addressing samples it).
float SampleBilinear(const GrayImage& image, float x, float y);

// The template of a track that begins at `point` (project convention) in `frame`; identity
// warp at that point.
KltAffineTrack CaptureKltTemplate(const GrayImage& frame, const KltPoint& point, int window_size);

struct KltAffineOutcome {
  KltStatus status = KltStatus::kTracked;
  KltPoint point;      // refined position, project convention (valid if tracked)
  float residual = 0;  // mean |frame - template| over the aligned window
};

// Aligns the track's template to `frame`, starting from its warp's linear part and the
// Lucas-Kanade position `tracked` (project convention); updates track->warp when tracked.
// Checks, in order: window inside the image during the iterations (kLost), texture enough
// for six parameters, scale within affine_max_scale and correction within
// affine_max_correction_px (kTemplateMismatch), final window inside as Lucas-Kanade requires
// (kOutOfImage), residual (kLargeResidual).
KltAffineOutcome RefineKltTrack(const GrayImage& frame, const KltPoint& tracked,
                                const KltOptions& options, KltAffineTrack* track);

}  // namespace proj
