// PatchMatch stereo on the CPU against the synthetic scene's true depth.
#include "mvs/patch_match.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <gtest/gtest.h>

#include "core/check.h"
#include "tests/mvs/synthetic_stereo.h"

namespace proj::mvs {
namespace {

PatchMatchProblem ProblemFor(const testing::SyntheticStereoSet& set, int reference, const std::vector<int>& sources) {
  PatchMatchProblem problem;
  problem.reference = &set.views[reference];
  for (int s : sources) problem.sources.push_back(&set.views[s]);
  float lo = 1e30f, hi = 0;
  for (float d : set.true_depths[reference].raster().data) {
    if (d <= 0) continue;
    lo = std::min(lo, d);
    hi = std::max(hi, d);
  }
  problem.depth_min = 0.7f * lo;
  problem.depth_max = 1.3f * hi;
  problem.image_seed = static_cast<uint32_t>(reference);
  return problem;
}

class PatchMatchCpuTest : public ::testing::Test {
 protected:
  // A ring of 24 views 15 degrees apart; the tests use view 0 and its neighbours.
  static void SetUpTestSuite() {
    set_ = new testing::SyntheticStereoSet(testing::MakeSyntheticStereoSet(24, 320, 240, {0, 1, 23, 2, 22}));
  }
  static void TearDownTestSuite() { delete set_; }
  static testing::SyntheticStereoSet* set_;
};
testing::SyntheticStereoSet* PatchMatchCpuTest::set_ = nullptr;

// Most confident pixels (cost below 0.5: mean ZNCC above 0.5 in the best views) are within 1%
// of the true depth, and most of the surface is confident. (At 320 px, 1% of the depth is
// under one pixel of disparity between views 15 degrees apart: a hard case.)
TEST_F(PatchMatchCpuTest, RecoversTheTrueDepth) {
  const PatchMatchProblem problem = ProblemFor(*set_, 0, {1, 2, 3, 4});
  PatchMatchOptions options;
  const PatchMatchResult result = RunPatchMatch(problem, options, ComputeDevice::kCpu);
  const auto confident = [&](int x, int y) { return result.cost.At(x, y) < 0.5f; };
  const testing::DepthAgreement agreement =
      testing::CompareDepths(result.depth, set_->true_depths[0], 0.01, confident);
  int surface = 0;
  for (float d : set_->true_depths[0].raster().data) surface += d > 0;
  const double confident_share = static_cast<double>(agreement.num_compared) / surface;
  std::printf("within 1%%: %.3f of %d confident pixels (%.3f of the surface)\n", agreement.share_within,
              agreement.num_compared, confident_share);
  EXPECT_GT(agreement.share_within, 0.8);
  EXPECT_GT(confident_share, 0.8);
}

// The result depends on neither the number of threads nor the run.
TEST_F(PatchMatchCpuTest, IsReproducible) {
  const PatchMatchProblem problem = ProblemFor(*set_, 1, {0, 3});
  PatchMatchOptions options;
  options.num_iterations = 2;
  const PatchMatchResult one = RunPatchMatch(problem, options, ComputeDevice::kCpu, 1);
  const PatchMatchResult two = RunPatchMatch(problem, options, ComputeDevice::kCpu, 2);
  EXPECT_EQ(one.depth.raster().data, two.depth.raster().data);
  EXPECT_EQ(one.normals.raster().data, two.normals.raster().data);
}

TEST(PatchMatchOptionsTest, RejectsBadValues) {
  PatchMatchOptions options;
  options.window_step = 9;
  EXPECT_THROW(options.Check(), InputError);
  options = PatchMatchOptions();
  options.top_k_views = 0;
  EXPECT_THROW(options.Check(), InputError);
}

}  // namespace
}  // namespace proj::mvs
