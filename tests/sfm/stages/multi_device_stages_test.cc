// Feature extraction and descriptor matching spread over several devices, with fake device
// workers on the CPU: each wraps the CPU implementation (so every device computes the same
// thing), sleeps so that units finish out of order, records which device ran which unit and
// can fail as a GPU does (GpuError). Whatever the number of devices, the order units finish
// in and a device failing part-way, the scene database must hold the same images, cameras,
// keypoints, descriptors and matches as with one device, byte for byte.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "core/logging.h"
#include "cuda/gpu_error.h"
#include "datasets/synthetic/synthetic_scene.h"
#include "features/sift/sift_cpu.h"
#include "matching/cpu_descriptor_matcher.h"
#include "sfm/database/database_digest.h"
#include "tests/sfm/stages/extract_and_match.h"
#include "tests/support/cerr_capture.h"
#include "tests/support/test_data.h"

namespace proj {
namespace {

using testing::CerrCapture;

cuda::GpuError LaunchFailure() {
  return cuda::GpuError(719, "cudaErrorLaunchFailure", "unspecified launch failure", "kernel<<<>>>", "z.cu:3");
}

// Units each device ran, and how they ended.
struct WorkLog {
  std::mutex mutex;
  std::map<int, int> extracted;  // device -> images
  std::map<int, int> matched;    // device -> blocks of pairs
  int failures = 0;

  // Counts a call on `device`; true when this call must fail (the `fail_at`-th of it).
  bool Call(int device, int fail_at, std::map<int, int>* done, std::map<int, int>* calls) {
    std::lock_guard<std::mutex> lock(mutex);
    if (++(*calls)[device] == fail_at) {
      ++failures;
      return true;
    }
    ++(*done)[device];
    return false;
  }
  std::map<int, int> extract_calls, match_calls;
};

// Uneven, device-dependent work times, so units finish out of order.
void Pause(int device, int call) {
  std::this_thread::sleep_for(std::chrono::milliseconds((device * 7 + call * 5) % 13));
}

FeatureOptions SmallFeatures() {
  FeatureOptions options;
  options.device = ComputeDevice::kCpu;
  options.selection.max_features = 400;
  options.num_threads = 1;
  return options;
}

class FakeDeviceExtractor : public FeatureExtractor {
 public:
  FakeDeviceExtractor(int device, int fail_at, WorkLog* log)
      : device_(device), fail_at_(fail_at), log_(log), sift_(SmallFeatures()) {}
  FeatureSet Extract(const GrayImage& image) override {
    Pause(device_, ++calls_);
    FeatureSet features = sift_.Extract(image);
    if (log_->Call(device_, fail_at_, &log_->extracted, &log_->extract_calls)) throw LaunchFailure();
    return features;
  }
  int ConcurrentCalls() const override { return 1; }
  std::string Description() const override { return "fake device " + std::to_string(device_); }

 private:
  int device_;
  int fail_at_;
  WorkLog* log_;
  CpuSiftExtractor sift_;
  int calls_ = 0;
};

class FakeDeviceMatcher : public DescriptorMatcher {
 public:
  FakeDeviceMatcher(int device, int fail_at, WorkLog* log, const DescriptorMatchOptions& options)
      : device_(device), fail_at_(fail_at), log_(log), matcher_(options) {}
  using DescriptorMatcher::MatchPairs;
  std::vector<std::vector<FeatureMatch>> MatchPairs(const FeatureSetViews& features,
                                                    const std::vector<ImagePair>& pairs,
                                                    Progress* progress) override {
    Pause(device_, ++calls_);
    auto matches = matcher_.MatchPairs(features, pairs, progress);
    if (log_->Call(device_, fail_at_, &log_->matched, &log_->match_calls)) throw LaunchFailure();
    return matches;
  }
  std::string Description() const override { return "fake device " + std::to_string(device_); }

 private:
  int device_;
  int fail_at_;
  WorkLog* log_;
  CpuDescriptorMatcher matcher_;
  int calls_ = 0;
};

class MultiDeviceStages : public ::testing::Test {
 protected:
  // The scene of this test (each test its own folder: ctest runs tests in parallel).
  void SetUp() override {
    SetLogLevel(LogLevel::kWarning);
    images_dir_ = testing::MakeTempDir(std::string("multi_device_scene_") +
                                       ::testing::UnitTest::GetInstance()->current_test_info()->name());
    SyntheticSceneOptions scene;
    scene.num_images = 8;
    scene.width = 320;
    scene.height = 240;
    scene.focal_px = 275;
    scene.supersampling = 1;
    WriteSyntheticScene(scene, images_dir_);
  }

  // Extraction and matching of the scene with the given devices; `failing_device` fails its
  // `fail_at`-th extraction and its `fail_at`-th block of pairs. Returns the database path.
  std::string Run(const std::string& name, const std::vector<int>& devices, WorkLog* log,
                  int failing_device = -1, int fail_at = 0) {
    const std::string path = testing::MakeTempDir("multi_device_" + name) + "/database.db";
    auto fail = [&](int device) { return device == failing_device ? fail_at : 0; };
    DescriptorMatchOptions matching;
    matching.device = ComputeDevice::kCpu;
    matching.num_threads = 1;
    // Blocks of 4 images: the 28 pairs of the 8 images in 8 blocks.
    const testing::ExtractAndMatchCounts counts = testing::ExtractAndMatchAllPairs(
        images_dir_ + "/images", path, devices,
        [&](int device) { return std::make_unique<FakeDeviceExtractor>(device, fail(device), log); },
        [&](int device) { return std::make_unique<FakeDeviceMatcher>(device, fail(device), log, matching); },
        SmallFeatures(), matching, 4);
    EXPECT_EQ(counts.num_images, 8);
    EXPECT_EQ(counts.num_pairs, 28);
    EXPECT_GT(counts.num_matches, 0);
    return path;
  }

  std::string images_dir_;
};

int Sum(const std::map<int, int>& counts) {
  int sum = 0;
  for (const auto& [device, count] : counts) sum += count;
  return sum;
}

TEST_F(MultiDeviceStages, SeveralDevicesWriteTheDatabaseOneDeviceWrites) {
  WorkLog one_log;
  const std::string one = Run("one", {0}, &one_log);
  EXPECT_EQ(one_log.extracted[0], 8);
  WorkLog three_log;
  const std::string three = Run("three", {0, 1, 2}, &three_log);
  EXPECT_EQ(Sum(three_log.extracted), 8);
  EXPECT_EQ(Sum(three_log.matched), Sum(one_log.matched));
  EXPECT_GE(three_log.extracted.size(), 2u) << "4 decoding threads, 3 devices: work spreads";
  EXPECT_GE(three_log.matched.size(), 2u) << "3 workers, 8 blocks: work spreads";

  const std::vector<TableDigest> expected = DigestSceneDatabase(one);
  for (const char* table : {"images", "keypoints", "descriptors", "matches"}) {
    const auto digest = std::find_if(expected.begin(), expected.end(),
                                     [&](const TableDigest& d) { return d.table == table; });
    ASSERT_NE(digest, expected.end());
    EXPECT_GT(digest->rows.size(), 0u) << table;
  }
  EXPECT_EQ(CompareDigests(expected, DigestSceneDatabase(three)), "");
}

TEST_F(MultiDeviceStages, ADeviceFailingPartWayChangesNothingInTheDatabase) {
  WorkLog one_log;
  const std::string one = Run("reference", {0}, &one_log);
  CerrCapture capture;
  WorkLog log;
  // Free devices take turns, so device 1 gets the second image and a block, and fails on them.
  const std::string failed = Run("failed", {0, 1, 2}, &log, /*failing_device=*/1, /*fail_at=*/1);
  EXPECT_EQ(log.failures, 2);  // one image, one block
  EXPECT_EQ(log.extracted[1], 0);
  EXPECT_EQ(log.matched[1], 0);
  EXPECT_EQ(Sum(log.extracted), 8);
  EXPECT_NE(capture.text().find("feature extraction: GPU 1 failed (cudaErrorLaunchFailure"), std::string::npos)
      << capture.text();
  EXPECT_NE(capture.text().find("descriptor matching: GPU 1 failed"), std::string::npos) << capture.text();
  EXPECT_EQ(CompareDigests(DigestSceneDatabase(one), DigestSceneDatabase(failed)), "");
}

TEST_F(MultiDeviceStages, EveryDeviceFailingLeavesTheRestToTheCpuWithTheSameResults) {
  WorkLog one_log;
  const std::string one = Run("cpu_reference", {0}, &one_log);
  CerrCapture capture;
  WorkLog log;
  const std::string failed = Run("all_failed", {5}, &log, /*failing_device=*/5, /*fail_at=*/3);
  EXPECT_EQ(log.extracted[5], 2);
  EXPECT_EQ(log.matched[5], 2);
  EXPECT_NE(capture.text().find("feature extraction: the GPU failed"), std::string::npos) << capture.text();
  EXPECT_EQ(CompareDigests(DigestSceneDatabase(one), DigestSceneDatabase(failed)), "");
}

}  // namespace
}  // namespace proj
