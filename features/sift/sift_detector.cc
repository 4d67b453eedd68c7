#include "features/sift/sift_detector.h"

#include <cmath>
#include <utility>

#include "core/parallel_for.h"

namespace proj {

bool Solve3x3(const float a_in[9], const float b_in[3], float x[3]) {
  float a[3][4];
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) a[r][c] = a_in[3 * r + c];
    a[r][3] = b_in[r];
  }
  for (int col = 0; col < 3; ++col) {
    int pivot = col;
    for (int r = col + 1; r < 3; ++r) {
      if (std::fabs(a[r][col]) > std::fabs(a[pivot][col])) pivot = r;
    }
    if (std::fabs(a[pivot][col]) < 1e-10f) return false;
    if (pivot != col) {
      for (int c = 0; c < 4; ++c) std::swap(a[pivot][c], a[col][c]);
    }
    for (int r = col + 1; r < 3; ++r) {
      const float f = a[r][col] / a[col][col];
      for (int c = col; c < 4; ++c) a[r][c] -= f * a[col][c];
    }
  }
  for (int r = 2; r >= 0; --r) {
    float v = a[r][3];
    for (int c = r + 1; c < 3; ++c) v -= a[r][c] * x[c];
    x[r] = v / a[r][r];
  }
  return std::isfinite(x[0]) && std::isfinite(x[1]) && std::isfinite(x[2]);
}

std::vector<SiftExtremum> FindScaleSpaceExtrema(const ScaleSpace& space, const SiftParams& params,
                                                int num_threads) {
  const int S = params.levels_per_octave;
  const float threshold = params.prefilter_ratio * params.peak_threshold;
  // One work item per (octave, level, row); results concatenated in item order.
  struct Item {
    int octave_slot, level, y;
  };
  std::vector<Item> items;
  for (int o = 0; o < static_cast<int>(space.octaves.size()); ++o) {
    for (int s = 0; s < S; ++s) {
      for (int y = 1; y < space.octaves[o].height - 1; ++y) items.push_back({o, s, y});
    }
  }
  std::vector<std::vector<SiftExtremum>> found(items.size());
  ParallelFor(0, static_cast<int>(items.size()), num_threads, [&](int index, int) {
    const Item& item = items[index];
    const Octave& octave = space.octaves[item.octave_slot];
    const int w = octave.width;
    const Plane* dogs[3] = {&octave.dogs[item.level], &octave.dogs[item.level + 1],
                            &octave.dogs[item.level + 2]};
    const float* center_row = dogs[1]->row(item.y);
    for (int x = 1; x < w - 1; ++x) {
      const float v = center_row[x];
      if (std::fabs(v) < threshold) continue;
      bool is_max = v > 0, is_min = v < 0;
      for (int d = 0; d < 3 && (is_max || is_min); ++d) {
        for (int dy = -1; dy <= 1 && (is_max || is_min); ++dy) {
          const float* row = dogs[d]->row(item.y + dy);
          for (int dx = -1; dx <= 1; ++dx) {
            if (d == 1 && dy == 0 && dx == 0) continue;
            const float n = row[x + dx];
            is_max = is_max && v > n;
            is_min = is_min && v < n;
          }
        }
      }
      if (is_max || is_min) found[index].push_back({item.octave_slot, x, item.y, item.level});
    }
  });
  std::vector<SiftExtremum> all;
  for (auto& list : found) all.insert(all.end(), list.begin(), list.end());
  return all;
}

bool RefineExtremum(const ScaleSpace& space, const SiftParams& params, const SiftExtremum& extremum,
                    SiftDetection* detection) {
  const int S = params.levels_per_octave;
  const Octave& octave = space.octaves[extremum.octave_slot];
  const int w = octave.width, h = octave.height;
  int x = extremum.x, y = extremum.y, s = extremum.level;
  float offset[3] = {0, 0, 0};
  float gradient[3] = {0, 0, 0};
  float dxx = 0, dyy = 0, dxy = 0, value = 0;
  bool converged = false;
  for (int step = 0; step < params.max_refinement_steps; ++step) {
    // DoG level s is dogs[s + 1]; its neighbours in scale are dogs[s] and dogs[s + 2].
    const Plane& below = octave.dogs[s];
    const Plane& here = octave.dogs[s + 1];
    const Plane& above = octave.dogs[s + 2];
    value = here.at(x, y);
    gradient[0] = 0.5f * (here.at(x + 1, y) - here.at(x - 1, y));
    gradient[1] = 0.5f * (here.at(x, y + 1) - here.at(x, y - 1));
    gradient[2] = 0.5f * (above.at(x, y) - below.at(x, y));
    dxx = here.at(x + 1, y) + here.at(x - 1, y) - 2 * value;
    dyy = here.at(x, y + 1) + here.at(x, y - 1) - 2 * value;
    const float dss = above.at(x, y) + below.at(x, y) - 2 * value;
    dxy = 0.25f * (here.at(x + 1, y + 1) - here.at(x - 1, y + 1) - here.at(x + 1, y - 1) +
                   here.at(x - 1, y - 1));
    const float dxs = 0.25f * (above.at(x + 1, y) - above.at(x - 1, y) - below.at(x + 1, y) +
                               below.at(x - 1, y));
    const float dys = 0.25f * (above.at(x, y + 1) - above.at(x, y - 1) - below.at(x, y + 1) +
                               below.at(x, y - 1));
    const float hessian[9] = {dxx, dxy, dxs, dxy, dyy, dys, dxs, dys, dss};
    const float minus_gradient[3] = {-gradient[0], -gradient[1], -gradient[2]};
    if (!Solve3x3(hessian, minus_gradient, offset)) return false;
    if (std::fabs(offset[0]) <= 0.5f && std::fabs(offset[1]) <= 0.5f &&
        std::fabs(offset[2]) <= 0.5f) {
      converged = true;
      break;
    }
    // Move one sample towards the interpolated extremum in each direction that is off.
    x += (offset[0] > 0.5f) - (offset[0] < -0.5f);
    y += (offset[1] > 0.5f) - (offset[1] < -0.5f);
    s += (offset[2] > 0.5f) - (offset[2] < -0.5f);
    if (x < 1 || x > w - 2 || y < 1 || y > h - 2 || s < 0 || s > S - 1) return false;
  }
  if (!converged) return false;
  const float contrast =
      value + 0.5f * (gradient[0] * offset[0] + gradient[1] * offset[1] + gradient[2] * offset[2]);
  if (std::fabs(contrast) < params.peak_threshold) return false;
  if (params.edge_test) {
    const float trace = dxx + dyy;
    const float det = dxx * dyy - dxy * dxy;
    const float r = params.edge_ratio;
    if (det <= 0 || trace * trace * r >= (r + 1) * (r + 1) * det) return false;
  }
  detection->octave_slot = extremum.octave_slot;
  detection->x = x + offset[0];
  detection->y = y + offset[1];
  detection->level = s + offset[2];
  detection->sigma = params.sigma0 * std::pow(2.0f, detection->level / S);
  detection->response = std::fabs(contrast);
  return true;
}

}  // namespace proj
