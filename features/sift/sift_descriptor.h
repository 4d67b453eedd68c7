// SIFT orientation assignment and descriptor (Lowe 2004 sec. 5 and 6), following VLFeat's
// vl_sift_calc_keypoint_orientations / vl_sift_calc_keypoint_descriptor. All positions and
// sigmas are in octave samples of `level`, the Gaussian level nearest to the detection.
// Gradients are central differences; samples on the outermost row/column are skipped.
#pragma once

#include <cstdint>

#include "features/sift/scale_space.h"
#include "features/sift/sift_params.h"

namespace proj {

constexpr int kSiftOrientationBins = 36;

// Dominant orientations (radians in [0, 2 pi), image x axis = 0, towards +y): 36-bin
// histogram of gradient angles weighted by magnitude and a Gaussian of sigma
// orientation_window_factor * sigma (window radius 3 of those sigmas), linear binning,
// smoothed 6 times by a circular [1 1 1] / 3 box; every local peak >= peak ratio x maximum,
// refined by a parabola through the peak and its neighbours. Returns how many (<= max),
// strongest first.
int ComputeSiftOrientations(const Plane& level, float x, float y, float sigma,
                            const SiftParams& params, float* angles);

// 4x4 cells of side descriptor_magnification * sigma times 8 orientation bins, over a window
// rotated by `angle`, trilinear interpolation, Gaussian weight of sigma 2 cells; L2
// normalised, clamped at 0.2, renormalised and stored as min(255, round(512 v)).
// Layout: descriptor[(cell_y * 4 + cell_x) * 8 + orientation_bin].
void ComputeSiftDescriptor(const Plane& level, float x, float y, float sigma, float angle,
                           const SiftParams& params, uint8_t* descriptor);

// The normalise / clamp / renormalise / quantise step on a raw 128-bin histogram.
void NormalizeSiftDescriptor(float* histogram, uint8_t* descriptor);

}  // namespace proj
