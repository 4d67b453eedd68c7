// The per-pixel arithmetic of PatchMatch stereo (mvs/patch_match.h describes the algorithm),
// shared by the CPU path (mvs/patch_match_cpu.cc) and the CUDA kernels
// (cuda/mvs/patch_match_gpu.cu): one definition of the cost, the propagation pattern and the
// random draws, so both paths compute the same maps up to floating-point rounding.
// Plain structs of floats and raw pointers: the host API (patch_match_gpu.h) copies them as is.
#pragma once

#include <math.h>
#include <stdint.h>

#include "core/host_device.h"

namespace proj::cuda {

constexpr int kMaxPatchMatchSources = 16;

struct PmCamera {
  int width = 0, height = 0;
  float fx = 0, fy = 0, cx = 0, cy = 0;  // pixel (x, y)'s centre is at (x + 0.5, y + 0.5)
};

// A source view relative to the reference camera: x_source = rotation * x_ref + translation.
struct PmSource {
  PmCamera camera;
  float rotation[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};  // row-major
  float translation[3] = {0, 0, 0};
};

struct PmParams {
  int window_radius = 5;
  int window_step = 2;
  float sigma_spatial = 5;
  float sigma_color = 0.12f;
  int top_k = 3;
  float depth_min = 0, depth_max = 0;
  uint32_t seed = 0;  // the options' seed mixed with the image's
};

// Everything a sweep reads: the reference image and its sources (grey values in [0, 1],
// row-major, each of its camera's size), in host or device memory as the path needs.
struct PmViews {
  PmCamera reference;
  const float* reference_image = nullptr;
  int num_sources = 0;
  PmSource sources[kMaxPatchMatchSources];
  const float* source_images[kMaxPatchMatchSources] = {};
};

// The per-pixel state, updated in place: depth, unit normal (three planes, as NormalMap's
// raster) and the cost of the pixel's hypothesis.
struct PmState {
  float* depth = nullptr;
  float* normal = nullptr;  // x plane, then y, then z: normal[c * width * height + pixel]
  float* cost = nullptr;
};

struct PmPlane {
  float depth;
  float nx, ny, nz;
};

// Worst cost: the reference window has no texture, the depth is out of range, or NCC = -1.
constexpr float kPmMaxCost = 2.0f;
// A view that cannot judge the hypothesis (the window leaves the image, lies behind the
// camera, or falls on a flat area) counts as uncorrelated (NCC 0), not as the worst match:
// at the worst cost, a wrong depth that lands inside every view would beat the true depth of
// a pixel one view does not see.
constexpr float kPmUninformedCost = 1.0f;

// ---- random numbers: a counter-based hash, the same on host and device ----

PROJ_HOST_DEVICE inline uint32_t PmHash(uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

// Uniform in [0, 1) for (pixel, sweep, draw); independent of evaluation order and threads.
PROJ_HOST_DEVICE inline float PmUniform(uint32_t seed, uint32_t pixel, uint32_t sweep, uint32_t draw) {
  const uint32_t h = PmHash(PmHash(PmHash(seed ^ 0x9e3779b9U) + pixel) + sweep * 64U + draw);
  return static_cast<float>(h >> 8) * (1.0f / 16777216.0f);
}

// ---- geometry ----

// The ray through pixel (x, y)'s centre, z = 1.
PROJ_HOST_DEVICE inline void PmPixelRay(const PmCamera& cam, int x, int y, float* ray) {
  ray[0] = (static_cast<float>(x) + 0.5f - cam.cx) / cam.fx;
  ray[1] = (static_cast<float>(y) + 0.5f - cam.cy) / cam.fy;
  ray[2] = 1.0f;
}

// Flips the normal to face the camera along `ray` (n . ray < 0), as stored normals do.
PROJ_HOST_DEVICE inline void PmFaceCamera(const float* ray, PmPlane* plane) {
  if (plane->nx * ray[0] + plane->ny * ray[1] + plane->nz * ray[2] > 0) {
    plane->nx = -plane->nx;
    plane->ny = -plane->ny;
    plane->nz = -plane->nz;
  }
}

PROJ_HOST_DEVICE inline void PmNormalize(PmPlane* plane) {
  const float norm = sqrtf(plane->nx * plane->nx + plane->ny * plane->ny + plane->nz * plane->nz);
  const float inv = norm > 1e-12f ? 1.0f / norm : 0.0f;
  plane->nx *= inv;
  plane->ny *= inv;
  plane->nz *= inv;
  if (inv == 0.0f) plane->nz = -1.0f;
}

// A direction uniform on the unit sphere from two uniforms.
PROJ_HOST_DEVICE inline void PmSphereDirection(float u1, float u2, float* n) {
  const float z = 1.0f - 2.0f * u1;
  const float r = sqrtf(fmaxf(0.0f, 1.0f - z * z));
  const float phi = 6.28318530718f * u2;
  n[0] = r * cosf(phi);
  n[1] = r * sinf(phi);
  n[2] = z;
}

// A depth uniform in inverse depth over [depth_min, depth_max] (near depths sampled as densely
// as their disparity).
PROJ_HOST_DEVICE inline float PmRandomDepth(const PmParams& params, float u) {
  const float inv_near = 1.0f / params.depth_min, inv_far = 1.0f / params.depth_max;
  return 1.0f / (inv_far + u * (inv_near - inv_far));
}

PROJ_HOST_DEVICE inline PmPlane PmRandomPlane(const PmParams& params, const float* ray, uint32_t pixel,
                                              uint32_t sweep, uint32_t draw) {
  float n[3];
  PmSphereDirection(PmUniform(params.seed, pixel, sweep, draw + 1), PmUniform(params.seed, pixel, sweep, draw + 2), n);
  PmPlane plane{PmRandomDepth(params, PmUniform(params.seed, pixel, sweep, draw)), n[0], n[1], n[2]};
  PmFaceCamera(ray, &plane);
  return plane;
}

// ---- the matching cost ----

PROJ_HOST_DEVICE inline float PmLoad(const float* p) {
#ifdef __CUDA_ARCH__
  return __ldg(p);
#else
  return *p;
#endif
}

PROJ_HOST_DEVICE inline float PmPixel(const float* image, int width, int x, int y) {
  return PmLoad(image + static_cast<long>(y) * width + x);
}

// The reference window of pixel (x, y): its samples (every window_step pixels within
// window_radius, those inside the image, row by row), each with its grey value and bilateral
// weight exp(-d^2 / 2 sigma_s^2 - (I - I_centre)^2 / 2 sigma_c^2), and the weighted mean and
// variance of the values. The same for every hypothesis of the pixel, so a path may compute it
// once per pixel (PmCachedWindow, the CPU's) or sample by sample (PmLiveWindow, the GPU's: no
// per-thread arrays); both give the same numbers in the same order.
struct PmLiveWindow {
  const PmViews* views;
  const PmParams* params;
  int x, y;
  float r_mean = 0, r_var = 0;

  PROJ_HOST_DEVICE PmLiveWindow(const PmViews& v, const PmParams& p, int px, int py)
      : views(&v), params(&p), x(px), y(py) {
    float w_sum = 0, r_sum = 0, rr_sum = 0;
    ForEach([&](int, int, float r, float w) {
      w_sum += w;
      r_sum += w * r;
      rr_sum += w * r * r;
      return true;
    });
    r_mean = r_sum / w_sum;
    r_var = rr_sum / w_sum - r_mean * r_mean;
  }

  // Calls visit(qx, qy, value, weight) for each sample until it returns false; returns
  // whether every call returned true.
  template <typename Visit>
  PROJ_HOST_DEVICE bool ForEach(Visit visit) const {
    const PmCamera& ref = views->reference;
    const float center = PmPixel(views->reference_image, ref.width, x, y);
    const float spatial = -0.5f / (params->sigma_spatial * params->sigma_spatial);
    const float color = -0.5f / (params->sigma_color * params->sigma_color);
    const int radius = params->window_radius, step = params->window_step;
    for (int dy = -radius; dy <= radius; dy += step) {
      const int qy = y + dy;
      if (qy < 0 || qy >= ref.height) continue;
      for (int dx = -radius; dx <= radius; dx += step) {
        const int qx = x + dx;
        if (qx < 0 || qx >= ref.width) continue;
        const float r = PmPixel(views->reference_image, ref.width, qx, qy);
        const float dr = r - center;
        const float w = expf(spatial * static_cast<float>(dx * dx + dy * dy) + color * dr * dr);
        if (!visit(qx, qy, r, w)) return false;
      }
    }
    return true;
  }
};

// Flat reference windows (weighted variance below this, (0.3% of the grey range)^2) and flat
// source windows cannot be matched.
constexpr float kPmMinVariance = 1e-5f;

// 1 - bilateral-weighted ZNCC of the reference window (`window`, a PmLiveWindow or
// PmCachedWindow of pixel (x, y)) and the source image through the plane's homography, in
// [0, 2]; kPmUninformedCost when a sample leaves the source image or lies behind it or the
// source window is flat, kPmMaxCost when the reference window is flat.
template <typename Window>
PROJ_HOST_DEVICE inline float PmViewCost(const PmViews& views, int source, const Window& window, const float* ray,
                                         const PmPlane& plane) {
  if (!(window.r_var > kPmMinVariance)) return kPmMaxCost;
  const PmCamera& ref = views.reference;
  const PmSource& src = views.sources[source];
  const float* R = src.rotation;
  const float* t = src.translation;
  // Plane n . X = dist through the pixel's 3D point; X_src = (R + t n^T / dist) X.
  const float dist = plane.depth * (plane.nx * ray[0] + plane.ny * ray[1] + plane.nz * ray[2]);
  if (!(fabsf(dist) > 1e-9f)) return kPmUninformedCost;
  const float inv_dist = 1.0f / dist;
  float M[9];
  const float n[3] = {plane.nx, plane.ny, plane.nz};
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) M[r * 3 + c] = R[r * 3 + c] + t[r] * n[c] * inv_dist;
  // X_src(q) for reference pixel q = base + qx * step_x + qy * step_y (pixel-centre rays).
  float step_x[3], step_y[3], base[3];
  const float bx = (0.5f - ref.cx) / ref.fx, by = (0.5f - ref.cy) / ref.fy;
  for (int r = 0; r < 3; ++r) {
    step_x[r] = M[r * 3 + 0] / ref.fx;
    step_y[r] = M[r * 3 + 1] / ref.fy;
    base[r] = M[r * 3 + 0] * bx + M[r * 3 + 1] * by + M[r * 3 + 2];
  }
  const float* src_image = views.source_images[source];
  const int sw = src.camera.width, sh = src.camera.height;
  const float sfx = src.camera.fx, sfy = src.camera.fy, scx = src.camera.cx - 0.5f, scy = src.camera.cy - 0.5f;
  float w_sum = 0, s_sum = 0, ss_sum = 0, rs_sum = 0;
  const bool inside = window.ForEach([&](int qx, int qy, float r_value, float w) {
    const float X = base[0] + qx * step_x[0] + qy * step_y[0];
    const float Y = base[1] + qx * step_x[1] + qy * step_y[1];
    const float Z = base[2] + qx * step_x[2] + qy * step_y[2];
    if (!(Z > 0)) return false;
    // Source pixel in array coordinates (pixel i's centre at i) for bilinear sampling.
    const float inv_z = 1.0f / Z;
    const float sx = sfx * X * inv_z + scx;
    const float sy = sfy * Y * inv_z + scy;
    if (!(sx >= 0 && sy >= 0 && sx <= sw - 1.001f && sy <= sh - 1.001f)) return false;
    const int x0 = static_cast<int>(sx), y0 = static_cast<int>(sy);
    const float ax = sx - x0, ay = sy - y0;
    const float* row0 = src_image + static_cast<long>(y0) * sw + x0;
    const float top = PmLoad(row0) + ax * (PmLoad(row0 + 1) - PmLoad(row0));
    const float bottom = PmLoad(row0 + sw) + ax * (PmLoad(row0 + sw + 1) - PmLoad(row0 + sw));
    const float s = top + ay * (bottom - top);
    w_sum += w;
    s_sum += w * s;
    ss_sum += w * s * s;
    rs_sum += w * r_value * s;
    return true;
  });
  if (!inside) return kPmUninformedCost;
  const float inv_w = 1.0f / w_sum;
  const float s_mean = s_sum * inv_w;
  const float s_var = ss_sum * inv_w - s_mean * s_mean;
  const float covariance = rs_sum * inv_w - window.r_mean * s_mean;
  if (!(s_var > kPmMinVariance)) return kPmUninformedCost;
  const float ncc = covariance / sqrtf(window.r_var * s_var);
  return fmaxf(0.0f, fminf(kPmMaxCost, 1.0f - ncc));
}

// The hypothesis' cost: the mean of its top_k smallest view costs (occluded or unmatched views
// drop out).
template <typename Window>
PROJ_HOST_DEVICE inline float PmCost(const PmViews& views, const PmParams& params, const Window& window,
                                     const float* ray, const PmPlane& plane) {
  if (!(plane.depth >= params.depth_min && plane.depth <= params.depth_max)) return kPmMaxCost;
  constexpr int kMaxTopK = 8;
  float best[kMaxTopK];
  const int k = params.top_k < views.num_sources ? params.top_k : views.num_sources;
  for (int i = 0; i < kMaxTopK; ++i) best[i] = kPmMaxCost;
  for (int s = 0; s < views.num_sources; ++s) {
    float c = PmViewCost(views, s, window, ray, plane);
    // Insert into the sorted best[0..k).
    for (int i = 0; i < kMaxTopK; ++i) {
      if (i < k && c < best[i]) {
        const float swap = best[i];
        best[i] = c;
        c = swap;
      }
    }
  }
  float sum = 0;
  for (int i = 0; i < kMaxTopK; ++i)
    if (i < k) sum += best[i];
  return k > 0 ? sum / k : kPmMaxCost;
}

// ---- state access ----

PROJ_HOST_DEVICE inline PmPlane PmLoadPlane(const PmState& state, int plane_size, int index) {
  return {state.depth[index], state.normal[index], state.normal[plane_size + index],
          state.normal[2 * plane_size + index]};
}

PROJ_HOST_DEVICE inline void PmStorePlane(const PmState& state, int plane_size, int index, const PmPlane& plane,
                                          float cost) {
  state.depth[index] = plane.depth;
  state.normal[index] = plane.nx;
  state.normal[plane_size + index] = plane.ny;
  state.normal[2 * plane_size + index] = plane.nz;
  state.cost[index] = cost;
}

// Pixel (x, y)'s starting hypothesis: random, unless a seed set a depth there before (a depth
// > 0 already in the state; its normal faces the camera). Then its cost.
template <typename Window = PmLiveWindow>
PROJ_HOST_DEVICE inline void PmInitPixel(const PmViews& views, const PmParams& params, const PmState& state, int x,
                                         int y) {
  const Window window(views, params, x, y);
  const int width = views.reference.width, plane_size = width * views.reference.height;
  const int index = y * width + x;
  float ray[3];
  PmPixelRay(views.reference, x, y, ray);
  PmPlane plane;
  if (state.depth[index] > 0) {
    plane = {state.depth[index], -ray[0], -ray[1], -ray[2]};
    PmNormalize(&plane);
  } else {
    plane = PmRandomPlane(params, ray, static_cast<uint32_t>(index), 0, 0);
  }
  PmStorePlane(state, plane_size, index, plane, PmCost(views, params, window, ray, plane));
}

// ---- one pixel's update in a red-black sweep ----

// Offset `k` of propagation region `region` (ACMH's pattern; every offset has odd |dx| + |dy|,
// so it lands on a pixel of the other colour): regions 0-3 are near V-shapes of 6 pixels up,
// down, left and right; regions 4-7 are far lines of 10 pixels at distances 5, 7, ..., 23.
constexpr int kPmRegions = 8;
constexpr int kPmNearSamples = 6;
constexpr int kPmFarSamples = 10;

PROJ_HOST_DEVICE inline int PmRegionSamples(int region) { return region < 4 ? kPmNearSamples : kPmFarSamples; }

PROJ_HOST_DEVICE inline void PmRegionOffset(int region, int k, int* dx, int* dy) {
  const int dir = region & 3;
  const int ax = dir == 2 ? -1 : dir == 3 ? 1 : 0;  // along the direction
  const int ay = dir == 0 ? -1 : dir == 1 ? 1 : 0;
  const int px = ay != 0 ? 1 : 0, py = ax != 0 ? 1 : 0;  // perpendicular
  if (region >= 4) {
    const int distance = 5 + 2 * k;
    *dx = ax * distance;
    *dy = ay * distance;
    return;
  }
  // 1, 2 +- perp, 3, 4 +- perp.
  const int along[kPmNearSamples] = {1, 2, 2, 3, 4, 4};
  const int side[kPmNearSamples] = {0, 1, -1, 0, 1, -1};
  *dx = ax * along[k] + px * side[k];
  *dy = ay * along[k] + py * side[k];
}

// Relative size of the perturbations in sweep `sweep` (halving every sweep).
PROJ_HOST_DEVICE inline float PmPerturbation(int sweep) { return ldexpf(1.0f, -sweep); }

PROJ_HOST_DEVICE inline PmPlane PmPerturbDepth(const PmPlane& plane, float scale, float u) {
  PmPlane out = plane;
  out.depth = plane.depth * (1.0f + 0.1f * scale * (2.0f * u - 1.0f));
  return out;
}

PROJ_HOST_DEVICE inline PmPlane PmPerturbNormal(const PmPlane& plane, const float* ray, float scale, float u1,
                                                float u2, float u3) {
  PmPlane out = plane;
  const float amount = 0.3f * scale;
  out.nx += amount * (2.0f * u1 - 1.0f);
  out.ny += amount * (2.0f * u2 - 1.0f);
  out.nz += amount * (2.0f * u3 - 1.0f);
  PmNormalize(&out);
  PmFaceCamera(ray, &out);
  return out;
}

// Updates pixel (x, y) in sweep `sweep` (>= 1): propagation from the other colour's pixels,
// then random refinement. Reads only pixels of the other colour besides its own, so all pixels
// of one colour update in any order, in parallel, with the same result.
template <typename Window = PmLiveWindow>
PROJ_HOST_DEVICE inline void PmUpdatePixel(const PmViews& views, const PmParams& params, const PmState& state, int x,
                                           int y, int sweep) {
  const Window window(views, params, x, y);
  const int width = views.reference.width, height = views.reference.height, plane_size = width * height;
  const int index = y * width + x;
  float ray[3];
  PmPixelRay(views.reference, x, y, ray);
  PmPlane best = PmLoadPlane(state, plane_size, index);
  float best_cost = state.cost[index];
  auto consider = [&](const PmPlane& candidate) {
    const float c = PmCost(views, params, window, ray, candidate);
    if (c < best_cost) {
      best_cost = c;
      best = candidate;
    }
  };
  for (int region = 0; region < kPmRegions; ++region) {
    int chosen = -1;
    float chosen_cost = 3.0f;
    const int samples = PmRegionSamples(region);
    for (int k = 0; k < samples; ++k) {
      int dx, dy;
      PmRegionOffset(region, k, &dx, &dy);
      const int nx = x + dx, ny = y + dy;
      if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
      const int neighbour = ny * width + nx;
      if (state.cost[neighbour] < chosen_cost) {
        chosen_cost = state.cost[neighbour];
        chosen = neighbour;
      }
    }
    if (chosen < 0) continue;
    PmPlane candidate = PmLoadPlane(state, plane_size, chosen);
    // The neighbour's plane, continued to this pixel's ray (depth where the ray meets it).
    const float denom = candidate.nx * ray[0] + candidate.ny * ray[1] + candidate.nz * ray[2];
    float neighbour_ray[3];
    PmPixelRay(views.reference, chosen % width, chosen / width, neighbour_ray);
    const float dist = candidate.depth * (candidate.nx * neighbour_ray[0] + candidate.ny * neighbour_ray[1] +
                                          candidate.nz * neighbour_ray[2]);
    if (denom < -1e-3f) candidate.depth = dist / denom;
    consider(candidate);
  }
  // Refinement: random and perturbed variants of the best depth and normal.
  const float scale = PmPerturbation(sweep - 1);
  const uint32_t pixel = static_cast<uint32_t>(index);
  const uint32_t s = static_cast<uint32_t>(sweep);
  const PmPlane random = PmRandomPlane(params, ray, pixel, s, 0);
  const PmPlane current = best;
  consider(PmPlane{random.depth, current.nx, current.ny, current.nz});
  consider(PmPlane{current.depth, random.nx, random.ny, random.nz});
  const PmPlane depth_perturbed = PmPerturbDepth(current, scale, PmUniform(params.seed, pixel, s, 3));
  const PmPlane normal_perturbed = PmPerturbNormal(current, ray, scale, PmUniform(params.seed, pixel, s, 4),
                                                   PmUniform(params.seed, pixel, s, 5),
                                                   PmUniform(params.seed, pixel, s, 6));
  consider(depth_perturbed);
  consider(normal_perturbed);
  consider(PmPlane{depth_perturbed.depth, normal_perturbed.nx, normal_perturbed.ny, normal_perturbed.nz});
  PmStorePlane(state, plane_size, index, best, best_cost);
}

}  // namespace proj::cuda
