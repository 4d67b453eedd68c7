#include "sfm/mapper/track_triangulation.h"

#include <algorithm>
#include <numeric>
#include <random>

#include <gtest/gtest.h>

#include "tests/sfm/ba/synthetic_scene.h"

namespace proj {
namespace {

// Pinhole views of a cloud from an arc, keypoints at the exact projections.
Scene PinholeScene(int num_images) {
  testing::SyntheticSceneOptions options;
  options.num_images = num_images;
  options.num_points = 50;
  options.camera_models = {CameraModelId::kPinhole};
  return testing::MakeSyntheticScene(options);
}

TrackElement KeypointAt(Scene* scene, int image_id, const Eigen::Vector3d& x) {
  return testing::AddKeypointAt(scene, image_id, x);
}

// The centre of the cloud the cameras look at, and a point `offset` from it.
Eigen::Vector3d CloudPoint(const Scene& scene, const Eigen::Vector3d& offset) {
  Eigen::Vector3d centre = Eigen::Vector3d::Zero();
  for (const auto& [id, point] : scene.points) centre += point.position;
  return centre / static_cast<double>(scene.points.size()) + offset;
}

TEST(TriangulateTrack, AnExactTrackKeepsEveryObservationByEitherRule) {
  Scene scene = PinholeScene(8);
  const Eigen::Vector3d x = CloudPoint(scene, {0.2, -0.1, 0.3});
  std::vector<TrackElement> track;
  for (int image = 0; image < 6; ++image) track.push_back(KeypointAt(&scene, image, x));
  for (TrackTriangulation rule : {TrackTriangulation::kDropWorst, TrackTriangulation::kLargestAgreeingSubset}) {
    const auto point = TriangulateTrack(scene, track, 2.0, 1.0, rule);
    ASSERT_TRUE(point);
    EXPECT_EQ(point->track.size(), track.size());
    EXPECT_LT((point->position - x).norm(), 1e-6);
  }
}

// Three observations of one point and two of another, chained into the track by a mismatch,
// on opposite sides of the cloud: the largest agreeing subset is the three, wherever the linear
// solution over all five lands.
TEST(TriangulateTrack, LargestAgreeingSubsetKeepsTheMajorityOfAMismatchedTrack) {
  Scene scene = PinholeScene(8);
  const Eigen::Vector3d right = CloudPoint(scene, {0.5, 0.4, 0.2});
  const Eigen::Vector3d wrong = CloudPoint(scene, {-0.6, -0.5, -0.3});
  std::vector<TrackElement> track = {KeypointAt(&scene, 0, right), KeypointAt(&scene, 3, wrong),
                                     KeypointAt(&scene, 2, right), KeypointAt(&scene, 5, wrong),
                                     KeypointAt(&scene, 6, right)};
  const auto point = TriangulateTrack(scene, track, 2.0, 1.0, TrackTriangulation::kLargestAgreeingSubset);
  ASSERT_TRUE(point);
  EXPECT_EQ(point->track.size(), 3u);
  EXPECT_LT((point->position - right).norm(), 1e-6);
  for (const TrackElement& e : point->track) EXPECT_TRUE(e.image_id == 0 || e.image_id == 2 || e.image_id == 6);
  // Dropping the worst never keeps more, and never a point off both.
  const auto dropped = TriangulateTrack(scene, track, 2.0, 1.0, TrackTriangulation::kDropWorst);
  if (dropped) {
    EXPECT_LE(dropped->track.size(), 3u);
    EXPECT_TRUE((dropped->position - right).norm() < 1e-6 || (dropped->position - wrong).norm() < 1e-6);
  }
}

// A track of 20 observations (beyond the pairs tried exhaustively) with 7 mismatched ones
// scattered through it: the sampled seeds still find the 13.
TEST(TriangulateTrack, ALongTrackIsSampledAndStillFindsItsRightObservations) {
  Scene scene = PinholeScene(20);
  const Eigen::Vector3d right = CloudPoint(scene, {0.1, 0.2, 0.1});
  std::vector<TrackElement> track;
  int num_right = 0;
  for (int image = 0; image < 20; ++image) {
    const bool mismatched = image % 3 == 1;
    const Eigen::Vector3d x = mismatched ? CloudPoint(scene, {-0.3 * (image % 5), 0.4, -0.2 * (image % 4)}) : right;
    track.push_back(KeypointAt(&scene, image, x));
    num_right += mismatched ? 0 : 1;
  }
  const auto point = TriangulateTrack(scene, track, 2.0, 1.0, TrackTriangulation::kLargestAgreeingSubset);
  ASSERT_TRUE(point);
  EXPECT_EQ(static_cast<int>(point->track.size()), num_right);
  EXPECT_LT((point->position - right).norm(), 1e-6);
  // The same track triangulates the same way again (the sample is seeded by the track).
  const auto again = TriangulateTrack(scene, track, 2.0, 1.0, TrackTriangulation::kLargestAgreeingSubset);
  ASSERT_TRUE(again);
  EXPECT_EQ(again->position, point->position);
}

// Tracks of 10 views, 6 of one point and 4 of another chained in by mismatches, each at random:
// the largest agreeing subset finds the 6 every time; dropping the worst of a linear solution
// pulled towards the 4 keeps the wrong side or too few in some of them.
TEST(TriangulateTrack, LargestAgreeingSubsetFindsTheMajorityWhereDroppingTheWorstDoesNot) {
  Scene scene = PinholeScene(10);
  std::mt19937 random(7);
  std::uniform_real_distribution<double> offset(-1.5, 1.5);
  int consensus_right = 0, drop_worst_right = 0;
  const int kTracks = 40;
  for (int t = 0; t < kTracks; ++t) {
    const Eigen::Vector3d right = CloudPoint(scene, {offset(random), offset(random), offset(random)});
    const Eigen::Vector3d wrong = CloudPoint(scene, {offset(random), offset(random), offset(random)});
    std::vector<int> images(10);
    std::iota(images.begin(), images.end(), 0);
    std::shuffle(images.begin(), images.end(), random);
    std::vector<TrackElement> track;
    for (int k = 0; k < 10; ++k) track.push_back(KeypointAt(&scene, images[k], k < 6 ? right : wrong));
    const auto is_right = [&](const std::optional<Point3D>& point) {
      return point && point->track.size() == 6 && (point->position - right).norm() < 1e-6;
    };
    consensus_right += is_right(TriangulateTrack(scene, track, 2.0, 1.0, TrackTriangulation::kLargestAgreeingSubset));
    drop_worst_right += is_right(TriangulateTrack(scene, track, 2.0, 1.0, TrackTriangulation::kDropWorst));
  }
  EXPECT_EQ(consensus_right, kTracks);
  EXPECT_LT(drop_worst_right, kTracks);
}

TEST(TriangulateTrack, TooNarrowOrTooFewObservationsGiveNoPoint) {
  Scene scene = PinholeScene(8);
  const Eigen::Vector3d x = CloudPoint(scene, {0, 0, 0});
  const std::vector<TrackElement> one = {KeypointAt(&scene, 0, x)};
  EXPECT_FALSE(TriangulateTrack(scene, one, 2.0, 1.0, TrackTriangulation::kLargestAgreeingSubset));
  const std::vector<TrackElement> two = {KeypointAt(&scene, 1, x), KeypointAt(&scene, 2, x)};
  EXPECT_FALSE(TriangulateTrack(scene, two, 2.0, 170.0, TrackTriangulation::kLargestAgreeingSubset));
  // Unregistered images do not count.
  scene.images[2].registered = false;
  EXPECT_FALSE(TriangulateTrack(scene, two, 2.0, 1.0, TrackTriangulation::kLargestAgreeingSubset));
}

}  // namespace
}  // namespace proj
