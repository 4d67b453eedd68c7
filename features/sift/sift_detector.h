// SIFT keypoint detection on a built scale space: DoG extrema over 3x3x3 neighbours, a
// prefilter on |DoG|, quadratic refinement of position and scale (Brown & Lowe 2002; Lowe
// 2004 sec. 4), contrast and edge rejection (Lowe 2004 sec. 4.1).
#pragma once

#include <vector>

#include "features/sift/scale_space.h"
#include "features/sift/sift_params.h"

namespace proj {

// A refined detection, in the coordinates of its octave (conventions: sift_params.h).
struct SiftDetection {
  int octave_slot = 0;  // index into ScaleSpace::octaves
  float x = 0;          // octave samples
  float y = 0;
  float level = 0;      // continuous level s in [-0.5, S - 0.5]
  float sigma = 0;      // sigma0 * 2^(level / S), octave pixels
  float response = 0;   // |interpolated DoG|
};

// Integer extremum before refinement (sample x, y of DoG level s, 0 <= s < S).
struct SiftExtremum {
  int octave_slot = 0;
  int x = 0;
  int y = 0;
  int level = 0;
};

// Strict 3x3x3 extrema with |DoG| >= prefilter_ratio * peak_threshold, in the order
// (octave, level, y, x). Samples on the outermost row/column are never extrema.
std::vector<SiftExtremum> FindScaleSpaceExtrema(const ScaleSpace& space, const SiftParams& params,
                                                int num_threads);

// Quadratic refinement of one extremum; false when it does not converge within
// max_refinement_steps, leaves the valid range, has low contrast or (with edge_test) lies
// on an edge.
bool RefineExtremum(const ScaleSpace& space, const SiftParams& params, const SiftExtremum& extremum,
                    SiftDetection* detection);

// Solves the 3x3 system A x = b by Gaussian elimination with partial pivoting; false when
// A is (numerically) singular. The GPU uses the same elimination.
bool Solve3x3(const float a_in[9], const float b_in[3], float x[3]);

}  // namespace proj
