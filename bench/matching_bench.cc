// GPU descriptor matching benchmark (issue 3): RootSIFT FP16, ratio test 0.8 and cross-check,
// device time from CUDA events (median over repeats after warm-up), including the copy of
// the match lists back to the host. Descriptors come from the GPU SIFT of real images.
//
//   matching_bench [--repeats N] IMAGE1 IMAGE2 MAX_FEATURES [IMAGE1 IMAGE2 MAX_FEATURES ...]  (--help)
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bench/bench_cli.h"
#include "core/check.h"
#include "cuda/device.h"
#include "cuda/matching/descriptor_matcher_gpu.h"
#include "cuda/sift/sift_gpu.h"
#include "tests/features/sift_test_support.h"

namespace proj {
namespace {

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

cuda::SiftGpuResult Extract(const std::string& path, int max_features) {
  const GrayImage image = testing::LoadGrayJpeg(path);
  cuda::SiftGpuOptions options;
  options.selection.max_features = max_features;
  cuda::SiftGpu sift(options);
  return sift.Extract({image.pixels.data(), nullptr, image.width, image.height});
}

int Main(int argc, char** argv) {
  CLI::App app{"GPU descriptor matching benchmark (RootSIFT FP16, ratio test 0.8, cross-check)"};
  int repeats = 20;
  std::vector<std::string> args;
  app.add_option("--repeats", repeats, "Timed repeats per pair (median)")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  app.add_option("CASES", args, "IMAGE1 IMAGE2 MAX_FEATURES, repeated (JPEG images)")->required();
  if (const auto exit_code = ParseBenchArguments(app, argc, argv)) return *exit_code;
  PROJ_REQUIRE(args.size() % 3 == 0, "cases are triples IMAGE1 IMAGE2 MAX_FEATURES; got "
                                         << args.size() << " values");
  if (!cuda::DeviceAvailable()) {
    std::printf("no CUDA device (%s): matching benchmark skipped\n", cuda::DeviceDescription().c_str());
    return 0;
  }
  std::printf("device: %s\n", cuda::DeviceDescription().c_str());
  for (size_t a = 0; a + 3 <= args.size(); a += 3) {
    const int max_features = std::atoi(args[a + 2].c_str());
    const cuda::SiftGpuResult f1 = Extract(args[a], max_features);
    const cuda::SiftGpuResult f2 = Extract(args[a + 1], max_features);
    const int n1 = static_cast<int>(f1.keypoints.size()), n2 = static_cast<int>(f2.keypoints.size());
    cuda::DescriptorMatcherGpu matcher;
    const int s1 = matcher.AddDescriptors(f1.descriptors.data(), n1);
    const int s2 = matcher.AddDescriptors(f2.descriptors.data(), n2);
    // One pair.
    std::vector<double> ms;
    size_t matches = 0;
    for (int r = 0; r < repeats + 3; ++r) {
      const auto result = matcher.MatchPairs({{s1, s2}}, cuda::GpuMatchOptions{});
      if (r < 3) continue;
      ms.push_back(matcher.last_timings().match_ms);
      matches = result[0].size();
    }
    std::printf("match %d x %d: %.3f ms (median of %d, %zu matches after ratio 0.8 + cross-check)\n",
                n1, n2, Median(ms), repeats, matches);
    // One image against a batch of 16 (same sets repeated), one launch.
    std::vector<std::pair<int, int>> batch(16, {s1, s2});
    ms.clear();
    for (int r = 0; r < std::max(3, repeats / 4) + 1; ++r) {
      matcher.MatchPairs(batch, cuda::GpuMatchOptions{});
      if (r > 0) ms.push_back(matcher.last_timings().match_ms);
    }
    std::printf("match %d x %d, batch of 16 pairs: %.3f ms per pair\n", n1, n2, Median(ms) / 16);
  }
  return 0;
}

}  // namespace
}  // namespace proj

int main(int argc, char** argv) {
  return proj::RunBenchmark([&] { return proj::Main(argc, argv); });
}
