// PatchMatch stereo on the GPU computes what the CPU path computes (STYLE P15): the same
// per-pixel functions, so the maps agree but for pixels where float rounding sent the random
// search another way. Skips without a usable GPU.
#include <gtest/gtest.h>

#include "cuda/device.h"
#include "mvs/patch_match.h"
#include "tests/mvs/synthetic_stereo.h"

namespace proj::mvs {
namespace {

TEST(PatchMatchGpu, AgreesWithTheCpuPath) {
  if (!cuda::DeviceAvailable()) {
    GTEST_SKIP() << "GPU PatchMatch not tested: no usable CUDA device (" << cuda::DeviceDescription() << ")";
  }
  const testing::SyntheticStereoSet set = testing::MakeSyntheticStereoSet(24, 320, 240);
  PatchMatchProblem problem;
  problem.reference = &set.views[0];
  for (int s : {1, 23, 2, 22}) problem.sources.push_back(&set.views[s]);
  problem.depth_min = 4;
  problem.depth_max = 40;
  problem.seeds = {{100, 100, set.true_depths[0].At(100, 100)}};
  const PatchMatchOptions options;
  const PatchMatchResult cpu = RunPatchMatch(problem, options, ComputeDevice::kCpu);
  const PatchMatchResult gpu = RunPatchMatch(problem, options, ComputeDevice::kGpu);
  const testing::DepthAgreement agreement =
      testing::CompareDepths(gpu.depth, cpu.depth, 0.005, [](int, int) { return true; });
  std::printf("GPU within 0.5%% of CPU: %.4f of %d pixels\n", agreement.share_within, agreement.num_compared);
  EXPECT_EQ(agreement.num_compared, 320 * 240);
  EXPECT_GT(agreement.share_within, 0.97);
  // And the GPU's depths are right where the CPU's are.
  const testing::DepthAgreement truth =
      testing::CompareDepths(gpu.depth, set.true_depths[0], 0.01, [&](int x, int y) { return gpu.cost.At(x, y) < 0.5f; });
  EXPECT_GT(truth.share_within, 0.8);
}

}  // namespace
}  // namespace proj::mvs
