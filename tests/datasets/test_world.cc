#include "tests/datasets/test_world.h"

namespace proj::testing {

const synthetic::SyntheticWorld& DefaultSyntheticWorld() {
  static const synthetic::SyntheticWorld world = synthetic::BuildSyntheticWorld(
      SyntheticSceneOptions().world, SyntheticSceneOptions().seed, /*num_threads=*/0);
  return world;
}

}  // namespace proj::testing
