// Geometric-consistency filter and fusion (mvs/geometric_filter.h, mvs/fusion.h) on the true
// depth and normal maps of the synthetic ring (12 views, `sfm synth`'s scene), each view's
// sources its two ring neighbours on either side:
//  - filter: share of pixels kept, overall and among the pixels it can confirm (seen by two of
//    the sources by ray casting, normal not grazing; sampled every `--sample-step` pixels);
//  - fusion: points, views per point, distance to the true surfaces, time by thread count
//    (the clouds must be identical).
//
//   fusion_bench [--width 1280] [--height 960] [--threads 1,2] [--sample-step 4]
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "bench/bench_cli.h"
#include "core/timer.h"
#include "mvs/fusion.h"
#include "mvs/geometric_filter.h"
#include "tests/mvs/synthetic_truth.h"

namespace proj {
namespace {

struct Arguments {
  int width = 1280;
  int height = 960;
  std::vector<int> threads = {1, 2};
  int sample_step = 4;
};

int Run(const Arguments& arguments) {
  Timer timer;
  const testing::SyntheticTruth& truth = testing::SyntheticRingTruth(arguments.width, arguments.height);
  const int n = static_cast<int>(truth.views.size());
  std::printf("synthetic ring: %d views of %dx%d, true maps in %.1f s\n", n, arguments.width, arguments.height,
              timer.ElapsedSeconds());

  const mvs::GeometricFilterOptions filter_options;
  std::vector<mvs::FilteredDepthMap> filtered;
  for (int threads : arguments.threads) {
    filtered.clear();
    timer.Restart();
    const double cpu_start = ProcessCpuSeconds();
    for (int i = 0; i < n; ++i) {
      std::vector<mvs::SourceDepth> sources;
      for (int j : truth.neighbours[i]) sources.push_back({&truth.views[j], &truth.depths[j]});
      filtered.push_back(mvs::FilterDepthMap(truth.views[i], truth.depths[i], truth.normals[i], nullptr, sources,
                                             filter_options, threads));
    }
    std::printf("filter, %d thread(s): %.2f s (%.2f s CPU)\n", threads, timer.ElapsedSeconds(),
                ProcessCpuSeconds() - cpu_start);
  }
  int64_t input = 0, kept = 0, rejected_normal = 0, confirmable = 0, confirmable_kept = 0, other = 0,
          other_kept = 0;
  for (int i = 0; i < n; ++i) {
    input += filtered[i].counts.num_input;
    kept += filtered[i].counts.num_kept;
    rejected_normal += filtered[i].counts.num_rejected_normal;
    for (int y = 0; y < arguments.height; y += arguments.sample_step) {
      for (int x = 0; x < arguments.width; x += arguments.sample_step) {
        if (truth.depths[i].At(x, y) == 0) continue;
        const bool is_kept = filtered[i].depth.At(x, y) > 0;
        if (testing::ConfirmablePixel(truth, i, x, y, filter_options.min_consistent_views,
                                      filter_options.max_grazing_angle_deg)) {
          ++confirmable;
          confirmable_kept += is_kept;
        } else {
          ++other;
          other_kept += is_kept;
        }
      }
    }
  }
  std::printf("filter: %lld of %lld pixels with a depth kept (%.2f%%), %lld grazing\n",
              static_cast<long long>(kept), static_cast<long long>(input), 100.0 * kept / input,
              static_cast<long long>(rejected_normal));
  std::printf("filter (every %d px): confirmable %.2f%% of the pixels, kept %.2f%% of them; "
              "kept %.2f%% of the others\n",
              arguments.sample_step, 100.0 * confirmable / (confirmable + other),
              100.0 * confirmable_kept / confirmable, 100.0 * other_kept / std::max<int64_t>(other, 1));

  std::vector<mvs::FusionView> views;
  for (int i = 0; i < n; ++i) {
    views.push_back({&truth.views[i], &filtered[i].depth, &filtered[i].normals, nullptr, truth.neighbours[i]});
  }
  mvs::DenseCloud first;
  for (int threads : arguments.threads) {
    timer.Restart();
    const double cpu_start = ProcessCpuSeconds();
    mvs::DenseCloud cloud = mvs::FuseDepthMaps(views, mvs::FusionOptions(), threads);
    std::printf("fusion, %d thread(s): %.2f s (%.2f s CPU), %zu points\n", threads, timer.ElapsedSeconds(),
                ProcessCpuSeconds() - cpu_start, cloud.size());
    if (first.size() == 0) {
      first = std::move(cloud);
    } else if (cloud.positions != first.positions || cloud.colors != first.colors || cloud.normals != first.normals) {
      std::printf("ERROR: the cloud differs from the first thread count's\n");
      return 1;
    }
  }
  std::vector<int> views_histogram(8, 0);
  std::vector<double> distances;
  for (size_t i = 0; i < first.size(); ++i) ++views_histogram[std::min<int>(first.num_views[i], 7)];
  for (size_t i = 0; i < first.size(); i += 16) {
    distances.push_back(truth.world.DistanceToSurfaces(first.positions[i].cast<double>()));
  }
  std::sort(distances.begin(), distances.end());
  std::printf("fusion: %zu points from %lld filtered pixels; views per point:", first.size(),
              static_cast<long long>(kept));
  for (int v = 1; v < 8; ++v) std::printf(" %d: %d", v, views_histogram[v]);
  std::printf("\nfusion: distance to the true surfaces (every 16th point): median %.2e m, max %.2e m\n",
              distances[distances.size() / 2], distances.back());
  return 0;
}

}  // namespace
}  // namespace proj

int main(int argc, char** argv) {
  CLI::App app("Geometric filter and fusion on the synthetic ring's true depth maps");
  proj::Arguments arguments;
  app.add_option("--width", arguments.width, "Image width")->check(CLI::Range(64, 8192));
  app.add_option("--height", arguments.height, "Image height")->check(CLI::Range(48, 8192));
  app.add_option("--threads", arguments.threads, "Thread counts to time (comma separated)")->delimiter(',');
  app.add_option("--sample-step", arguments.sample_step, "Pixel step of the confirmable-pixel statistics")
      ->check(CLI::Range(1, 64));
  if (const auto code = proj::ParseBenchArguments(app, argc, argv)) return *code;
  return proj::RunBenchmark([&] { return proj::Run(arguments); });
}
