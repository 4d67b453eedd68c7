// Extraction and matching split into shards and merged (sfm extract|match --shard i/N, sfm
// merge-databases) write the database one run over the whole folder writes, byte for byte:
// the same images and ids, cameras, features, matches and geometries.
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/logging.h"
#include "datasets/synthetic/synthetic_scene.h"
#include "sfm/database/database_digest.h"
#include "sfm/stages/database_merge.h"
#include "sfm/stages/input_stage.h"
#include "sfm/stages/matching_shard.h"
#include "sfm/stages/pair_stage.h"
#include "tests/sfm/database/database_test_util.h"
#include "tests/support/test_data.h"

namespace proj {
namespace {

using ::testing::HasSubstr;

ReconstructionOptions CpuOptions() {
  ReconstructionOptions options;
  options.run.device = ComputeDevice::kCpu;
  options.run.num_threads = 2;
  options.extraction.features.selection.max_features = 400;
  options.pair_selection.mode = PairSelection::kExhaustive;
  return options.Resolve();
}

TEST(ShardedStages, ShardsMergedAreTheDatabaseOfOneRun) {
  SetLogLevel(LogLevel::kWarning);
  const std::string dir = testing::MakeTempDir("sharded_stages");
  SyntheticSceneOptions scene;
  scene.num_images = 8;
  scene.width = 320;
  scene.height = 240;
  scene.focal_px = 275;
  scene.supersampling = 1;
  WriteSyntheticScene(scene, dir);  // dir/images
  const ReconstructionOptions options = CpuOptions();

  // One run: extraction, then matching and verification.
  std::vector<int> ids;
  {
    SceneDatabase one(dir + "/one.db", SceneDatabase::Mode::kReadWrite);
    ids = RunExtractionStage(options, dir + "/images", &one).image_ids;
  }
  const std::vector<TableDigest> extracted_once = DigestSceneDatabase(dir + "/one.db");
  {
    SceneDatabase one(dir + "/one.db", SceneDatabase::Mode::kReadWrite);
    RunMatchingStages(options, ids, &one);
  }
  const std::vector<TableDigest> matched_once = DigestSceneDatabase(dir + "/one.db");

  // Extraction in 3 shards, merged.
  std::vector<std::string> extraction_shards;
  int num_sharded_images = 0;
  for (int i = 0; i < 3; ++i) {
    extraction_shards.push_back(dir + "/extract_" + std::to_string(i) + ".db");
    SceneDatabase shard(extraction_shards.back(), SceneDatabase::Mode::kReadWrite);
    num_sharded_images += static_cast<int>(
        RunExtractionStage(options, dir + "/images", &shard, Shard{i, 3}).image_ids.size());
  }
  EXPECT_EQ(num_sharded_images, 8);
  MergeSceneDatabases(extraction_shards, dir + "/extracted.db");
  EXPECT_EQ(CompareDigests(extracted_once, DigestSceneDatabase(dir + "/extracted.db")), "");

  // Matching in 2 shards from the merged extraction, merged with it.
  std::vector<std::string> inputs = {dir + "/extracted.db"};
  const SceneDatabase extracted(dir + "/extracted.db", SceneDatabase::Mode::kReadOnly);
  for (int i = 0; i < 2; ++i) {
    inputs.push_back(dir + "/match_" + std::to_string(i) + ".db");
    SceneDatabase shard(inputs.back(), SceneDatabase::Mode::kReadWrite);
    const PairStageSummary summary = RunMatchingShard(options, extracted, Shard{i, 2}, &shard);
    EXPECT_EQ(summary.counts.num_pairs_matched, 14);  // 28 pairs of 8 images, in halves
    EXPECT_EQ(shard.NumKeypoints(), 0);               // the features stay in the extraction's
  }
  MergeSceneDatabases(inputs, dir + "/merged.db");
  EXPECT_EQ(CompareDigests(matched_once, DigestSceneDatabase(dir + "/merged.db")), "");

  // A shard run again (a task the scheduler re-runs) reuses everything it holds.
  {
    SceneDatabase shard(inputs[1], SceneDatabase::Mode::kReadWrite);
    const PairStageSummary again = RunMatchingShard(options, extracted, Shard{0, 2}, &shard);
    EXPECT_EQ(again.counts.num_pairs_matched_now, 0);
    EXPECT_EQ(again.counts.num_pairs_verified_now, 0);
  }
  // Matching needs the merged extraction, not a shard of it.
  SceneDatabase stray(dir + "/stray.db", SceneDatabase::Mode::kReadWrite);
  const SceneDatabase extraction_shard(extraction_shards[0], SceneDatabase::Mode::kReadOnly);
  EXPECT_THAT(testing::InputErrorOf([&] { RunMatchingShard(options, extraction_shard, Shard{0, 2}, &stray); }),
              HasSubstr("is extraction shard 0/3; merge the extraction shards first"));
}

}  // namespace
}  // namespace proj
