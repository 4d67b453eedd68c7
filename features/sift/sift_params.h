// The numbers that define the project's SIFT (Lowe, "Distinctive Image Features from
// Scale-Invariant Keypoints", IJCV 2004), with the VLFeat/COLMAP conventions. One source of
// truth for the CPU reference (features/sift/) and the CUDA implementation (cuda/sift/): the
// GPU adapter copies every field into cuda::SiftGpuOptions.
//
// Coordinates: octave o has pixel spacing 2^o input pixels (o = -1 is the 2x upsampled
// octave). Octave sample index (i, j) sits at input pixel coordinates (i * 2^o + 0.5,
// j * 2^o + 0.5), i.e. the centre of the top-left input pixel is (0.5, 0.5).
// Level s of an octave (s = -1 .. S + 1, S = levels_per_octave) has blur
// sigma0 * 2^(s / S) in octave pixels.
#pragma once

#include "features/feature_extractor.h"

namespace proj {

struct SiftParams {
  int levels_per_octave = 3;              // S: DoG levels searched per octave
  float sigma0 = 1.6f;                    // blur of level 0, octave pixels
  float assumed_blur = 0.5f;              // blur of the input image, input pixels
  SiftSelection selection;                // max_features; upsample as the user asked
  bool upsample = false;                  // first octave -1 (2x upsampled input): resolved
  int min_octave_size_px = 16;            // no octave whose shorter side is below this
  float peak_threshold = 0.02f / 3;       // |DoG| after refinement, for images in [0, 1]
  float prefilter_ratio = 0.8f;           // extrema need |DoG| >= ratio * peak_threshold
  bool edge_test = true;                  // reject edges by principal-curvature ratio
  float edge_ratio = 10.0f;               // r in tr(H)^2 / det(H) < (r + 1)^2 / r
  int max_refinement_steps = 5;           // quadratic fit iterations (moves of one sample)
  float orientation_window_factor = 1.5f; // Gaussian sigma of the orientation window / scale
  float orientation_peak_ratio = 0.8f;    // secondary orientations >= ratio * maximum
  int max_orientations = 4;               // orientations per detection, at most
  float descriptor_magnification = 3.0f;  // descriptor cell side = magnification * scale

  int first_octave() const { return upsample ? -1 : 0; }
  void Check() const;
};

// The SIFT parameters for `options` and an image of width x height pixels (upsample resolved
// by SiftSelection::UpsampleFor).
SiftParams MakeSiftParams(const FeatureOptions& options, int width, int height);

// Size of octave `octave` (>= first octave) of a width x height input: 2x for octave -1,
// halved (rounded down) per octave above 0.
void OctaveSize(int width, int height, int octave, int* octave_width, int* octave_height);

// Number of octaves from params.first_octave() whose shorter side is >= min_octave_size_px
// (at least 1 when the first octave is that large, else 0).
int NumOctaves(const SiftParams& params, int width, int height);

}  // namespace proj
