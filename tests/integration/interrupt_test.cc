// Ctrl-C: `sfm reconstruct` gets SIGINT in the middle of a stage. It must stop with exit
// code 130 and say how to resume, leave a database that passes SQLite's integrity check,
// and the same command run again must give the model of a run never interrupted. A second
// SIGINT stops it at once, with the database as consistent.
#include <signal.h>

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tests/integration/sfm_process.h"
#include "tests/integration/small_scene.h"
#include "tests/sfm/database/database_test_util.h"
#include "tests/support/test_data.h"

namespace proj {
namespace {

using testing::ReportNumber;

struct InterruptCase {
  std::string trigger;  // a stderr line printed as the stage starts
  int delay_ms;
  int num_signals;      // 1: stop cleanly; 2: stop at once
};

TEST(Interrupt, SigintStopsCleanlyAndTheSameCommandResumesToTheUninterruptedModel) {
  const std::string dir = testing::WriteSmallRingScene("interrupt", 12);
  auto arguments = [&](const std::string& out) {
    return std::vector<std::string>{"reconstruct", dir + "/images", "-o", out, "--device", "cpu",
                                    "--threads", "2", "--seed", "3", "--max-features", "2048"};
  };
  ASSERT_EQ(testing::RunSfmToEnd(arguments(dir + "/reference"), dir + "/reference.log"), 0)
      << testing::ReadTextFile(dir + "/reference.log");
  const std::string reference = testing::ReadTextFile(dir + "/reference/report.json");
  ASSERT_EQ(ReportNumber(reference, "registered_images"), 12);

  const std::vector<InterruptCase> cases = {
      {" to extract", 300, 1},  // extraction
      {" to match", 50, 1},     // matching (or verification, if matching ends first)
      {"tracks:", 30, 1},       // mapping (growing; the whole mapping takes ~0.3 s here)
      {" to extract", 300, 2},  // a second Ctrl-C
  };
  for (size_t k = 0; k < cases.size(); ++k) {
    const InterruptCase& c = cases[k];
    SCOPED_TRACE(std::to_string(c.num_signals) + " SIGINT " + std::to_string(c.delay_ms) + " ms after '" +
                 c.trigger + "'");
    const std::string out = dir + "/run" + std::to_string(k);
    const std::vector<int> signals(c.num_signals, SIGINT);
    const testing::SignalledRun run = testing::RunSfmAndSignal(arguments(out), c.trigger, c.delay_ms, signals, 20);
    ASSERT_TRUE(run.signalled) << run.stderr_text;
    EXPECT_EQ(run.exit_code, 130) << run.stderr_text;
    if (c.num_signals == 1) {
      EXPECT_NE(run.stderr_text.find("interrupted; run the same command again to resume"), std::string::npos)
          << run.stderr_text;
    } else {
      EXPECT_NE(run.stderr_text.find("stopping now"), std::string::npos) << run.stderr_text;
    }
    {
      testing::RawDatabase database(out + "/database.db");
      EXPECT_EQ(database.QueryText("PRAGMA integrity_check"), "ok");
    }
    const std::string log = out + ".log";
    ASSERT_EQ(testing::RunSfmToEnd(arguments(out), log), 0) << testing::ReadTextFile(log);
    const std::string report = testing::ReadTextFile(out + "/report.json");
    EXPECT_EQ(ReportNumber(report, "registered_images"), 12);
    EXPECT_EQ(ReportNumber(report, "points"), ReportNumber(reference, "points"));
    EXPECT_EQ(ReportNumber(report, "verified_matches"), ReportNumber(reference, "verified_matches"));
    EXPECT_EQ(ReportNumber(report, "images_extracted") + ReportNumber(report, "images"), 12);
  }
}

}  // namespace
}  // namespace proj
