#include "core/progress.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include "core/logging.h"

namespace proj {
namespace {

TEST(Progress, BarFillsInProportionRoundingDown) {
  EXPECT_EQ(ProgressBar(0, 4, 8), "[........]");
  EXPECT_EQ(ProgressBar(1, 4, 8), "[##......]");
  EXPECT_EQ(ProgressBar(99, 100, 10), "[#########.]");  // full only when done
  EXPECT_EQ(ProgressBar(100, 100, 10), "[##########]");
  EXPECT_EQ(ProgressBar(7, 5, 4), "[####]");  // over-counting never overflows the bar
  EXPECT_EQ(ProgressBar(0, 0, 4), "[####]");  // nothing to do is done
}

TEST(Progress, RateHasAboutThreeSignificantDigits) {
  EXPECT_EQ(FormatRate(1234.4), "1234");
  EXPECT_EQ(FormatRate(123.4), "123");
  EXPECT_EQ(FormatRate(12.34), "12.3");
  EXPECT_EQ(FormatRate(1.234), "1.23");
  EXPECT_EQ(FormatRate(0.123), "0.12");
  EXPECT_EQ(FormatRate(0), "0.00");
}

TEST(Progress, DurationIsMinutesSecondsOrHoursRoundedUp) {
  EXPECT_EQ(FormatDuration(0), "0:00");
  EXPECT_EQ(FormatDuration(0.2), "0:01");
  EXPECT_EQ(FormatDuration(59), "0:59");
  EXPECT_EQ(FormatDuration(65), "1:05");
  EXPECT_EQ(FormatDuration(3723), "1:02:03");
  EXPECT_EQ(FormatDuration(-1), "?");
  EXPECT_EQ(FormatDuration(std::numeric_limits<double>::infinity()), "?");
}

TEST(Progress, LineShowsCountsRateAndEta) {
  // 6 of 11 images in 3 s: 2 images/s, 5 left, 2.5 s -> 0:03.
  const std::string line = FormatProgressLine("extracting features", 6, 11, "images", 3.0, 80);
  EXPECT_EQ(line,
            "extracting features [##########..........] 6/11 images  2.00 images/s  ETA 0:03");
  EXPECT_EQ(line.size(), 79u);  // the bar took what was left of the 80 columns
}

TEST(Progress, LineWhenDoneGivesTheTimeTaken) {
  const std::string line = FormatProgressLine("matching", 55, 55, "pairs", 12.2, 100);
  EXPECT_NE(line.find("[########################################] 55/55 pairs  4.51 pairs/s  in 0:13"),
            std::string::npos)
      << line;
}

TEST(Progress, LineWithoutRateYetHasUnknownEta) {
  const std::string line = FormatProgressLine("tracking", 0, 10, "frames", 0.0, 100);
  EXPECT_NE(line.find("0/10 frames  0.00 frames/s  ETA ?"), std::string::npos) << line;
}

TEST(Progress, LogLineSaysWhenTheStageWillEnd) {
  // 6 of 18 maps in 60 s: 12 left at 0.1 maps/s.
  EXPECT_EQ(FormatProgressLogLine("computing depth maps", 6, 18, "images", 60.0),
            "computing depth maps: 6/18 images (ETA 2:00)");
  EXPECT_EQ(FormatProgressLogLine("matching", 55, 55, "pairs", 12.2), "matching: 55/55 pairs (in 0:13)");
  EXPECT_EQ(FormatProgressLogLine("tracking", 0, 10, "frames", 0.0), "tracking: 0/10 frames (ETA ?)");
}

TEST(Progress, LineFitsANarrowTerminal) {
  const std::string line = FormatProgressLine("verifying keyframe pairs", 3, 10, "pairs", 1, 40);
  EXPECT_EQ(line.size(), 39u);  // cut, never wrapped
  EXPECT_EQ(line.substr(0, 26), "verifying keyframe pairs [");
}

TEST(Progress, CountsFromManyThreads) {
  SetLogLevel(LogLevel::kWarning);  // no output from the test
  Progress progress("counting", 4000, "items");
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 1000; ++i) progress.Advance();
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(progress.done(), 4000);
  SetLogLevel(LogLevel::kInfo);
}

TEST(Progress, ListenerHearsEveryAdvanceInOrderWhateverTheLogLevel) {
  SetLogLevel(LogLevel::kWarning);  // quiet: nothing printed, the listener still hears
  std::vector<int> counts;
  SetProgressListener([&](const std::string& stage, int done, int total) {
    EXPECT_EQ(stage, "counting");
    EXPECT_EQ(total, 2000);
    counts.push_back(done);  // under the Progress's lock: no race
  });
  {
    Progress progress("counting", 2000, "items");
    std::vector<std::thread> threads;
    for (int t = 0; t < 2; ++t) {
      threads.emplace_back([&] {
        for (int i = 0; i < 1000; ++i) progress.Advance();
      });
    }
    for (auto& thread : threads) thread.join();
  }
  SetProgressListener(nullptr);
  ASSERT_EQ(counts.size(), 2000u);
  EXPECT_TRUE(std::is_sorted(counts.begin(), counts.end()));
  EXPECT_EQ(counts.back(), 2000);
  Progress after("counting", 1, "items");
  after.Advance();  // no listener: nothing is called
  EXPECT_EQ(counts.size(), 2000u);
  SetLogLevel(LogLevel::kInfo);
}

}  // namespace
}  // namespace proj
