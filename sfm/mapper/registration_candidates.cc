#include "sfm/mapper/registration_candidates.h"

#include <algorithm>
#include <tuple>
#include <utility>

namespace proj {

std::vector<int> RankRegistrationCandidates(const Scene& scene, const TrackVisibility& visibility,
                                            const std::vector<int>& failed_at, int min_num_points) {
  std::vector<std::tuple<bool, int, int>> scored;  // (keyframe, points seen, image id)
  for (size_t id = 0; id < scene.images.size(); ++id) {
    if (scene.images[id].registered) continue;
    const int seen = visibility.NumTracksWithPoint(static_cast<int>(id));
    if (seen < min_num_points || seen <= failed_at[id]) continue;
    scored.emplace_back(scene.images[id].keyframe, seen, static_cast<int>(id));
  }
  std::sort(scored.rbegin(), scored.rend());
  std::vector<int> ids;
  ids.reserve(scored.size());
  for (const auto& s : scored) ids.push_back(std::get<2>(s));
  return ids;
}

}  // namespace proj
