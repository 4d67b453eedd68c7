// Drift correction of KLT tracks: the arithmetic the CPU (features/klt/klt_affine_refiner.h)
// and GPU (cuda/klt/klt_affine_refine.cu) trackers share, so both compute the same thing;
// they differ only in how they sample the image (exact bilinear on the CPU, the texture
// unit's bilinear filtering on the GPU).
//
// Why: frame-to-frame Lucas-Kanade with a translation-only window chains its errors. Under
// forward motion every window is stretched (up to 30% per frame near the image border of a
// car camera), each step errs by a fraction of a pixel, and a track's error grows with its
// age (synthetic street: 0.3 px after one frame, 1.1 px after eight; bench/RESULTS-klt.md),
// which biases the self-calibrated focal length. So each tracked position is refined by
// aligning the window the track began with (its template, from the frame that selected it)
// to the current frame under an affine warp: errors no longer add up along the track.
//
// Method: inverse compositional image alignment with an affine warp, Baker & Matthews,
// "Lucas-Kanade 20 Years On: A Unifying Framework" (IJCV 2004), section 3.2; the affine
// window model of Shi & Tomasi, "Good Features to Track" (CVPR 1994). The warp maps a
// template offset (i, j), i, j in [-half, half], to the image point A (i, j) + t, in pixel
// coordinates with pixel centres at integers (the project convention minus 0.5).
#pragma once

#include <cmath>

#include "core/host_device.h"

namespace proj {

struct KltAffineWarp {
  float a11 = 1, a12 = 0, a21 = 0, a22 = 1;
  float tx = 0, ty = 0;
};

// Number of unique entries of the symmetric 6x6 normal matrix (upper triangle, row-major).
constexpr int kKltAffineNormalEntries = 21;

// Steepest-descent row of one template pixel at offset (i, j) with template gradient
// (gx, gy), for the warp parameters p of W(x; p) = ((1 + p1) i + p3 j + p5,
// p2 i + (1 + p4) j + p6).
PROJ_HOST_DEVICE inline void KltAffineSteepestDescent(float i, float j, float gx, float gy,
                                                      float* sd) {
  sd[0] = gx * i;
  sd[1] = gy * i;
  sd[2] = gx * j;
  sd[3] = gy * j;
  sd[4] = gx;
  sd[5] = gy;
}

// Scharr derivative of a template stored with a one-pixel ring, row stride `stride`, at the
// inner pixel whose storage index is c (as the Lucas-Kanade kernels compute it).
PROJ_HOST_DEVICE inline void KltScharrGradient(const float* patch, int c, int stride, float* gx,
                                               float* gy) {
  *gx = (3.0f * (patch[c - stride + 1] - patch[c - stride - 1]) +
         10.0f * (patch[c + 1] - patch[c - 1]) +
         3.0f * (patch[c + stride + 1] - patch[c + stride - 1])) * (1.0f / 32);
  *gy = (3.0f * (patch[c + stride - 1] - patch[c - stride - 1]) +
         10.0f * (patch[c + stride] - patch[c - stride]) +
         3.0f * (patch[c + stride + 1] - patch[c - stride + 1])) * (1.0f / 32);
}

// Solves H x = b for the symmetric positive definite H given by its upper triangle (21
// entries, row-major) by Cholesky decomposition, in double precision. False when H is not
// positive definite (too little texture for six parameters).
PROJ_HOST_DEVICE inline bool KltSolveAffineNormal(const float* h_upper, const float* b, float* x) {
  double l[6][6];
  int k = 0;
  double h[6][6];
  for (int r = 0; r < 6; ++r) {
    for (int c = r; c < 6; ++c) {
      h[r][c] = h[c][r] = h_upper[k++];
    }
  }
  for (int r = 0; r < 6; ++r) {
    for (int c = 0; c <= r; ++c) {
      double sum = h[r][c];
      for (int m = 0; m < c; ++m) sum -= l[r][m] * l[c][m];
      if (r == c) {
        if (!(sum > 1e-12 * (h[0][0] + h[5][5] + 1e-30))) return false;
        l[r][r] = sqrt(sum);
      } else {
        l[r][c] = sum / l[c][c];
      }
    }
  }
  double y[6];
  for (int r = 0; r < 6; ++r) {
    double sum = b[r];
    for (int m = 0; m < r; ++m) sum -= l[r][m] * y[m];
    y[r] = sum / l[r][r];
  }
  for (int r = 5; r >= 0; --r) {
    double sum = y[r];
    for (int m = r + 1; m < 6; ++m) sum -= l[m][r] * x[m];
    x[r] = static_cast<float>(sum / l[r][r]);
  }
  return true;
}

// The inverse compositional update w <- w o W(p)^-1. False when W(p) is singular.
PROJ_HOST_DEVICE inline bool KltComposeInverse(const float* p, KltAffineWarp* w) {
  // W(p) = [[1 + p1, p3, p5], [p2, 1 + p4, p6]]; its inverse's linear part and translation.
  const float b11 = 1 + p[0], b12 = p[2], b21 = p[1], b22 = 1 + p[3];
  const float det = b11 * b22 - b12 * b21;
  if (!(fabsf(det) > 1e-6f)) return false;
  const float i11 = b22 / det, i12 = -b12 / det, i21 = -b21 / det, i22 = b11 / det;
  const float itx = -(i11 * p[4] + i12 * p[5]);
  const float ity = -(i21 * p[4] + i22 * p[5]);
  KltAffineWarp out;
  out.a11 = w->a11 * i11 + w->a12 * i21;
  out.a12 = w->a11 * i12 + w->a12 * i22;
  out.a21 = w->a21 * i11 + w->a22 * i21;
  out.a22 = w->a21 * i12 + w->a22 * i22;
  out.tx = w->a11 * itx + w->a12 * ity + w->tx;
  out.ty = w->a21 * itx + w->a22 * ity + w->ty;
  *w = out;
  return true;
}

// Largest distance between where two warps put the window's corners (offsets +-half).
PROJ_HOST_DEVICE inline float KltWarpCornerShift(const KltAffineWarp& a, const KltAffineWarp& b,
                                                 float half) {
  float largest = 0;
  for (int corner = 0; corner < 4; ++corner) {
    const float i = (corner & 1) ? half : -half;
    const float j = (corner & 2) ? half : -half;
    const float dx = (a.a11 - b.a11) * i + (a.a12 - b.a12) * j + (a.tx - b.tx);
    const float dy = (a.a21 - b.a21) * i + (a.a22 - b.a22) * j + (a.ty - b.ty);
    largest = fmaxf(largest, dx * dx + dy * dy);
  }
  return sqrtf(largest);
}

// One Gauss-Newton step of the alignment, the same on both devices: solves the normal
// equations (upper triangle h_upper, right side b) and composes the update into *warp.
enum class KltAffineStep { kMoved, kConverged, kFailed };
PROJ_HOST_DEVICE inline KltAffineStep KltTakeAffineStep(const float* h_upper, const float* b,
                                                        float half, float epsilon,
                                                        KltAffineWarp* warp) {
  float update[6];
  if (!KltSolveAffineNormal(h_upper, b, update)) return KltAffineStep::kFailed;
  const KltAffineWarp previous = *warp;
  if (!KltComposeInverse(update, warp)) return KltAffineStep::kFailed;
  return KltWarpCornerShift(*warp, previous, half) <= epsilon ? KltAffineStep::kConverged
                                                              : KltAffineStep::kMoved;
}

// True when the warp's linear part is orientation-preserving and its singular values (the
// window's scale along its principal axes) lie in [1 / max_scale, max_scale].
PROJ_HOST_DEVICE inline bool KltWarpScaleWithin(const KltAffineWarp& w, float max_scale) {
  const float det = w.a11 * w.a22 - w.a12 * w.a21;
  if (!(det > 0)) return false;
  const float sum_sq = w.a11 * w.a11 + w.a12 * w.a12 + w.a21 * w.a21 + w.a22 * w.a22;
  const float root = sqrtf(fmaxf(sum_sq * sum_sq - 4 * det * det, 0.0f));
  const float largest = sqrtf(0.5f * (sum_sq + root));
  const float smallest = det / largest;
  return largest <= max_scale && smallest >= 1.0f / max_scale;
}

// True when every corner of the warped window (offsets +-(half + 1), the gradient ring
// included) lies inside [0, width - 1] x [0, height - 1].
PROJ_HOST_DEVICE inline bool KltWarpInside(const KltAffineWarp& w, float half, int width,
                                           int height) {
  const float r = half + 1;
  for (int corner = 0; corner < 4; ++corner) {
    const float i = (corner & 1) ? r : -r;
    const float j = (corner & 2) ? r : -r;
    const float x = w.a11 * i + w.a12 * j + w.tx;
    const float y = w.a21 * i + w.a22 * j + w.ty;
    if (!(x >= 0 && y >= 0 && x <= width - 1 && y <= height - 1)) return false;
  }
  return true;
}

}  // namespace proj
