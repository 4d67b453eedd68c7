// What the COLMAP readers promise about a model they return (sfm/reconstruction_io): every id
// in range and tracks that agree with the images' point ids. The mapper and exporters index
// with these ids unchecked, so a reader that let a bad one through is a finding.
#pragma once

#include "sfm/scene.h"

namespace proj::fuzz {

// Aborts (PROJ_CHECK) naming the first broken promise.
void CheckSceneConsistency(const Scene& scene);

}  // namespace proj::fuzz
