#include "sfm/pipeline/pair_verification.h"

#include "core/check.h"
#include "core/parallel_for.h"
#include "core/progress.h"

namespace proj {

std::vector<TwoViewGeometry> VerifyPairList(const TwoViewGeometryOptions& options, int num_threads,
                                            const std::vector<TwoViewPoints>& points,
                                            const std::vector<ImagePair>& pairs,
                                            const std::vector<std::vector<FeatureMatch>>& matches,
                                            size_t first_index) {
  PROJ_CHECK(matches.size() == pairs.size(),
             "VerifyPairList: " << pairs.size() << " pairs, " << matches.size() << " match lists");
  std::vector<TwoViewGeometry> geometries(pairs.size());
  Progress progress("verifying pairs", static_cast<int>(pairs.size()), "pairs");
  ParallelFor(0, static_cast<int>(pairs.size()), num_threads, [&](int p, int) {
    geometries[p] = EstimateListedPairGeometry(options, first_index + p, points[pairs[p].image1],
                                               points[pairs[p].image2], matches[p]);
    progress.Advance();
  });
  return geometries;
}

}  // namespace proj
