#include "sfm/global/scale_check.h"

#include <algorithm>
#include <cmath>

#include "core/check.h"
#include "core/statistics.h"

namespace proj {

void ScaleCheckOptions::Check() const {
  PROJ_REQUIRE(max_depth_ratio > 1, "global mapper max_depth_ratio must be > 1");
}

std::vector<char> ImagesOffTheMainScale(const ScaleCheckOptions& options, const std::vector<VerifiedPair>& pairs,
                                        const std::vector<std::vector<BearingObservation>>& tracks,
                                        const std::vector<Eigen::Vector3d>& centres,
                                        const std::vector<Eigen::Vector3d>& points,
                                        const std::vector<char>& positioned) {
  options.Check();
  PROJ_CHECK(tracks.size() == points.size() && centres.size() == positioned.size(), "ImagesOffTheMainScale: sizes");
  const int num_images = static_cast<int>(positioned.size());
  std::vector<std::vector<double>> depths(num_images);
  for (size_t t = 0; t < tracks.size(); ++t) {
    for (const BearingObservation& observation : tracks[t]) {
      if (positioned[observation.image_id]) {
        depths[observation.image_id].push_back((points[t] - centres[observation.image_id]).norm());
      }
    }
  }
  std::vector<double> median_depth(num_images, 0);
  for (int i = 0; i < num_images; ++i) {
    if (!depths[i].empty()) median_depth[i] = UpperMedian(std::move(depths[i]));
  }
  std::vector<ImagePair> same_scale;
  std::vector<char> judged(num_images, 0);
  bool seam = false;
  for (const VerifiedPair& pair : pairs) {
    const double a = median_depth[pair.pair.image1], b = median_depth[pair.pair.image2];
    if (!(a > 0) || !(b > 0)) continue;
    judged[pair.pair.image1] = judged[pair.pair.image2] = 1;
    if (std::max(a, b) <= options.max_depth_ratio * std::min(a, b)) {
      same_scale.push_back(pair.pair);
    } else {
      seam = true;
    }
  }
  std::vector<char> off(num_images, 0);
  if (!seam) return off;
  const std::vector<char> main_scale = LargestConnectedComponent(num_images, same_scale);
  for (int i = 0; i < num_images; ++i) off[i] = judged[i] && !main_scale[i];
  return off;
}

}  // namespace proj
