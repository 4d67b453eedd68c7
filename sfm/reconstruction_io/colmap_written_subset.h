// What of a Scene the COLMAP writers (text and binary) keep: COLMAP models hold registered
// images only, so a track keeps its observations in registered images and a point without
// any is left out.
#pragma once

#include "sfm/scene/scene.h"

namespace proj::internal {

inline bool InRegisteredImage(const Scene& scene, const TrackElement& element) {
  return scene.images[element.image_id].registered;
}

inline int NumRegisteredObservations(const Scene& scene, const Point3D& point) {
  int count = 0;
  for (const auto& element : point.track) count += InRegisteredImage(scene, element) ? 1 : 0;
  return count;
}

}  // namespace proj::internal
