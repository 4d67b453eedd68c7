// Parameters of PatchMatch stereo (mvs/patch_match.h). Defaults follow ACMH/COLMAP practice:
// an 11x11 window sampled every second pixel, bilateral weights, the best few source views.
#pragma once

#include <cstdint>

namespace proj::mvs {

struct PatchMatchOptions {
  int window_radius = 5;       // px: the window is (2 r + 1)^2 pixels
  int window_step = 2;         // px between the window's samples (1 = every pixel)
  float sigma_spatial = 5.0f;  // px, bilateral weight's distance term
  float sigma_color = 0.12f;   // grey levels in [0, 1], bilateral weight's intensity term
  int top_k_views = 1;         // a hypothesis' cost: mean of its best source views' costs (1: bench/RESULTS-dense.md)
  int num_iterations = 4;      // red-black sweeps (each updates every pixel once)
  uint32_t seed = 1;           // of the hash that draws random hypotheses (reproducible runs)
  void Check() const;          // throws InputError naming the field
};

}  // namespace proj::mvs
