// Shard assignment (images by name hash, pairs by block) and the shard record a task keeps in
// its database.
#include <map>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/check.h"
#include "sfm/stages/shard.h"
#include "tests/sfm/database/database_test_util.h"

namespace proj {
namespace {

using ::testing::HasSubstr;
using testing::InputErrorOf;

TEST(Shard, ParsesTaskOfCount) {
  const Shard shard = ParseShard("2/5");
  EXPECT_EQ(shard.index, 2);
  EXPECT_EQ(shard.count, 5);
  EXPECT_EQ(shard.Name(), "2/5");
  for (const char* bad : {"4/4", "1/0", "-1/3", "2", "a/3", "1/b", "", "1/3/4"}) {
    EXPECT_THAT(InputErrorOf([&] { ParseShard(bad); }), HasSubstr("is not i/N")) << bad;
  }
}

TEST(Shard, EveryImageIsInOneShardAndShardsAreBalanced) {
  std::map<int, int> images_per_shard;
  for (int k = 0; k < 2000; ++k) {
    const std::string name = "DJI_" + std::to_string(10000 + k) + ".JPG";
    int shards = 0;
    for (int i = 0; i < 4; ++i) {
      if (ImageInShard(name, Shard{i, 4})) {
        ++shards;
        ++images_per_shard[i];
      }
    }
    EXPECT_EQ(shards, 1) << name;
  }
  for (const auto& [shard, count] : images_per_shard) {
    EXPECT_GT(count, 400) << shard;  // 500 each on average
    EXPECT_LT(count, 600) << shard;
  }
  // A name's shard depends on the name alone: the same in every folder.
  EXPECT_EQ(ImageInShard("a.jpg", Shard{1, 3}), ImageInShard(std::string("a.jpg"), Shard{1, 3}));
}

TEST(Shard, BlocksCoverThePairListInOrder) {
  for (const size_t count : {size_t{0}, size_t{2}, size_t{10}, size_t{1001}}) {
    for (const int shards : {1, 3, 4}) {
      size_t next = 0, smallest = count, largest = 0;
      for (int i = 0; i < shards; ++i) {
        const auto [begin, end] = ShardBlock(count, Shard{i, shards});
        EXPECT_EQ(begin, next);
        next = end;
        smallest = std::min(smallest, end - begin);
        largest = std::max(largest, end - begin);
      }
      EXPECT_EQ(next, count);
      EXPECT_LE(largest - smallest, 1u);
    }
  }
}

TEST(Shard, RecordIsCompleteOnlyOnceTheTaskFinished) {
  SceneDatabase database(testing::TempDatabasePath("shard_record"), SceneDatabase::Mode::kReadWrite);
  EXPECT_FALSE(ReadShardRecord(database).has_value());
  StageOptions options;
  options.Add("--single-camera", "off");
  EXPECT_TRUE(BeginShard(&database, ShardKind::kExtraction, Shard{1, 4}, options, OptionChangePolicy::kStop));
  std::optional<ShardRecord> record = ReadShardRecord(database);
  ASSERT_TRUE(record.has_value());
  EXPECT_EQ(record->kind, ShardKind::kExtraction);
  EXPECT_EQ(record->shard.Name(), "1/4");
  EXPECT_EQ(record->options.ToText(), options.ToText());
  EXPECT_FALSE(record->complete);
  FinishShard(&database, ShardKind::kExtraction);
  EXPECT_TRUE(ReadShardRecord(database)->complete);

  // Resuming the same shard keeps its results; until it finishes again it is incomplete.
  EXPECT_TRUE(BeginShard(&database, ShardKind::kExtraction, Shard{1, 4}, options, OptionChangePolicy::kStop));
  EXPECT_FALSE(ReadShardRecord(database)->complete);
  // Another shard into the same file: refused, or its results redone.
  EXPECT_THAT(InputErrorOf([&] {
                BeginShard(&database, ShardKind::kExtraction, Shard{2, 4}, options, OptionChangePolicy::kStop);
              }),
              HasSubstr("--shard was 1/4, this run asks for 2/4"));
  EXPECT_FALSE(BeginShard(&database, ShardKind::kExtraction, Shard{2, 4}, options, OptionChangePolicy::kRedo));
  EXPECT_EQ(ReadShardRecord(database)->shard.Name(), "2/4");
}

}  // namespace
}  // namespace proj
