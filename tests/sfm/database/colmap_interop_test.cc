// COLMAP 3.8 reads what we write and we read what it writes: two databases written by
// SceneDatabase are merged by `colmap database_merger`, which reads cameras, images,
// keypoints, descriptors, matches and two-view geometries through COLMAP's own code and
// writes them into a new database, which we read back.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "sfm/database/scene_database.h"
#include "tests/sfm/database/database_test_util.h"
#include "tests/support/test_data.h"

namespace proj {
namespace {

namespace fs = std::filesystem;
using Mode = SceneDatabase::Mode;

constexpr const char* kColmap = "/usr/bin/colmap";

// Three images named <prefix>1.jpg.. on two cameras, with features, matches of all three
// pairs (one written from the larger id) and geometries of two.
void WriteSmallScene(const std::string& path, const std::string& prefix) {
  SceneDatabase database(path, Mode::kReadWrite);
  SceneDatabase::Transaction transaction(&database);
  const int camera1 = database.AddCamera(
      Camera{CameraModelId::kSimpleRadial, 1000, 800, {900, 500, 400, 0.02}}, true);
  const int camera2 =
      database.AddCamera(Camera{CameraModelId::kPinhole, 640, 480, {500, 505, 320, 240}}, false);
  for (int i = 1; i <= 3; ++i) {
    const int image_id = database.AddImage(prefix + std::to_string(i) + ".jpg",
                                           i == 3 ? camera2 : camera1);
    database.WriteKeypoints(image_id, testing::MakeKeypoints(100, image_id));
    database.WriteDescriptors(image_id, testing::MakeDescriptors(100, image_id));
  }
  database.WriteMatches(1, 2, testing::MakeMatches(40, 12));
  database.WriteMatches(3, 2, testing::MakeMatches(30, 32));
  database.WriteMatches(1, 3, testing::MakeMatches(20, 13));
  database.WriteTwoViewGeometry(1, 2, testing::MakeGeometry(12));
  TwoViewGeometry without_pose = testing::MakeGeometry(32);
  without_pose.has_relative_pose = false;
  without_pose.configuration = TwoViewConfiguration::kUncalibrated;
  database.WriteTwoViewGeometry(3, 2, without_pose);
  transaction.Commit();
}

TEST(ColmapInterop, DatabaseMergerReadsAndWritesOurTables) {
  if (!fs::exists(kColmap)) GTEST_SKIP() << kColmap << " not installed (Debian package colmap)";
  const std::string folder = testing::MakeTempDir("scene_database/colmap_merger");
  const std::string first = folder + "/first.db";
  const std::string second = folder + "/second.db";
  const std::string merged = folder + "/merged.db";
  WriteSmallScene(first, "a");
  WriteSmallScene(second, "b");
  const std::string command = std::string("QT_QPA_PLATFORM=offscreen timeout 300 ") + kColmap +
                              " database_merger --database_path1 " + first +
                              " --database_path2 " + second + " --merged_database_path " +
                              merged + " > " + folder + "/colmap.log 2>&1";
  ASSERT_EQ(std::system(command.c_str()), 0)
      << command << "\n" << testing::ReadFileBytes(folder + "/colmap.log");

  SceneDatabase database(merged, Mode::kReadOnly);
  EXPECT_EQ(database.NumCameras(), 4);
  ASSERT_EQ(database.NumImages(), 6);
  const std::vector<DatabaseCamera> cameras = database.ReadCameras();
  EXPECT_EQ(cameras[0].camera.model, CameraModelId::kSimpleRadial);
  EXPECT_EQ(cameras[0].camera.params, (std::vector<double>{900, 500, 400, 0.02}));
  EXPECT_TRUE(cameras[0].prior_focal_length);
  EXPECT_EQ(cameras[3].camera.model, CameraModelId::kPinhole);
  EXPECT_FALSE(cameras[3].prior_focal_length);

  // The second database's images come after the first's: b1.jpg is image 4.
  const std::optional<DatabaseImage> b1 = database.FindImage("b1.jpg");
  ASSERT_TRUE(b1);
  EXPECT_EQ(b1->image_id, 4);
  EXPECT_EQ(database.FindImage("b3.jpg")->camera_id, 4);
  EXPECT_EQ(database.NumKeypoints(), 600);
  const std::vector<Keypoint> expected_keypoints = testing::MakeKeypoints(100, 2);
  const std::vector<Keypoint> keypoints = database.ReadKeypoints(5);  // b2.jpg
  ASSERT_EQ(keypoints.size(), 100u);
  for (size_t i = 0; i < keypoints.size(); ++i) {
    EXPECT_EQ(keypoints[i].x, expected_keypoints[i].x);
    EXPECT_NEAR(keypoints[i].scale, expected_keypoints[i].scale, 1e-5 * keypoints[i].scale);
  }
  EXPECT_EQ(database.ReadDescriptors(6), testing::MakeDescriptors(100, 3));

  EXPECT_EQ(database.ReadMatchedPairIds().size(), 6u);
  testing::ExpectMatchesEqual(*database.ReadMatches(5, 6),
                              testing::SwappedMatches(testing::MakeMatches(30, 32)));
  testing::ExpectMatchesEqual(*database.ReadMatches(4, 6), testing::MakeMatches(20, 13));
  EXPECT_EQ(database.ReadVerifiedPairIds(),
            (std::vector<int64_t>{PairIdFromImageIds(1, 2), PairIdFromImageIds(2, 3),
                                  PairIdFromImageIds(4, 5), PairIdFromImageIds(5, 6)}));
  testing::ExpectGeometriesNear(*database.ReadTwoViewGeometry(4, 5), testing::MakeGeometry(12));
  // COLMAP wrote qvec and tvec as zeros for the pair we stored without a pose.
  const TwoViewGeometry without_pose = *database.ReadTwoViewGeometry(3, 2);
  EXPECT_EQ(without_pose.configuration, TwoViewConfiguration::kUncalibrated);
  EXPECT_FALSE(without_pose.has_relative_pose);
  EXPECT_LT((without_pose.F - testing::MakeGeometry(32).F).norm(), 1e-12);

  // COLMAP left our database in WAL mode with its user_version; it still opens for writing.
  {
    SceneDatabase reopened(first, Mode::kReadWrite);
    reopened.WriteStageOptions("matching", "after COLMAP");
    EXPECT_EQ(reopened.NumImages(), 3);
  }
  EXPECT_EQ(SceneDatabase(first, Mode::kReadOnly).ReadStageOptions("matching"), "after COLMAP");
}

}  // namespace
}  // namespace proj
