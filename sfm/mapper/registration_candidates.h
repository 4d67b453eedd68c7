// Which unregistered image the incremental mapper tries to register next.
#pragma once

#include <vector>

#include "sfm/mapper/track_visibility.h"
#include "sfm/scene/scene.h"

namespace proj {

// Unregistered images whose tracks have at least min_num_points points: keyframes before
// other frames (SceneImage::keyframe), each most points first (ties: higher id first). An image whose registration failed when it saw failed_at[image] points is
// skipped until it sees more (failed_at[image] < 0: never failed). O(images).
std::vector<int> RankRegistrationCandidates(const Scene& scene, const TrackVisibility& visibility,
                                            const std::vector<int>& failed_at, int min_num_points);

}  // namespace proj
