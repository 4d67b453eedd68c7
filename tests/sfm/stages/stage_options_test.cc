#include "sfm/stages/stage_options.h"

#include <gtest/gtest.h>

#include "core/check.h"
#include "sfm/database/scene_database.h"
#include "tests/support/test_data.h"

namespace proj {
namespace {

StageOptions Features(int max_features) {
  StageOptions options;
  options.Add("--max-features", max_features).Add("--edge-test", "on").Add("ratio", 0.8);
  return options;
}

TEST(StageOptions, TextRoundTripKeepsEveryValue) {
  const StageOptions options = Features(8192);
  EXPECT_EQ(options.ToText(), "--max-features=8192\n--edge-test=on\nratio=0.80000000000000004\n");
  EXPECT_FALSE(options.DifferenceFrom(StageOptions::FromText(options.ToText())));
}

TEST(StageOptions, DifferenceNamesTheOptionAndBothValues) {
  const auto difference = Features(4096).DifferenceFrom(Features(8192));
  ASSERT_TRUE(difference);
  EXPECT_NE(difference->find("--max-features was 8192, this run asks for 4096"), std::string::npos)
      << *difference;
  StageOptions more = Features(8192);
  more.Add("--upsample", 1);
  EXPECT_TRUE(more.DifferenceFrom(Features(8192)));
  EXPECT_TRUE(Features(8192).DifferenceFrom(more));
}

TEST(StageOptions, ReconcileRecordsStopsOrRedoes) {
  const std::string path = testing::MakeTempDir("stage_options") + "/db.db";
  SceneDatabase database(path, SceneDatabase::Mode::kReadWrite);
  EXPECT_TRUE(ReconcileStageOptions(&database, "extraction", Features(8192), OptionChangePolicy::kStop));
  EXPECT_TRUE(ReconcileStageOptions(&database, "extraction", Features(8192), OptionChangePolicy::kStop));
  try {
    ReconcileStageOptions(&database, "extraction", Features(4096), OptionChangePolicy::kStop);
    FAIL() << "a changed option must stop the run";
  } catch (const InputError& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find(path), std::string::npos) << message;
    EXPECT_NE(message.find("--max-features was 8192"), std::string::npos) << message;
  }
  EXPECT_FALSE(ReconcileStageOptions(&database, "extraction", Features(4096), OptionChangePolicy::kRedo));
  EXPECT_TRUE(ReconcileStageOptions(&database, "extraction", Features(4096), OptionChangePolicy::kStop));
}

}  // namespace
}  // namespace proj
