#include "sfm/global/scale_check.h"

#include <gtest/gtest.h>

#include "core/check.h"

namespace proj {
namespace {

// Ten cameras along a line (x = 0..9), each pair of neighbours and of second neighbours
// verified; every neighbour pair shares 5 points 5 m in front. Cameras 6..9 and the points only
// they see can be shrunk 25-fold towards camera 6, as global positioning shrinks a stretch of a
// street.
struct LineOfCameras {
  std::vector<VerifiedPair> pairs;
  std::vector<std::vector<BearingObservation>> tracks;
  std::vector<Eigen::Vector3d> centres, points;
  std::vector<char> positioned = std::vector<char>(10, 1);
};

LineOfCameras MakeLine(bool shrink) {
  LineOfCameras line;
  for (int i = 0; i < 10; ++i) line.centres.push_back(Eigen::Vector3d(i, 0, 0));
  for (int i = 0; i < 10; ++i) {
    for (int j : {i + 1, i + 2}) {
      if (j >= 10) continue;
      VerifiedPair pair;
      pair.pair = {i, j};
      line.pairs.push_back(pair);
    }
  }
  for (int i = 0; i + 1 < 10; ++i) {
    for (int k = 0; k < 5; ++k) {
      line.tracks.push_back({{i, Eigen::Vector3d::UnitY()}, {i + 1, Eigen::Vector3d::UnitY()}});
      line.points.push_back(Eigen::Vector3d(i + 0.2 * k, 5, 0.1 * k));
    }
  }
  if (shrink) {
    const Eigen::Vector3d anchor = line.centres[6];
    for (int i = 7; i < 10; ++i) line.centres[i] = anchor + (line.centres[i] - anchor) / 25;
    for (size_t t = 0; t < line.tracks.size(); ++t) {
      if (line.tracks[t][0].image_id >= 6) line.points[t] = anchor + (line.points[t] - anchor) / 25;
    }
  }
  return line;
}

TEST(ScaleCheck, NoImageOffTheScaleOfARightModel) {
  const LineOfCameras line = MakeLine(false);
  const std::vector<char> off =
      ImagesOffTheMainScale({}, line.pairs, line.tracks, line.centres, line.points, line.positioned);
  for (int i = 0; i < 10; ++i) EXPECT_FALSE(off[i]) << i;
}

TEST(ScaleCheck, FindsTheShrunkStretch) {
  const LineOfCameras line = MakeLine(true);
  const std::vector<char> off =
      ImagesOffTheMainScale({}, line.pairs, line.tracks, line.centres, line.points, line.positioned);
  // Camera 6 sees points at both scales (its median is the true one); 7..9 only shrunk ones.
  for (int i = 0; i < 7; ++i) EXPECT_FALSE(off[i]) << i;
  for (int i = 7; i < 10; ++i) EXPECT_TRUE(off[i]) << i;
  // A factor above the shrink sees no seam; unpositioned images are not judged.
  ScaleCheckOptions loose;
  loose.max_depth_ratio = 30;
  for (char o : ImagesOffTheMainScale(loose, line.pairs, line.tracks, line.centres, line.points, line.positioned)) {
    EXPECT_FALSE(o);
  }
  LineOfCameras partly = line;
  partly.positioned[9] = 0;
  EXPECT_FALSE(ImagesOffTheMainScale({}, partly.pairs, partly.tracks, partly.centres, partly.points,
                                     partly.positioned)[9]);
  ScaleCheckOptions wrong;
  wrong.max_depth_ratio = 1;
  EXPECT_THROW(ImagesOffTheMainScale(wrong, line.pairs, line.tracks, line.centres, line.points, line.positioned),
               InputError);
}

}  // namespace
}  // namespace proj
