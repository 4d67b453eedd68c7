// Merging parts' models by their shared images: each part in a frame of its own (a similarity
// of the truth, with noise), merged back into one frame; a part that shares too little, or
// whose shared images disagree, is left out with the reason.
#include "sfm/partition/part_merge.h"

#include <random>

#include <gtest/gtest.h>

#include "sfm/mapper/prior_alignment.h"
#include "tests/sfm/mapper/mapper_test_scene.h"

namespace proj {
namespace {

// The part of `truth` holding `image_ids`, poses only, moved by `part_from_truth` and with
// centre noise of `noise_m` (truth units).
PartModel MakePart(const Scene& truth, std::vector<int> image_ids, const Sim3d& part_from_truth, double noise_m,
                   uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> noise(0.0, noise_m);
  PartModel part;
  part.image_ids = std::move(image_ids);
  part.scene.cameras = truth.cameras;
  for (int image : part.image_ids) {
    SceneImage copy;
    copy.name = truth.images[image].name;
    copy.camera_id = truth.images[image].camera_id;
    copy.registered = true;
    const Rigid3d& pose = truth.images[image].cam_from_world;
    const Eigen::Vector3d center = pose.Center() + Eigen::Vector3d(noise(rng), noise(rng), noise(rng));
    copy.cam_from_world = Rigid3d(pose.rotation, -(pose.rotation * center));
    part.scene.images.push_back(copy);
  }
  TransformScene(part_from_truth, &part.scene);
  return part;
}

Scene Unregistered(const Scene& truth) {
  Scene scene = truth;
  scene.points.clear();
  for (SceneImage& image : scene.images) image.registered = false;
  return scene;
}

TEST(PartMerge, PartsInTheirOwnFramesComeBackIntoOne) {
  const Scene truth = testing::MakeNadirFlight(4, 15, 300, 3);  // 60 images in 15 columns
  // Three parts of 5 columns each plus one column of overlap on each side.
  std::vector<int> core_part(60);
  std::vector<std::vector<int>> ids(3);
  for (int i = 0; i < 60; ++i) {
    const int column = i % 15;
    core_part[i] = column / 5;
    for (int p = 0; p < 3; ++p) {
      if (column >= 5 * p - 1 && column <= 5 * p + 5) ids[p].push_back(i);
    }
  }
  const std::vector<Sim3d> frames = {
      Sim3d(1.0, Eigen::Quaterniond::Identity(), Eigen::Vector3d::Zero()),
      Sim3d(0.05, Eigen::Quaterniond(Eigen::AngleAxisd(1.0, Eigen::Vector3d(0, 1, 1).normalized())),
            Eigen::Vector3d(3, 2, 1)),
      Sim3d(7.0, Eigen::Quaterniond(Eigen::AngleAxisd(-2.0, Eigen::Vector3d(1, 0, 1).normalized())),
            Eigen::Vector3d(-40, 10, 0))};
  std::vector<PartModel> parts;
  for (int p = 0; p < 3; ++p) parts.push_back(MakePart(truth, ids[p], frames[p], 0.02, 10 + p));
  parts[1].scene.cameras[0].params[0] = 1005;  // the middle part registers most of camera 0's images
  Scene scene = Unregistered(truth);
  const PartMergeSummary summary = MergePartPoses(PartMergeOptions(), parts, core_part, &scene);
  EXPECT_EQ(summary.NumMerged(), 3);
  EXPECT_EQ(summary.num_registered, 60);
  for (const PartAlignmentRecord& record : summary.parts) {
    EXPECT_TRUE(record.merged) << record.failure_reason;
    if (record.part != 1) {  // the middle part is the largest: the merged frame
      EXPECT_GE(record.num_shared, 8);
      EXPECT_EQ(record.num_inliers, record.num_shared);
    }
  }
  EXPECT_LT(testing::CenterErrorsAfterSimilarity(truth, scene).max_m, 0.15);  // noise 0.02 m per axis, 15 m spacing
  EXPECT_EQ(scene.cameras[0].params[0], 1005);
}

// Two parts sharing one line of images: their centres, nearly collinear, leave the rotation
// about that line free; the shared images' orientations fix it, so the far side of the joined
// part comes back where it belongs.
TEST(PartMerge, APartJoinedByOneLineOfImagesIsNotTurnedAboutIt) {
  Scene truth = testing::MakeNadirFlight(6, 10, 300, 5);  // 6 lines of 10 images
  for (int i = 30; i < 40; ++i) {  // line 3 flown level: its centres on one straight line
    Rigid3d& pose = truth.images[i].cam_from_world;
    const Eigen::Vector3d center(pose.Center().x(), pose.Center().y(), 40.0);
    pose = Rigid3d(pose.rotation, -(pose.rotation * center));
  }
  std::vector<int> core_part(60), north, south;
  for (int i = 0; i < 60; ++i) {
    const int line = i / 10;
    core_part[i] = line < 3 ? 0 : 1;
    if (line <= 3) north.push_back(i);
    if (line >= 3) south.push_back(i);  // line 3: the only images in both
  }
  const Sim3d south_frame(3.0, Eigen::Quaterniond(Eigen::AngleAxisd(0.7, Eigen::Vector3d(1, 2, 0).normalized())),
                          Eigen::Vector3d(5, -3, 2));
  const std::vector<PartModel> parts = {MakePart(truth, north, Sim3d(), 0.01, 1),
                                        MakePart(truth, south, south_frame, 0.01, 2)};
  Scene scene = Unregistered(truth);
  const PartMergeSummary summary = MergePartPoses(PartMergeOptions(), parts, core_part, &scene);
  ASSERT_TRUE(summary.parts[1].merged) << summary.parts[1].failure_reason;
  EXPECT_EQ(summary.parts[1].num_shared, 10);
  EXPECT_EQ(summary.num_registered, 60);
  EXPECT_LT(testing::CenterErrorsAfterSimilarity(truth, scene).max_m, 0.06);  // noise 0.01 per axis; lines 2 far lines away
}

TEST(PartMerge, APartSharingTooLittleOrDisagreeingIsLeftOutWithTheReason) {
  const Scene truth = testing::MakeNadirFlight(3, 12, 200, 4);  // 36 images
  std::vector<int> core_part(36);
  std::vector<int> west, east, island;
  for (int i = 0; i < 36; ++i) {
    const int column = i % 12;
    core_part[i] = column < 6 ? 0 : 1;
    if (column <= 6) west.push_back(i);
    if (column >= 5 && column < 10) east.push_back(i);
    if (column >= 10) island.push_back(i);
  }
  for (int i : island) core_part[i] = 2;
  std::vector<PartModel> parts = {MakePart(truth, west, Sim3d(), 0.01, 1), MakePart(truth, east, Sim3d(), 0.01, 2),
                                  MakePart(truth, island, Sim3d(), 0.01, 3)};
  // The east part folded: its cameras where they should be, but turned by 20 degrees.
  const Scene right_east = parts[1].scene;
  for (SceneImage& image : parts[1].scene.images) {
    const Eigen::Vector3d center = image.cam_from_world.Center();
    const Eigen::Quaterniond turned =
        Eigen::Quaterniond(Eigen::AngleAxisd(0.35, Eigen::Vector3d::UnitX())) * image.cam_from_world.rotation;
    image.cam_from_world = Rigid3d(turned, -(turned * center));
  }
  Scene scene = Unregistered(truth);
  const PartMergeSummary summary = MergePartPoses(PartMergeOptions(), parts, core_part, &scene);
  EXPECT_TRUE(summary.parts[0].merged);
  EXPECT_FALSE(summary.parts[1].merged);
  EXPECT_NE(summary.parts[1].failure_reason.find("agree"), std::string::npos) << summary.parts[1].failure_reason;
  EXPECT_FALSE(summary.parts[2].merged);
  EXPECT_NE(summary.parts[2].failure_reason.find("shares 0 registered image"), std::string::npos)
      << summary.parts[2].failure_reason;
  EXPECT_EQ(summary.num_registered, static_cast<int>(west.size()));
  // With the east part right, the island still shares nothing; both others merge.
  parts[1].scene = right_east;
  Scene again = Unregistered(truth);
  const PartMergeSummary second = MergePartPoses(PartMergeOptions(), parts, core_part, &again);
  EXPECT_TRUE(second.parts[1].merged) << second.parts[1].failure_reason;
  EXPECT_EQ(second.num_registered, 30);
}

}  // namespace
}  // namespace proj
