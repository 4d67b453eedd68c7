// Geometric verification of a list of image pairs on the CPU threads
// (matching/two_view_geometry.h), as the pipeline runs it for descriptor matches and for the
// SIFT matches of keyframes (--klt-keyframe-sift).
#pragma once

#include <cstddef>
#include <vector>

#include "matching/matching_types.h"
#include "matching/two_view_geometry.h"

namespace proj {

// geometries[p] verifies matches[p] between the images of pairs[p], which index `points`
// (each image's keypoints, converted once for all its pairs). Pair p is seeded with
// options.seed + first_index + p (EstimateListedPairGeometry): the result does not depend on
// the threads, and a list verified after `first_index` other pairs gets seeds of its own.
// Reports progress as "verifying pairs".
std::vector<TwoViewGeometry> VerifyPairList(const TwoViewGeometryOptions& options, int num_threads,
                                            const std::vector<TwoViewPoints>& points,
                                            const std::vector<ImagePair>& pairs,
                                            const std::vector<std::vector<FeatureMatch>>& matches,
                                            size_t first_index = 0);

}  // namespace proj
