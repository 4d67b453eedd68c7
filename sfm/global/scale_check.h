// A check of global positioning's result: images whose neighbourhood it put at another scale
// than the rest of the model. The bearings tie a stretch of forward motion to the rest only by
// the points seen across its ends; where those are few, shrinking the stretch (its cameras and
// points) costs less than its outlying observations do at the true scale, so the minimum holds a
// miniature of it: the synthetic street after its turn, 25 cameras 25x too close together, which
// the bundle adjustments then shrink to a point. The depth of the points an image sees is a
// scale that verified pairs share (two views of one scene part see it from similar distances),
// so a verified pair whose images' median depths differ by more than a factor is a seam between
// scales. A stretch shrunk gradually (the 34-frame street of tests/integration: 44 to 2 over
// four frames, every step under the factor) is not caught; a tighter factor cuts it, but keeps
// the half-shrunk frames, and the model stays wrong. The cause is the observations that are
// outliers at the true scale (1% there): removed by the truth, the positioning converges right
// from random starts; removed by their residuals after a first solve, it does only by chance.
#pragma once

#include <vector>

#include <Eigen/Core>

#include "sfm/global/global_positioning.h"
#include "sfm/scene/view_graph.h"

namespace proj {

struct ScaleCheckOptions {
  // Median point depths of a verified pair's images further apart than this factor: a seam.
  // Forward motion changes an image's depth by its step (a few tenths of it); a shrunk stretch
  // by its shrink factor (25 on the street).
  double max_depth_ratio = 5;
  void Check() const;
};

// The positioned images (`centres`, with their `tracks` and `points`, as positioning used and
// gave them) outside the largest group that verified pairs link without a seam; empty when
// there is no seam. `positioned` by image.
std::vector<char> ImagesOffTheMainScale(const ScaleCheckOptions& options, const std::vector<VerifiedPair>& pairs,
                                        const std::vector<std::vector<BearingObservation>>& tracks,
                                        const std::vector<Eigen::Vector3d>& centres,
                                        const std::vector<Eigen::Vector3d>& points,
                                        const std::vector<char>& positioned);

}  // namespace proj
