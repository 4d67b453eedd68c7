#include "mvs/dense_options.h"

#include "core/check.h"
#include "cuda/mvs/patch_match_core.h"

namespace proj::mvs {

void DenseOptions::Check() const {
  PROJ_REQUIRE(max_image_size_px >= 0, "the dense image size must be >= 0 (0 = full size), not " << max_image_size_px);
  PROJ_REQUIRE(sources.max_num_sources >= 1 && sources.max_num_sources <= cuda::kMaxPatchMatchSources,
               "the number of source images per depth map must be in [1, " << cuda::kMaxPatchMatchSources
                                                                           << "], not " << sources.max_num_sources);
  sources.Check();
  depth_range.Check();
  patch_match.Check();
  filter.Check();
  fusion.Check();
  gpus.Check();
  PROJ_REQUIRE(num_threads >= 0, "the number of threads must be >= 0 (0 = all cores), not " << num_threads);
  PROJ_REQUIRE(cache_size_mb >= 1, "the dense image cache must be >= 1 MiB, not " << cache_size_mb);
}

}  // namespace proj::mvs
