// PatchMatch stereo benchmark (issue 24): one depth map of the synthetic ring scene at a chosen
// size with N source views. GPU: device time of the sweeps per depth map from CUDA events
// (median over repeats after one warm-up run). CPU (--cpu-width): the CPU path on the same
// scene rendered at a smaller width, wall time, in the same call, so the ratio is measured
// on one machine. Both report the share of pixels within 1% of the true depth (cost < 0.5).
//
//   patch_match_bench [--width 3072] [--height 2048] [--sources 10] [--iterations 4]
//                     [--top-k 3] [--repeats 5] [--cpu-width 0] [--threads 0]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include "bench/bench_cli.h"
#include "core/parallel_for.h"
#include "cuda/device.h"
#include "mvs/patch_match.h"
#include "tests/mvs/synthetic_stereo.h"

namespace proj {
namespace {

struct Settings {
  int width = 3072, height = 2048;
  int sources = 10, iterations = 4, repeats = 5, top_k = mvs::PatchMatchOptions().top_k_views;
  int cpu_width = 0, threads = 0;
};

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

// The ring has 36 views (10 degrees apart): the reference is view 0, its sources the nearest
// views on both sides, alternating (1, 35, 2, 34, ...).
constexpr int kRingViews = 36;

testing::SyntheticStereoSet MakeSet(int width, int height, int num_sources) {
  std::vector<int> indices = {0};
  for (int k = 1; static_cast<int>(indices.size()) <= num_sources; ++k) {
    indices.push_back(k);
    if (static_cast<int>(indices.size()) <= num_sources) indices.push_back(kRingViews - k);
  }
  return testing::MakeSyntheticStereoSet(kRingViews, width, height, indices);
}

mvs::PatchMatchProblem MakeProblem(const testing::SyntheticStereoSet& set) {
  mvs::PatchMatchProblem problem;
  problem.reference = &set.views[0];
  for (size_t i = 1; i < set.views.size(); ++i) problem.sources.push_back(&set.views[i]);
  problem.depth_min = 4;
  problem.depth_max = 40;
  return problem;
}

double ShareWithinOnePercent(const mvs::PatchMatchResult& result, const mvs::DepthMap& truth) {
  return testing::CompareDepths(result.depth, truth, 0.01, [&](int x, int y) { return result.cost.At(x, y) < 0.5f; })
      .share_within;
}

int Run(const Settings& settings) {
  mvs::PatchMatchOptions options;
  options.num_iterations = settings.iterations;
  options.top_k_views = settings.top_k;
  if (cuda::DeviceAvailable()) {
    const testing::SyntheticStereoSet set = MakeSet(settings.width, settings.height, settings.sources);
    const mvs::PatchMatchProblem problem = MakeProblem(set);
    std::vector<double> sweep_ms, wall_ms;
    double accuracy = 0;
    for (int r = 0; r <= settings.repeats; ++r) {
      const auto start = std::chrono::steady_clock::now();
      const mvs::PatchMatchResult result = mvs::RunPatchMatch(problem, options, ComputeDevice::kGpu);
      const double wall = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
      if (r == 0) continue;  // warm-up
      sweep_ms.push_back(result.gpu_sweep_ms);
      wall_ms.push_back(wall);
      accuracy = ShareWithinOnePercent(result, set.true_depths[0]);
    }
    std::printf("gpu %s: %dx%d, %d sources, top %d, %d iterations: sweeps %.1f ms (median of %d), with upload and "
                "download %.1f ms; within 1%% of the truth: %.3f\n",
                cuda::DeviceDescription().c_str(), settings.width, settings.height, settings.sources,
                settings.top_k, settings.iterations, Median(sweep_ms), settings.repeats, Median(wall_ms), accuracy);
  } else {
    std::printf("gpu: not measured (%s)\n", cuda::DeviceDescription().c_str());
  }
  if (settings.cpu_width > 0) {
    const int cpu_height = settings.cpu_width * settings.height / settings.width;
    const testing::SyntheticStereoSet set = MakeSet(settings.cpu_width, cpu_height, settings.sources);
    const mvs::PatchMatchProblem problem = MakeProblem(set);
    const auto start = std::chrono::steady_clock::now();
    const mvs::PatchMatchResult result = mvs::RunPatchMatch(problem, options, ComputeDevice::kCpu, settings.threads);
    const double wall = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    std::printf("cpu (%d threads): %dx%d, %d sources: %.0f ms, %.2f Mpx/s; within 1%% of the truth: %.3f\n",
                ResolveNumThreads(settings.threads), settings.cpu_width, cpu_height, settings.sources, wall,
                settings.cpu_width * cpu_height / wall / 1e3, ShareWithinOnePercent(result, set.true_depths[0]));
  }
  return 0;
}

}  // namespace
}  // namespace proj

int main(int argc, char** argv) {
  proj::Settings settings;
  CLI::App app("PatchMatch stereo benchmark: one depth map of the synthetic ring scene");
  app.add_option("--width", settings.width, "Image width, px")->capture_default_str();
  app.add_option("--height", settings.height, "Image height, px")->capture_default_str();
  app.add_option("--sources", settings.sources, "Source views (1..16)")->capture_default_str();
  app.add_option("--iterations", settings.iterations, "Red-black sweeps")->capture_default_str();
  app.add_option("--top-k", settings.top_k, "Views averaged into a hypothesis' cost")->capture_default_str();
  app.add_option("--repeats", settings.repeats, "Timed GPU runs after one warm-up")->capture_default_str();
  app.add_option("--cpu-width", settings.cpu_width, "Also run the CPU path at this width (0: no)")
      ->capture_default_str();
  app.add_option("--threads", settings.threads, "CPU threads (0: all)")->capture_default_str();
  if (const auto code = proj::ParseBenchArguments(app, argc, argv)) return *code;
  return proj::RunBenchmark([&] { return proj::Run(settings); });
}
