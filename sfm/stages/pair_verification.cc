#include "sfm/stages/pair_verification.h"

#include "core/check.h"
#include "core/parallel_for.h"

namespace proj {

std::vector<TwoViewGeometry> VerifyPairList(const TwoViewGeometryOptions& options, int num_threads,
                                            const std::vector<TwoViewPoints>& points,
                                            const std::vector<ImagePair>& pairs,
                                            const std::vector<std::vector<FeatureMatch>>& matches,
                                            const std::vector<size_t>& seed_indices,
                                            Progress* progress) {
  PROJ_CHECK(matches.size() == pairs.size() && seed_indices.size() == pairs.size(),
             "VerifyPairList: " << pairs.size() << " pairs, " << matches.size()
                                << " match lists, " << seed_indices.size() << " seeds");
  std::vector<TwoViewGeometry> geometries(pairs.size());
  ParallelFor(0, static_cast<int>(pairs.size()), num_threads, [&](int p, int) {
    geometries[p] = EstimateListedPairGeometry(options, seed_indices[p], points[pairs[p].image1],
                                               points[pairs[p].image2], matches[p]);
    if (progress) progress->Advance();
  });
  return geometries;
}

}  // namespace proj
