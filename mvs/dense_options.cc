#include "mvs/dense_options.h"

#include "core/check.h"

namespace proj::mvs {

void DenseOptions::Check() const {
  PROJ_REQUIRE(max_image_size_px >= 0, "the dense image size must be >= 0 (0 = full size), not " << max_image_size_px);
  sources.Check();
  depth_range.Check();
  patch_match.Check();
  gpus.Check();
  PROJ_REQUIRE(num_threads >= 0, "the number of threads must be >= 0 (0 = all cores), not " << num_threads);
  PROJ_REQUIRE(cache_size_mb >= 1, "the dense image cache must be >= 1 MiB, not " << cache_size_mb);
}

}  // namespace proj::mvs
