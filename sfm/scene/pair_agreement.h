// A model checked against the image pairs it was built from, without GPS: every verified pair
// of two registered images must lie on the model's epipolar geometry. A model whose global
// positioning shrank a stretch of a street is locally consistent (its bundle adjustments drop
// the tracks that tie the stretch to the rest) but contradicts strong pairs across the seam:
// most of their matches lie pixels off the model's epipolar lines. Right models contradict only
// weak pairs (repeated structure, e.g. castle-P19's courtyard: 74 of 162 pairs, none holding a
// quarter of either image's best pair's matches).
#pragma once

#include <string>
#include <vector>

#include "sfm/scene/scene.h"
#include "sfm/scene/view_graph.h"

namespace proj {

struct PairAgreementOptions {
  // A pair is strong when it holds at least strong_pair_share of the inlier matches of the
  // best pair of the weaker of its images, and at least min_strong_pair_matches.
  double strong_pair_share = 0.25;  // in (0, 1]
  int min_strong_pair_matches = 30;  // >= 1
  // A match disagrees with the model beyond this Sampson distance (pixels, undistorted); a
  // pair contradicts the model when more than max_disagreeing_share of its matches do.
  double max_epipolar_error_px = 4;  // > 0
  double max_disagreeing_share = 0.5;  // in [0, 1)
  // The model disagrees with its pairs when at least min_contradicted_pairs strong pairs and
  // more than max_contradicted_share of them contradict it. Measured: right models (Strecha,
  // synthetic flights of 200 and 500 images, a real 18-photo flight, streets) contradict none;
  // streets with a shrunk stretch, 11 of 425 (2.6%) and 15 of 256 (5.9%).
  int min_contradicted_pairs = 3;  // >= 1
  double max_contradicted_share = 0.01;  // in [0, 1)
  int num_named_pairs = 5;  // >= 0: the worst contradicted pairs named in the verdict
  void Check() const;  // throws InputError naming the field
};

struct PairAgreement {
  bool checked = false;  // some strong pair had both images registered
  int num_strong_pairs = 0;
  int num_contradicted_pairs = 0;
  bool within_limits = true;  // the contradicted pairs within the options' limits
  // "a.jpg - b.jpg (87% of 112 matches off)", the largest share first.
  std::vector<std::string> worst_pairs;
  bool Consistent() const { return !checked || within_limits; }
};

// The share of each pair's inlier matches farther than max_epipolar_error_px from the model's
// epipolar geometry (for two images at one centre, from the rotation's transfer), over the
// strong pairs whose images are both registered.
PairAgreement MeasurePairAgreement(const PairAgreementOptions& options, const Scene& scene,
                                   const std::vector<VerifiedPair>& pairs);

}  // namespace proj
