// sfm merge-databases on small databases built row by row: images renumbered in name order
// with their pairs, cameras shared, and the refusals (shards made with other options, an
// image with other content in two inputs, unfinished, missing and repeated shards), with the
// output left as it was when refused.
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "sfm/database/scene_database.h"
#include "sfm/stages/database_merge.h"
#include "sfm/stages/shard.h"
#include "tests/sfm/database/database_test_util.h"
#include "tests/support/test_data.h"

namespace proj {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using testing::InputErrorOf;

const Camera kCamera = Camera::FromFocal(CameraModelId::kSimpleRadial, 640, 480, 500);

struct TestImage {
  std::string name;
  int feature_seed = 0;
};

// A database at `path` holding `images` (one camera; 30 features from the seed), the
// extraction options "--max-features=`max_features`" and, with `shard`, a record of that
// extraction shard (finished when `finished`). Returns the ids of the images in order.
std::vector<int> WriteDatabase(const std::string& path, const std::vector<TestImage>& images,
                               int max_features, std::optional<Shard> shard = std::nullopt,
                               bool finished = true, const std::string& single_camera = "off") {
  SceneDatabase database(path, SceneDatabase::Mode::kReadWrite);
  if (shard) {
    StageOptions shard_options;
    shard_options.Add("--single-camera", single_camera);
    BeginShard(&database, ShardKind::kExtraction, *shard, shard_options, OptionChangePolicy::kStop);
  }
  SceneDatabase::Transaction transaction(&database);
  const int camera = database.AddCamera(kCamera, true);
  std::vector<int> ids;
  for (const TestImage& image : images) {
    const int id = database.AddImage(image.name, camera);
    database.WriteKeypoints(id, testing::MakeKeypoints(30, image.feature_seed));
    database.WriteDescriptors(id, testing::MakeDescriptors(30, image.feature_seed));
    ids.push_back(id);
  }
  database.WriteStageOptions("extraction", StageOptions().Add("--max-features", max_features).ToText());
  transaction.Commit();
  if (shard && finished) FinishShard(&database, ShardKind::kExtraction);
  return ids;
}

std::vector<std::string> NamesInIdOrder(const SceneDatabase& database) {
  std::vector<std::string> names;
  for (const DatabaseImage& image : database.ReadImages()) names.push_back(image.name);
  return names;
}

TEST(DatabaseMerge, RenumbersImagesInNameOrderAndKeepsTheirPairs) {
  const std::string dir = testing::MakeTempDir("merge_renumber");
  const std::vector<int> a_ids = WriteDatabase(dir + "/shard0.db", {{"c.jpg", 3}, {"a.jpg", 1}}, 100, Shard{0, 2});
  WriteDatabase(dir + "/shard1.db", {{"b.jpg", 2}}, 100, Shard{1, 2});
  // A pair of shard 0, stored under its ids there (c before a).
  const std::vector<FeatureMatch> matches = testing::MakeMatches(20, 7);
  const TwoViewGeometry geometry = testing::MakeGeometry(5);
  {
    SceneDatabase shard0(dir + "/shard0.db", SceneDatabase::Mode::kReadWrite);
    shard0.WriteMatches(a_ids[0], a_ids[1], matches);
    shard0.WriteTwoViewGeometry(a_ids[0], a_ids[1], geometry);
  }
  const MergeSummary summary = MergeSceneDatabases({dir + "/shard1.db", dir + "/shard0.db"}, dir + "/merged.db");
  EXPECT_EQ(summary.num_images, 3);
  EXPECT_EQ(summary.num_cameras, 1);  // the shards' equal cameras are one
  EXPECT_EQ(summary.num_shards, 2);
  EXPECT_TRUE(summary.gps_reviewed);

  const SceneDatabase merged(dir + "/merged.db", SceneDatabase::Mode::kReadOnly);
  EXPECT_EQ(NamesInIdOrder(merged), (std::vector<std::string>{"a.jpg", "b.jpg", "c.jpg"}));
  EXPECT_EQ(merged.NumCameras(), 1);
  const int a = merged.FindImage("a.jpg")->image_id, c = merged.FindImage("c.jpg")->image_id;
  EXPECT_EQ(merged.ReadDescriptors(c), testing::MakeDescriptors(30, 3));
  testing::ExpectMatchesEqual(*merged.ReadMatches(c, a), matches);
  testing::ExpectGeometriesNear(*merged.ReadTwoViewGeometry(c, a), geometry);
  EXPECT_FALSE(ReadShardRecord(merged).has_value());  // the merge is a whole database
  EXPECT_EQ(merged.ReadStageOptions("extraction"), StageOptions().Add("--max-features", 100).ToText());
}

TEST(DatabaseMerge, RefusesShardsMadeWithOtherOptions) {
  const std::string dir = testing::MakeTempDir("merge_options");
  WriteDatabase(dir + "/0.db", {{"a.jpg", 1}}, 100, Shard{0, 2});
  WriteDatabase(dir + "/1.db", {{"b.jpg", 2}}, 200, Shard{1, 2});
  EXPECT_THAT(InputErrorOf([&] { MergeSceneDatabases({dir + "/0.db", dir + "/1.db"}, dir + "/m.db"); }),
              AllOf(HasSubstr(dir + "/1.db' holds extraction results computed with other options than '" +
                              dir + "/0.db'"),
                    HasSubstr("--max-features was 100, this run asks for 200")));
  // The shards' own options (cameras) too.
  WriteDatabase(dir + "/1b.db", {{"b.jpg", 2}}, 100, Shard{1, 2}, true, "on");
  EXPECT_THAT(InputErrorOf([&] { MergeSceneDatabases({dir + "/0.db", dir + "/1b.db"}, dir + "/m.db"); }),
              AllOf(HasSubstr("(extraction shard 1/2) was made with other options"),
                    HasSubstr("--single-camera was off, this run asks for on")));
}

TEST(DatabaseMerge, RefusesAnImageWithOtherContentAndLeavesTheOutputAsItWas) {
  const std::string dir = testing::MakeTempDir("merge_content");
  WriteDatabase(dir + "/x.db", {{"a.jpg", 1}, {"b.jpg", 2}}, 100);
  WriteDatabase(dir + "/same.db", {{"b.jpg", 2}}, 100);
  WriteDatabase(dir + "/other.db", {{"b.jpg", 9}}, 100);
  // The same image in two databases is one image.
  EXPECT_EQ(MergeSceneDatabases({dir + "/x.db", dir + "/same.db"}, dir + "/m.db").num_images, 2);
  testing::WriteFileBytes(dir + "/m.db", "an earlier output");
  EXPECT_THAT(InputErrorOf([&] { MergeSceneDatabases({dir + "/x.db", dir + "/other.db"}, dir + "/m.db"); }),
              HasSubstr("image 'b.jpg' is in '" + dir + "/x.db' and '" + dir +
                        "/other.db' with different content: their features differ"));
  EXPECT_EQ(testing::ReadFileBytes(dir + "/m.db"), "an earlier output");
  EXPECT_FALSE(std::filesystem::exists(dir + "/m.db.merging"));
  EXPECT_THAT(InputErrorOf([&] { MergeSceneDatabases({dir + "/x.db"}, dir + "/x.db"); }),
              HasSubstr("is also an input"));
}

TEST(DatabaseMerge, RefusesUnfinishedMissingAndRepeatedShards) {
  const std::string dir = testing::MakeTempDir("merge_shards");
  WriteDatabase(dir + "/0.db", {{"a.jpg", 1}}, 100, Shard{0, 3});
  WriteDatabase(dir + "/1.db", {{"b.jpg", 2}}, 100, Shard{1, 3});
  WriteDatabase(dir + "/2.db", {{"c.jpg", 3}}, 100, Shard{2, 3}, /*finished=*/false);
  const auto merge = [&](const std::vector<std::string>& names) {
    std::vector<std::string> paths;
    for (const std::string& name : names) paths.push_back(dir + "/" + name);
    return InputErrorOf([&] { MergeSceneDatabases(paths, dir + "/m.db"); });
  };
  EXPECT_THAT(merge({"0.db", "1.db", "2.db"}),
              HasSubstr("2.db' holds extraction shard 2/3, whose task did not finish"));
  EXPECT_THAT(merge({"0.db", "1.db"}), HasSubstr("extraction shard 2/3 is missing"));
  EXPECT_THAT(merge({"0.db", "1.db", "0.db"}), HasSubstr("both hold extraction shard 0/3"));
  {
    SceneDatabase again(dir + "/2.db", SceneDatabase::Mode::kReadWrite);  // the task run again
    FinishShard(&again, ShardKind::kExtraction);
  }
  EXPECT_EQ(merge({"0.db", "1.db", "2.db"}), "");
  EXPECT_FALSE(std::filesystem::exists(dir + "/m.db.merging"));
}

}  // namespace
}  // namespace proj
