// The default synthetic world, built once per test binary (building takes ~1 s).
#pragma once

#include "datasets/synthetic/synthetic_scene.h"
#include "datasets/synthetic/synthetic_world.h"

namespace proj::testing {

const synthetic::SyntheticWorld& DefaultSyntheticWorld();

}  // namespace proj::testing
