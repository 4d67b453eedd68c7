// Extraction and matching on several GPUs (`--gpus`), on real devices. Skips without a GPU;
// the tests that need two GPUs skip with a message on a machine with one. On one GPU, two
// workers share device 0 (two SiftGpu / DescriptorMatcherGpu instances used concurrently),
// which runs the multi-GPU code path for real.
//   - GPU SIFT gives the same bytes on every run, instance and device (the premise of a
//     multi-GPU database equal to a one-GPU one);
//   - the stages give the database of one GPU, byte for byte, with two workers on one GPU,
//     with every GPU of the host, and with a GPU failing part-way.
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "core/check.h"
#include "core/logging.h"
#include "cuda/device.h"
#include "cuda/gpu_error.h"
#include "datasets/synthetic/synthetic_scene.h"
#include "features/image_preprocessing.h"
#include "features/sift/gpu_sift_extractor.h"
#include "matching/gpu_descriptor_matcher.h"
#include "sfm/database/database_digest.h"
#include "tests/sfm/stages/extract_and_match.h"
#include "tests/support/cerr_capture.h"
#include "tests/support/test_data.h"

namespace proj {
namespace {

#define PROJ_REQUIRE_GPU()                                                          \
  if (!cuda::DeviceAvailable()) {                                                   \
    GTEST_SKIP() << "no usable CUDA device (" << cuda::DeviceDescription() << ")"; \
  }

// Bitwise equality of two extractions (keypoint fields and descriptors).
bool SameBytes(const FeatureSet& a, const FeatureSet& b) {
  if (a.keypoints.size() != b.keypoints.size() || a.descriptors != b.descriptors) return false;
  for (size_t i = 0; i < a.keypoints.size(); ++i) {
    const Keypoint& p = a.keypoints[i];
    const Keypoint& q = b.keypoints[i];
    const float fp[] = {p.x, p.y, p.scale, p.orientation, p.response};
    const float fq[] = {q.x, q.y, q.scale, q.orientation, q.response};
    if (std::memcmp(fp, fq, sizeof(fp)) != 0 || p.octave != q.octave) return false;
  }
  return true;
}

FeatureOptions GpuFeatures(int max_features) {
  FeatureOptions options;
  options.device = ComputeDevice::kGpu;
  options.selection.max_features = max_features;
  return options;
}

TEST(SiftGpuDeterminism, SameImageSameBytesOnEveryRunInstanceAndDevice) {
  PROJ_REQUIRE_GPU();
  SyntheticSceneOptions scene;
  scene.num_images = 2;
  const std::vector<SyntheticView> views = RenderSyntheticScene(scene);  // 1280 x 960
  // 8192: every keypoint kept; 1000: the strongest, so ties at the cut matter.
  for (int max_features : {8192, 1000}) {
    for (const SyntheticView& view : views) {
      SCOPED_TRACE(view.name + ", max_features " + std::to_string(max_features));
      const GrayImage image = ToGrayImage(view.image);
      GpuSiftExtractor first(GpuFeatures(max_features), 0);
      const FeatureSet reference = first.Extract(image);
      ASSERT_GT(reference.size(), 500);
      for (int run = 0; run < 3; ++run) EXPECT_TRUE(SameBytes(first.Extract(image), reference)) << "run " << run;
      // Two instances on device 0 at once, then one instance per device.
      GpuSiftExtractor second(GpuFeatures(max_features), 0);
      FeatureSet concurrent;
      std::thread other([&] { concurrent = second.Extract(image); });
      const FeatureSet meanwhile = first.Extract(image);
      other.join();
      EXPECT_TRUE(SameBytes(concurrent, reference));
      EXPECT_TRUE(SameBytes(meanwhile, reference));
      for (int device = 1; device < cuda::DeviceCount(); ++device) {
        GpuSiftExtractor on_device(GpuFeatures(max_features), device);
        EXPECT_TRUE(SameBytes(on_device.Extract(image), reference)) << "device " << device;
      }
    }
  }
}

// A device's extractor or matcher that throws GpuError on its `fail_at`-th call.
class FailingExtractor : public FeatureExtractor {
 public:
  FailingExtractor(std::unique_ptr<FeatureExtractor> inner, int fail_at) : inner_(std::move(inner)), fail_at_(fail_at) {}
  FeatureSet Extract(const GrayImage& image) override {
    if (++calls_ == fail_at_) throw cuda::GpuError(2, "cudaErrorMemoryAllocation", "out of memory", "test", "here");
    return inner_->Extract(image);
  }
  int ConcurrentCalls() const override { return 1; }
  std::string Description() const override { return inner_->Description(); }

 private:
  std::unique_ptr<FeatureExtractor> inner_;
  int fail_at_;
  int calls_ = 0;
};

class FailingMatcher : public DescriptorMatcher {
 public:
  FailingMatcher(std::unique_ptr<DescriptorMatcher> inner, int fail_at) : inner_(std::move(inner)), fail_at_(fail_at) {}
  using DescriptorMatcher::MatchPairs;
  std::vector<std::vector<FeatureMatch>> MatchPairs(const FeatureSetViews& features, const std::vector<ImagePair>& pairs,
                                                    Progress* progress) override {
    if (++calls_ == fail_at_) throw cuda::GpuError(719, "cudaErrorLaunchFailure", "unspecified launch failure", "test", "here");
    return inner_->MatchPairs(features, pairs, progress);
  }
  std::string Description() const override { return inner_->Description(); }

 private:
  std::unique_ptr<DescriptorMatcher> inner_;
  int fail_at_;
  int calls_ = 0;
};

class MultiGpuStages : public ::testing::Test {
 protected:
  // The scene of this test (each test its own folder: ctest runs tests in parallel).
  void SetUp() override {
    if (!cuda::DeviceAvailable()) return;
    SetLogLevel(LogLevel::kWarning);
    images_dir_ = testing::MakeTempDir(std::string("multi_gpu_scene_") +
                                       ::testing::UnitTest::GetInstance()->current_test_info()->name());
    SyntheticSceneOptions scene;
    scene.num_images = 12;
    scene.width = 640;
    scene.height = 480;
    scene.focal_px = 550;
    WriteSyntheticScene(scene, images_dir_);
  }

  // Both stages on GPU workers for `devices` (a device may be listed twice: two workers on
  // it); the first worker made on `failing_device` fails its `fail_at`-th image and block.
  // Returns the database.
  std::string Run(const std::string& name, const std::vector<int>& devices, int failing_device = -1,
                         int fail_at = 0) {
    const std::string path = testing::MakeTempDir("multi_gpu_" + name) + "/database.db";
    const FeatureOptions features = GpuFeatures(2048);
    DescriptorMatchOptions matching;
    matching.device = ComputeDevice::kGpu;
    // Workers are made concurrently: the first one made on the device fails.
    std::atomic<int> extractors_made{0}, matchers_made{0};
    auto failing = [&](int device, std::atomic<int>* made) {
      return device == failing_device && (*made)++ == 0 ? fail_at : 0;
    };
    const testing::ExtractAndMatchCounts counts = testing::ExtractAndMatchAllPairs(
        images_dir_ + "/images", path, devices,
        [&](int device) -> std::unique_ptr<FeatureExtractor> {
          return std::make_unique<FailingExtractor>(std::make_unique<GpuSiftExtractor>(features, device),
                                                    failing(device, &extractors_made));
        },
        [&](int device) -> std::unique_ptr<DescriptorMatcher> {
          return std::make_unique<FailingMatcher>(CreateGpuDescriptorMatcher(matching, device),
                                                  failing(device, &matchers_made));
        },
        features, matching, 6);
    EXPECT_EQ(counts.num_images, 12);
    EXPECT_EQ(counts.num_pairs, 66);
    EXPECT_GT(counts.num_matches, 1000);
    return path;
  }

  std::string images_dir_;
};

TEST_F(MultiGpuStages, TwoWorkersOnOneGpuWriteTheDatabaseOfOne) {
  PROJ_REQUIRE_GPU();
  const std::string one = Run("one", {0});
  EXPECT_EQ(CompareDigests(DigestSceneDatabase(one), DigestSceneDatabase(Run("one_again", {0}))), "")
      << "one GPU, two runs";
  EXPECT_EQ(CompareDigests(DigestSceneDatabase(one), DigestSceneDatabase(Run("two_workers", {0, 0}))), "");
}

TEST_F(MultiGpuStages, AWorkerFailingPartWayChangesNothing) {
  PROJ_REQUIRE_GPU();
  const std::string one = Run("reference", {0});
  testing::CerrCapture capture;
  // A worker on the last device fails on its second image and its second block; its work
  // goes to the other worker.
  const std::vector<int> devices = cuda::DeviceCount() >= 2 ? std::vector<int>{0, 1} : std::vector<int>{0, 0};
  const std::string failed = Run("failing", devices, /*failing_device=*/devices[1], /*fail_at=*/2);
  EXPECT_NE(capture.text().find("feature extraction: GPU " + std::to_string(devices[1]) + " failed"),
            std::string::npos)
      << capture.text();
  EXPECT_EQ(CompareDigests(DigestSceneDatabase(one), DigestSceneDatabase(failed)), "");
}

TEST_F(MultiGpuStages, EveryGpuOfTheHostWritesTheDatabaseOfOne) {
  PROJ_REQUIRE_GPU();
  if (cuda::DeviceCount() < 2) GTEST_SKIP() << "needs 2 GPUs; this machine has 1 (" << cuda::DeviceDescription() << ")";
  std::vector<int> all;
  for (int device = 0; device < cuda::DeviceCount(); ++device) all.push_back(device);
  const std::string one = Run("gpu0", {0});
  EXPECT_EQ(CompareDigests(DigestSceneDatabase(one), DigestSceneDatabase(Run("all_gpus", all))), "");
}

TEST(MultiGpuFactories, AllGpusByDefaultOrTheSelectedOnes) {
  PROJ_REQUIRE_GPU();
  FeatureOptions features = GpuFeatures(1024);
  const std::string described = CreateFeatureExtractor(features)->Description();
  EXPECT_EQ(described.find(" on GPUs ") != std::string::npos, cuda::DeviceCount() >= 2) << described;
  features.gpus = ParseGpuSelection("1");
  EXPECT_EQ(CreateFeatureExtractor(features)->ConcurrentCalls(), 1);
  DescriptorMatchOptions matching;
  matching.device = ComputeDevice::kGpu;
  EXPECT_EQ(CreateDescriptorMatcher(matching)->ConcurrentCalls(), cuda::DeviceCount());
  matching.gpus = ParseGpuSelection(std::to_string(cuda::DeviceCount() + 1));
  EXPECT_THROW(CreateDescriptorMatcher(matching), InputError);
}

}  // namespace
}  // namespace proj
