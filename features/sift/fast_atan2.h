// atan2 for the SIFT gradient loops: arithmetic and selects only, so that a loop over a row of
// samples vectorizes (the library call does not, and was a fifth of the CPU extraction time).
#pragma once

#include <algorithm>
#include <cmath>

namespace proj {

// Range reduction to [0, tan(pi / 8)] and the polynomial of Cephes' atanf: within 3 ulp of
// std::atan2 (sift_cpu_test; CUDA's atan2f, which the GPU SIFT uses, is within 2 ulp of the
// exact value). atan2(0, 0) = 0; signed zeros are not distinguished (atan2(0, -0) is 0).
inline float FastAtan2(float y, float x) {
  constexpr float kPi = 3.14159265358979f;
  const float ax = std::fabs(x), ay = std::fabs(y);
  const float ratio = std::min(ax, ay) / std::max(std::max(ax, ay), 1e-30f);  // in [0, 1]
  const bool reduce = ratio > 0.41421356f;                                   // tan(pi / 8)
  const float reduced = (ratio - 1.0f) / (ratio + 1.0f);
  const float t = reduce ? reduced : ratio;
  const float z = t * t;
  float r = (((8.05374449538e-2f * z - 1.38776856032e-1f) * z + 1.99777106478e-1f) * z -
             3.33329491539e-1f) * z * t + t + (reduce ? 0.25f * kPi : 0.0f);
  const float complement = 0.5f * kPi - r;
  r = ay > ax ? complement : r;
  const float supplement = kPi - r;
  r = x < 0.0f ? supplement : r;
  return y < 0.0f ? -r : r;
}

}  // namespace proj
