// SIFT extraction benchmark (issue 3). GPU: device time per image from CUDA events (median
// over repeats after warm-up), for float and byte uploads, plus pipelined throughput
// (Enqueue/Retrieve with upload of the next image overlapping). CPU (--cpu): the project's
// CPU reference against OpenCV's SIFT on the same image and thread count (wall time).
//
//   sift_bench [--cpu THREADS] [--repeats N] IMAGE:MAX_FEATURES[:WIDTHxHEIGHT] ...  (--help)
// An optional size resamples the image (bilinear) first, e.g. drone.jpg:8192:1920x1080.
#include <opencv2/core.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bench/bench_cli.h"
#include "core/check.h"
#include "cuda/device.h"
#include "cuda/sift/sift_gpu.h"
#include "features/sift/gpu_sift_extractor.h"
#include "features/sift/scale_space.h"
#include "features/sift/sift_cpu.h"
#include "tests/features/sift_test_support.h"

namespace proj {
namespace {

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

double NowMs() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

GrayImage Resample(const GrayImage& in, int width, int height) {
  GrayImage out;
  out.width = width;
  out.height = height;
  out.pixels.resize(static_cast<size_t>(width) * height);
  for (int y = 0; y < height; ++y) {
    const float sy = std::clamp((y + 0.5f) * in.height / height - 0.5f, 0.0f, in.height - 1.0f);
    const int y0 = static_cast<int>(sy), y1 = std::min(y0 + 1, in.height - 1);
    for (int x = 0; x < width; ++x) {
      const float sx = std::clamp((x + 0.5f) * in.width / width - 0.5f, 0.0f, in.width - 1.0f);
      const int x0 = static_cast<int>(sx), x1 = std::min(x0 + 1, in.width - 1);
      const float fx = sx - x0, fy = sy - y0;
      out.pixels[static_cast<size_t>(y) * width + x] =
          (1 - fy) * ((1 - fx) * in.at(x0, y0) + fx * in.at(x1, y0)) + fy * ((1 - fx) * in.at(x0, y1) + fx * in.at(x1, y1));
    }
  }
  return out;
}

struct Case {
  std::string label;
  GrayImage image;
  int max_features = 8192;
};

void BenchGpu(const Case& c, int repeats) {
  FeatureOptions options;
  options.selection.max_features = c.max_features;
  SiftParams params = MakeSiftParams(options, c.image.width, c.image.height);
  cuda::SiftGpu sift(MakeSiftGpuOptions(params, options));
  std::vector<uint8_t> bytes(c.image.pixels.size());
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<uint8_t>(std::lround(c.image.pixels[i] * 255));
  const cuda::ImageView floats{c.image.pixels.data(), nullptr, c.image.width, c.image.height};
  const cuda::ImageView byte_view{nullptr, bytes.data(), c.image.width, c.image.height};
  for (const auto& [name, view] : {std::make_pair("float", floats), std::make_pair("uint8", byte_view)}) {
    std::vector<double> device_ms, pyramid, select, describe, upload, wall;
    size_t count = 0;
    for (int r = 0; r < repeats + 3; ++r) {
      const double t0 = NowMs();
      const cuda::SiftGpuResult result = sift.Extract(view);
      const double t1 = NowMs();
      if (r < 3) continue;  // warm-up
      const cuda::SiftGpuTimings& t = sift.last_timings();
      count = result.keypoints.size();
      device_ms.push_back(t.pyramid_ms + t.select_ms + t.describe_ms);
      pyramid.push_back(t.pyramid_ms);
      select.push_back(t.select_ms);
      describe.push_back(t.describe_ms);
      upload.push_back(t.upload_ms);
      wall.push_back(t1 - t0);
    }
    std::printf("gpu %-28s %4dx%-4d %5s upload: %6zu features | device %.3f ms (pyramid+detect %.3f, "
                "select+orient %.3f, describe+copy %.3f) | upload %.3f ms | wall %.3f ms\n",
                c.label.c_str(), c.image.width, c.image.height, name, count, Median(device_ms),
                Median(pyramid), Median(select), Median(describe), Median(upload), Median(wall));
  }
  // Pipelined: upload of image k + 1 overlaps processing of image k.
  const int n = repeats;
  sift.Enqueue(byte_view);
  const double t0 = NowMs();
  for (int k = 0; k < n; ++k) {
    if (k + 1 < n) sift.Enqueue(byte_view);
    sift.Retrieve();
  }
  const double per_image = (NowMs() - t0) / n;
  std::printf("gpu %-28s pipelined uint8 stream: %.3f ms per image (wall, incl. host copies)\n",
              c.label.c_str(), per_image);
}

void BenchCpu(const Case& c, int threads, int repeats) {
  FeatureOptions options;
  options.selection.max_features = c.max_features;
  const SiftParams params = MakeSiftParams(options, c.image.width, c.image.height);
  cv::setNumThreads(threads);
  std::vector<double> ours, opencv;
  int n_ours = 0, n_opencv = 0;
  for (int r = 0; r < repeats + 1; ++r) {
    double t0 = NowMs();
    n_ours = ExtractSiftCpu(c.image, params, GaussianLevelSmoother(), threads).size();
    double t1 = NowMs();
    n_opencv = testing::ExtractOpenCvSift(c.image, c.max_features).size();
    double t2 = NowMs();
    if (r == 0) continue;
    ours.push_back(t1 - t0);
    opencv.push_back(t2 - t1);
  }
  std::printf("cpu %-28s %4dx%-4d %d threads: ours %.0f ms (%d features) | opencv %.0f ms (%d features)\n",
              c.label.c_str(), c.image.width, c.image.height, threads, Median(ours), n_ours,
              Median(opencv), n_opencv);
}

// IMAGE:MAX_FEATURES[:WIDTHxHEIGHT] as a case.
Case ParseCase(const std::string& spec) {
  const size_t colon = spec.find(':');
  Case c;
  const std::string path = spec.substr(0, colon);
  const std::string rest = colon == std::string::npos ? "" : spec.substr(colon + 1);
  const size_t colon2 = rest.find(':');
  c.max_features = rest.empty() ? 8192 : std::atoi(rest.substr(0, colon2).c_str());
  PROJ_REQUIRE(c.max_features > 0, "'" << spec << "': MAX_FEATURES must be a positive number");
  c.image = testing::LoadGrayJpeg(path);
  c.label = path.substr(path.find_last_of('/') + 1);
  if (colon2 != std::string::npos) {
    int w = 0, h = 0;
    PROJ_REQUIRE(std::sscanf(rest.substr(colon2 + 1).c_str(), "%dx%d", &w, &h) == 2 && w > 0 && h > 0,
                 "'" << spec << "': the size must read WIDTHxHEIGHT, e.g. 1920x1080");
    c.image = Resample(c.image, w, h);
    c.label += "@" + std::to_string(w) + "x" + std::to_string(h);
  }
  return c;
}

int Main(int argc, char** argv) {
  CLI::App app{"SIFT extraction benchmark: GPU device time per image (CUDA events), or with --cpu "
               "the CPU reference against OpenCV's SIFT"};
  int cpu_threads = 0, repeats = 20;
  std::vector<std::string> specs;
  app.add_option("--cpu", cpu_threads,
                 "Time the CPU reference and OpenCV with this many threads instead of the GPU; "
                 "0 = GPU")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  app.add_option("--repeats", repeats, "Timed repeats per image (median; at most 3 on the CPU)")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  app.add_option("CASES", specs,
                 "IMAGE:MAX_FEATURES[:WIDTHxHEIGHT] (JPEG; MAX_FEATURES 8192 when left out; a "
                 "size resamples the image first)")
      ->required();
  if (const auto exit_code = ParseBenchArguments(app, argc, argv)) return *exit_code;
  std::vector<Case> cases;
  for (const std::string& spec : specs) cases.push_back(ParseCase(spec));
  if (cpu_threads > 0) {
    for (const Case& c : cases) BenchCpu(c, cpu_threads, std::max(1, std::min(repeats, 3)));
    return 0;
  }
  if (!cuda::DeviceAvailable()) {
    std::printf("no CUDA device (%s): GPU benchmark skipped\n", cuda::DeviceDescription().c_str());
    return 0;
  }
  std::printf("device: %s\n", cuda::DeviceDescription().c_str());
  for (const Case& c : cases) BenchGpu(c, repeats);
  return 0;
}

}  // namespace
}  // namespace proj

int main(int argc, char** argv) {
  return proj::RunBenchmark([&] { return proj::Main(argc, argv); });
}
