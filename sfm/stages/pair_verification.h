// Geometric verification of a list of image pairs on the CPU threads
// (matching/two_view_geometry.h), as the pipeline runs it for descriptor matches and for the
// SIFT matches of keyframes (--klt-keyframe-sift).
#pragma once

#include <cstddef>
#include <vector>

#include "core/progress.h"
#include "matching/matching_types.h"
#include "matching/two_view_geometry.h"

namespace proj {

// geometries[p] verifies matches[p] between the images of pairs[p], which index `points`
// (each image's keypoints, converted once for all its pairs). Pair p is seeded with
// options.seed + seed_indices[p] (EstimateListedPairGeometry): the result depends on the
// pair's seed index, not on the threads or on which other pairs are in the list. `progress`
// (may be null) advances by one per pair.
std::vector<TwoViewGeometry> VerifyPairList(const TwoViewGeometryOptions& options, int num_threads,
                                            const std::vector<TwoViewPoints>& points,
                                            const std::vector<ImagePair>& pairs,
                                            const std::vector<std::vector<FeatureMatch>>& matches,
                                            const std::vector<size_t>& seed_indices,
                                            Progress* progress);

}  // namespace proj
