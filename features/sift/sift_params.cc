#include "features/sift/sift_params.h"

#include <algorithm>

#include "core/check.h"

namespace proj {

void SiftParams::Check() const {
  PROJ_REQUIRE(levels_per_octave >= 1, "SiftParams.levels_per_octave must be >= 1");
  PROJ_REQUIRE(sigma0 > assumed_blur && assumed_blur >= 0,
               "SiftParams.sigma0 must exceed assumed_blur >= 0");
  PROJ_REQUIRE(min_octave_size_px >= 8, "SiftParams.min_octave_size_px must be >= 8");
  PROJ_REQUIRE(peak_threshold >= 0, "SiftParams.peak_threshold must be >= 0");
  PROJ_REQUIRE(edge_ratio > 1, "SiftParams.edge_ratio must be > 1");
  PROJ_REQUIRE(max_orientations >= 1, "SiftParams.max_orientations must be >= 1");
  PROJ_REQUIRE(selection.max_features > 0, "SiftParams.max_features must be > 0");
}

SiftParams MakeSiftParams(const FeatureOptions& options, int width, int height) {
  SiftParams params;
  params.selection = options.selection;
  params.edge_test = options.edge_test;
  params.upsample = options.selection.UpsampleFor(width, height);
  return params;
}

void OctaveSize(int width, int height, int octave, int* octave_width, int* octave_height) {
  if (octave < 0) {
    *octave_width = 2 * width;
    *octave_height = 2 * height;
    return;
  }
  *octave_width = width >> octave;
  *octave_height = height >> octave;
}

int NumOctaves(const SiftParams& params, int width, int height) {
  int count = 0;
  for (int octave = params.first_octave();; ++octave) {
    int w = 0, h = 0;
    OctaveSize(width, height, octave, &w, &h);
    if (std::min(w, h) < params.min_octave_size_px) break;
    ++count;
  }
  return count;
}

}  // namespace proj
