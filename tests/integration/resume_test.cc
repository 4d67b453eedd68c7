// Resume after a crash: `sfm reconstruct` is killed with SIGKILL at points in every stage
// (extraction, matching, verification, mapping, output), then run again with the same
// command. The second run must redo no completed stage and give the model of a run that was
// never interrupted: the same registered images and the same number of points.
#include <signal.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/logging.h"
#include "cuda/device.h"
#include "datasets/synthetic/synthetic_scene.h"
#include "tests/integration/sfm_process.h"
#include "tests/integration/small_scene.h"
#include "tests/support/test_data.h"

namespace proj {
namespace {

using testing::ReportNumber;
using testing::RunSfmToEnd;

std::string ReadText(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string UnregisteredImages(const std::string& report) {
  std::smatch match;
  std::regex_search(report, match, std::regex("\"unregistered_images\": \\[([^\\]]*)\\]"));
  return match[1];
}

// The seconds report.json gives a stage (0 when absent).
double StageSeconds(const std::string& report, const std::string& stage) {
  std::smatch match;
  if (!std::regex_search(report, match, std::regex("\"" + stage + "\": ([0-9.e+-]+)"))) return 0;
  return std::stod(match[1]);
}

struct KillPoint {
  std::string trigger;  // a line the program prints on stderr as the stage starts
  std::string stage;    // the stage it is killed in: after a random part of its reference time
  // What the resumed run must not compute again (report.json keys that must be 0).
  std::vector<std::string> not_redone;
};

TEST(Resume, KilledInEveryStageResumesToTheUninterruptedModel) {
  const std::string dir = testing::WriteSmallRingScene("resume", 12);
  auto arguments = [&](const std::string& out) {
    // --verbose: the kill points include the stage times and per-image lines it logs.
    return std::vector<std::string>{"reconstruct", dir + "/images", "-o", out, "--device", "cpu",
                                    "--threads", "2", "--seed", "3", "--max-features", "2048", "--verbose"};
  };
  ASSERT_EQ(RunSfmToEnd(arguments(dir + "/reference"), dir + "/reference.log"), 0)
      << ReadText(dir + "/reference.log");
  const std::string reference = ReadText(dir + "/reference/report.json");
  const long long reference_points = ReportNumber(reference, "points");
  ASSERT_GT(reference_points, 500);
  ASSERT_EQ(ReportNumber(reference, "registered_images"), 12);

  const std::vector<std::string> done_before_mapping = {"images_extracted", "pairs_matched_now",
                                                       "pairs_verified_now"};
  const std::vector<KillPoint> points = {
      {" to extract", "feature_extraction", {}},
      {" to extract", "feature_extraction", {}},
      {" to match", "matching", {"images_extracted"}},
      {" to verify", "geometric_verification", {"images_extracted", "pairs_matched_now"}},
      {"tracks:", "mapping", done_before_mapping},
      {"tracks:", "mapping", done_before_mapping},
      {"stage mapping", "", done_before_mapping},  // while colours and outputs are written
  };
  std::mt19937 random(11);
  for (size_t k = 0; k < points.size(); ++k) {
    const KillPoint& point = points[k];
    const double seconds = point.stage.empty() ? 0 : StageSeconds(reference, point.stage);
    const int delay = static_cast<int>(1000 * seconds * std::uniform_real_distribution<double>(0.1, 0.9)(random));
    SCOPED_TRACE("killed " + std::to_string(delay) + " ms after '" + point.trigger + "'");
    const std::string out = dir + "/run" + std::to_string(k);
    const testing::SignalledRun killed = testing::RunSfmAndSignal(arguments(out), point.trigger, delay, {SIGKILL});
    ASSERT_TRUE(killed.signalled && killed.term_signal == SIGKILL) << "the run ended before it could be killed";
    const bool report_after_kill = std::filesystem::exists(out + "/report.json");
    const std::string log = out + ".log";
    ASSERT_EQ(RunSfmToEnd(arguments(out), log), 0) << ReadText(log);
    const std::string report = ReadText(out + "/report.json");
    EXPECT_EQ(ReportNumber(report, "registered_images"), 12);
    EXPECT_EQ(UnregisteredImages(report), UnregisteredImages(reference));
    EXPECT_EQ(ReportNumber(report, "points"), reference_points);
    EXPECT_EQ(ReportNumber(report, "verified_matches"), ReportNumber(reference, "verified_matches"));
    for (const std::string& key : point.not_redone) EXPECT_EQ(ReportNumber(report, key), 0) << key;
    EXPECT_EQ(ReportNumber(report, "images_extracted") + ReportNumber(report, "images"), 12);
    std::cout << "killed " << delay << " ms after '" << point.trigger << "'"
              << (report_after_kill ? " (outputs already written)" : "") << "; the resumed run extracted "
              << ReportNumber(report, "images_extracted") << " images (reused "
              << ReportNumber(report, "images") << "), matched " << ReportNumber(report, "pairs_matched_now")
              << " pairs (reused " << ReportNumber(report, "pairs_matched_before") << "), verified "
              << ReportNumber(report, "pairs_verified_now") << " (reused "
              << ReportNumber(report, "pairs_verified_before") << "); " << ReportNumber(report, "points")
              << " points" << std::endl;
  }
}

// Mapping is deterministic, bundle adjustment included: a run killed while mapping and run
// again maps the reference run's database (copied, so that nothing before mapping differs)
// into the same model files, byte for byte. `device`: the run's --device (gpu: every
// adjustment on the GPU solver).
void ExpectResumedMappingGivesTheSameModelBytes(const std::string& device) {
  const std::string dir = testing::WriteSmallRingScene("resume_bytes_" + device, 12);
  auto arguments = [&](const std::string& out) {
    return std::vector<std::string>{"reconstruct", dir + "/images", "-o", out, "--device", device,
                                    "--seed", "3", "--max-features", "2048", "--verbose"};
  };
  ASSERT_EQ(RunSfmToEnd(arguments(dir + "/reference"), dir + "/reference.log"), 0)
      << ReadText(dir + "/reference.log");
  const std::string reference = ReadText(dir + "/reference/report.json");
  ASSERT_EQ(ReportNumber(reference, "registered_images"), 12);
  const std::string out = dir + "/killed";
  std::filesystem::create_directories(out);
  std::filesystem::copy_file(dir + "/reference/database.db", out + "/database.db",
                             std::filesystem::copy_options::overwrite_existing);
  // Killed as soon as the third image is registered: mid-mapping however fast mapping is (a
  // delay of half the reference's mapping time after "tracks:" came too late under load once
  // mapping took 0.3 s).
  const testing::SignalledRun killed =
      testing::RunSfmAndSignal(arguments(out), "registered images: 3/", 0, {SIGKILL});
  ASSERT_TRUE(killed.signalled && killed.term_signal == SIGKILL) << "the run ended before it could be killed";
  ASSERT_EQ(RunSfmToEnd(arguments(out), out + ".log"), 0) << ReadText(out + ".log");
  for (const char* file : {"cameras.bin", "images.bin", "points3D.bin"}) {
    const std::string expected = ReadText(dir + "/reference/model/" + file);
    ASSERT_FALSE(expected.empty()) << file;
    EXPECT_TRUE(ReadText(out + "/model/" + file) == expected) << file << " differs";
  }
  std::cout << "--device " << device << ": killed at the third registration"
            << "; the resumed model has the reference's "
            << ReportNumber(reference, "points") << " points, byte for byte" << std::endl;
}

TEST(Resume, KilledWhileMappingResumesToTheSameModelBytes) {
  ExpectResumedMappingGivesTheSameModelBytes("cpu");
}

TEST(Resume, KilledWhileMappingOnTheGpuResumesToTheSameModelBytes) {
  if (!cuda::DeviceAvailable()) GTEST_SKIP() << "no CUDA device: " << cuda::DeviceDescription();
  ExpectResumedMappingGivesTheSameModelBytes("gpu");
}

}  // namespace
}  // namespace proj
