// The pipeline around its scene database, in process: stable image ids when photos are added
// or removed, a second run that reuses every stage, and option changes that are refused or
// redone, never mixed. A small synthetic ring (8 views of 640x480, CPU).
#include <filesystem>
#include <fstream>
#include <algorithm>
#include <map>

#include <gtest/gtest.h>

#include "core/check.h"
#include "core/logging.h"
#include "datasets/synthetic/synthetic_scene.h"
#include "sfm/database/scene_database.h"
#include "sfm/pipeline/reconstruction_pipeline.h"
#include "sfm/stages/input_stage.h"
#include "tests/integration/small_scene.h"
#include "tests/support/test_data.h"

namespace proj {
namespace {
namespace fs = std::filesystem;

// A folder with the views of a small ring; returns its path.
std::string SmallScene(const std::string& name, int num_images = 8) {
  return testing::WriteSmallRingScene(name, num_images);
}

ReconstructionOptions CpuOptions() {
  ReconstructionOptions options;
  options.run.device = ComputeDevice::kCpu;
  options.extraction.features.selection.max_features = 2048;
  return options.Resolve();
}

std::map<std::string, int> IdsByName(const std::string& database_path) {
  const SceneDatabase database(database_path, SceneDatabase::Mode::kReadOnly);
  std::map<std::string, int> ids;
  for (const DatabaseImage& image : database.ReadImages()) ids[image.name] = image.image_id;
  return ids;
}

ReconstructionResult Extract(const ReconstructionOptions& options, const std::string& images,
                             const std::string& database_path) {
  SceneDatabase database(database_path, SceneDatabase::Mode::kReadWrite);
  ReconstructionResult result;
  AddStageSummary(RunExtractionStage(options, images, &database), &result);
  return result;
}

TEST(DatabasePipeline, ImageIdsStayWhenPhotosAreAddedRemovedOrChanged) {
  const std::string dir = SmallScene("db_stable_ids");
  const std::string images = dir + "/images";
  const std::string database = dir + "/database.db";
  const std::string parked = testing::MakeTempDir("db_stable_ids_parked");
  for (const char* name : {"0003.jpg", "0007.jpg"}) fs::rename(images + "/" + name, parked + "/" + name);
  const ReconstructionOptions options = CpuOptions();

  const ReconstructionResult first = Extract(options, images, database);
  EXPECT_EQ(first.statistics.num_images_extracted, 6);
  const std::map<std::string, int> six = IdsByName(database);
  EXPECT_EQ(six, (std::map<std::string, int>{
                     {"0000.jpg", 1}, {"0001.jpg", 2}, {"0002.jpg", 3}, {"0004.jpg", 4}, {"0005.jpg", 5}, {"0006.jpg", 6}}));

  // Two photos come back: they get new ids, the others keep theirs and are not extracted again.
  for (const char* name : {"0003.jpg", "0007.jpg"}) fs::rename(parked + "/" + name, images + "/" + name);
  const ReconstructionResult second = Extract(options, images, database);
  EXPECT_EQ(second.statistics.num_images_extracted, 2);
  EXPECT_EQ(second.statistics.num_images_reused, 6);
  std::map<std::string, int> eight = six;
  eight["0003.jpg"] = 7;
  eight["0007.jpg"] = 8;
  EXPECT_EQ(IdsByName(database), eight);

  // One leaves: it is removed, nothing else moves or is extracted.
  fs::remove(images + "/0001.jpg");
  const ReconstructionResult third = Extract(options, images, database);
  EXPECT_EQ(third.statistics.num_images_removed, 1);
  EXPECT_EQ(third.statistics.num_images_extracted, 0);
  eight.erase("0001.jpg");
  EXPECT_EQ(IdsByName(database), eight);

  // One is replaced by another photo: extracted again under its id.
  std::vector<Keypoint> old_keypoints;
  {
    const SceneDatabase db(database, SceneDatabase::Mode::kReadOnly);
    old_keypoints = db.ReadKeypoints(eight.at("0005.jpg"));
  }
  fs::copy_file(images + "/0002.jpg", images + "/0005.jpg", fs::copy_options::overwrite_existing);
  const ReconstructionResult fourth = Extract(options, images, database);
  EXPECT_EQ(fourth.statistics.num_images_extracted, 1);
  EXPECT_EQ(IdsByName(database), eight);
  const SceneDatabase db(database, SceneDatabase::Mode::kReadOnly);
  const std::vector<Keypoint> replaced = db.ReadKeypoints(eight.at("0005.jpg"));
  const std::vector<Keypoint> original = db.ReadKeypoints(eight.at("0002.jpg"));
  ASSERT_EQ(replaced.size(), original.size());
  for (size_t k = 0; k < replaced.size(); ++k) EXPECT_EQ(replaced[k].x, original[k].x);
  size_t moved = 0;
  for (size_t k = 0; k < std::min(old_keypoints.size(), replaced.size()); ++k) {
    moved += old_keypoints[k].x != replaced[k].x ? 1 : 0;
  }
  EXPECT_GT(moved, replaced.size() / 2) << "the features of the old photo were kept";
}

TEST(DatabasePipeline, SecondRunReusesEveryStageAndGivesTheSameModel) {
  const std::string dir = SmallScene("db_second_run");
  const std::string database = dir + "/database.db";
  const ReconstructionResult first = BuildReconstruction(CpuOptions(), dir + "/images", database);
  ASSERT_TRUE(first.mapper.success) << first.mapper.failure_reason;
  EXPECT_EQ(first.statistics.num_images_extracted, 8);
  EXPECT_EQ(first.statistics.num_pairs_matched_now, 28);
  EXPECT_EQ(first.statistics.num_pairs_verified_now, 28);

  const ReconstructionResult second = BuildReconstruction(CpuOptions(), dir + "/images", database);
  ASSERT_TRUE(second.mapper.success) << second.mapper.failure_reason;
  EXPECT_EQ(second.statistics.num_images_extracted, 0);
  EXPECT_EQ(second.statistics.num_images_reused, 8);
  EXPECT_EQ(second.statistics.num_pairs_matched_now, 0);
  EXPECT_EQ(second.statistics.num_pairs_match_reused, 28);
  EXPECT_EQ(second.statistics.num_pairs_verified_now, 0);
  EXPECT_EQ(second.scene.NumRegisteredImages(), first.scene.NumRegisteredImages());
  EXPECT_EQ(second.scene.points.size(), first.scene.points.size());
  EXPECT_EQ(second.statistics.num_verified_matches, first.statistics.num_verified_matches);
  EXPECT_LT(second.times.Get("feature_extraction"), first.times.Get("feature_extraction"));
}

TEST(DatabasePipeline, ChangedExtractionOptionStopsOrIsRedone) {
  const std::string dir = SmallScene("db_option_change", 4);
  const std::string database = dir + "/database.db";
  ReconstructionOptions options = CpuOptions();
  Extract(options, dir + "/images", database);
  options.extraction.features.selection.max_features = 512;
  try {
    Extract(options, dir + "/images", database);
    FAIL() << "features of other options must not be mixed";
  } catch (const InputError& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("--max-features was 2048, this run asks for 512"), std::string::npos) << message;
    EXPECT_NE(message.find(database), std::string::npos) << message;
  }
  options.on_option_change = OptionChangePolicy::kRedo;
  const ReconstructionResult redone = Extract(options, dir + "/images", database);
  EXPECT_EQ(redone.statistics.num_images_extracted, 4);
  const SceneDatabase db(database, SceneDatabase::Mode::kReadOnly);
  for (const DatabaseImage& image : db.ReadImages()) EXPECT_LE(db.ReadKeypoints(image.image_id).size(), 512u);
}

TEST(DatabasePipeline, DatabaseThatIsNotOneIsRefusedByName) {
  const std::string dir = SmallScene("db_not_a_database", 2);
  const std::string database = dir + "/notes.db";
  std::ofstream(database) << "these are my notes, not a database\n";
  try {
    BuildReconstruction(CpuOptions(), dir + "/images", database);
    FAIL() << "a text file is no scene database";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find(database), std::string::npos) << error.what();
  }
  std::ifstream in(database);
  std::string text;
  std::getline(in, text);
  EXPECT_EQ(text, "these are my notes, not a database");
}

}  // namespace
}  // namespace proj
