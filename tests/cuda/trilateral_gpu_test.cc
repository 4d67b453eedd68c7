// GPU trilateral filter against the float CPU reference (spec §5.4, §6): gx, gy, g, sigma_r
// and L bit-identical; smoothed gradients and output within 1e-5 of the range.
#include "cuda/trilateral/trilateral_gpu.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "core/check.h"
#include "cuda/device.h"
#include "features/trilateral/trilateral_filter.h"

namespace proj {
namespace {

#define PROJ_REQUIRE_GPU()                                                          \
  if (!cuda::DeviceAvailable()) {                                                   \
    GTEST_SKIP() << "no usable CUDA device: " << cuda::DeviceDescription();          \
  }

// Photo-like test image in [0, 1]: smooth shading, a few flat blocks with sharp edges, a thin
// line and mild noise (fixed seed).
std::vector<float> SceneImage(int width, int height, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<float> noise(0.f, 0.004f);
  std::vector<float> image(static_cast<size_t>(width) * height);
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      float v = 0.3f + 0.2f * std::sin(0.03f * x) * std::cos(0.02f * y) + 0.0005f * (x + y);
      if (x > width / 5 && x < width / 2 && y > height / 4 && y < 3 * height / 4) v += 0.35f;
      if ((x - 3 * width / 4) * (x - 3 * width / 4) + (y - height / 3) * (y - height / 3) <
          (height / 6) * (height / 6)) {
        v -= 0.2f;
      }
      if (std::abs(x - y / 2 - width / 3) < 1) v += 0.25f;
      image[static_cast<size_t>(y) * width + x] = v + noise(rng);
    }
  }
  return image;
}

TrilateralOptions CpuOptions(const cuda::TrilateralGpuOptions& gpu) {
  TrilateralOptions cpu;
  cpu.sigma_c = gpu.sigma_c;
  cpu.beta = gpu.beta;
  cpu.sigma_r_override = gpu.sigma_r_override;
  cpu.level_max_override = gpu.level_max_override;
  cpu.trunc_radius = gpu.trunc_radius;
  cpu.constant_guard = gpu.constant_guard;
  return cpu;
}

double Range(const std::vector<float>& v) {
  const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
  return static_cast<double>(*hi) - *lo;
}

// NaN anywhere (in either) gives NaN, which fails every EXPECT_LE (std::max alone skips it).
double MaxAbsDifference(const std::vector<float>& a, const std::vector<float>& b) {
  double worst = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    const double difference = std::abs(static_cast<double>(a[i]) - b[i]);
    if (std::isnan(difference)) return NAN;
    worst = std::max(worst, difference);
  }
  return worst;
}

// Runs both paths and checks every intermediate. Returns max |out_gpu - out_cpu| / range.
double CompareWithCpu(cuda::TrilateralFilterGpu& gpu, const std::vector<float>& image, int width,
                      int height, const cuda::TrilateralGpuOptions& options,
                      double output_tolerance = 1e-5) {
  TrilateralIntermediates<float> cpu_state;
  const std::vector<float> cpu_out =
      TrilateralFilter(image.data(), width, height, CpuOptions(options), &cpu_state);
  std::vector<float> gpu_out(image.size());
  gpu.Filter(image.data(), width, height, options, gpu_out.data());
  const cuda::TrilateralGpuDiagnostics gpu_state = gpu.LastDiagnostics();
  EXPECT_EQ(gpu_state.level_max, cpu_state.level_max);
  EXPECT_EQ(gpu_state.sigma_r, cpu_state.sigma_r);
  EXPECT_EQ(gpu_state.gx, cpu_state.gx);
  EXPECT_EQ(gpu_state.gy, cpu_state.gy);
  EXPECT_EQ(gpu_state.g, cpu_state.g);
  EXPECT_EQ(gpu_state.level, cpu_state.level);
  // The detail step's order: a stable sort of the pixels by level (largest first for the
  // optimised method), and the level histogram.
  std::vector<int> expected_order(image.size());
  for (size_t p = 0; p < image.size(); ++p) expected_order[p] = static_cast<int>(p);
  const bool descending = options.method == cuda::TrilateralGpuMethod::kOptimized;
  std::stable_sort(expected_order.begin(), expected_order.end(), [&](int a, int b) {
    return descending ? cpu_state.level[a] > cpu_state.level[b] : cpu_state.level[a] < cpu_state.level[b];
  });
  EXPECT_EQ(gpu_state.order, expected_order);
  std::vector<unsigned int> histogram(32, 0);
  for (uint8_t l : cpu_state.level) ++histogram[l];
  EXPECT_EQ(gpu_state.level_counts, histogram);
  // The disk-limited kernels receive the plan's disk and compute the same one on the device.
  const bool disk_kernel = options.method == cuda::TrilateralGpuMethod::kOptimized &&
                           options.detail_schedule != cuda::TrilateralDetailSchedule::kFullWindow;
  if (disk_kernel) {
    EXPECT_GE(gpu_state.plan_disk_rows, 0);
    EXPECT_EQ(gpu_state.detail_disk_echo,
              (std::vector<long long>{gpu_state.plan_disk_cut, gpu_state.plan_disk_rows,
                                      gpu_state.detail_disk_echo[2], gpu_state.detail_disk_echo[3]}));
    EXPECT_GE(gpu_state.detail_disk_echo[2], gpu_state.plan_disk_cut);
    EXPECT_GE(gpu_state.detail_disk_echo[3], gpu_state.plan_disk_rows);
  }
  const double gradient_range = std::max(Range(cpu_state.gx), Range(cpu_state.gy));
  EXPECT_LE(MaxAbsDifference(gpu_state.smoothed_gx, cpu_state.smoothed_gx), 1e-5 * gradient_range);
  EXPECT_LE(MaxAbsDifference(gpu_state.smoothed_gy, cpu_state.smoothed_gy), 1e-5 * gradient_range);
  const double error = MaxAbsDifference(gpu_out, cpu_out) / Range(image);
  EXPECT_LE(error, output_tolerance);
  return error;
}

// The published method and every detail schedule of the optimised one.
struct Config {
  const char* name;
  cuda::TrilateralGpuMethod method;
  cuda::TrilateralDetailSchedule schedule;
};
const Config kConfigs[] = {
    {"published", cuda::TrilateralGpuMethod::kPublished, cuda::TrilateralDetailSchedule::kWarpAndThread},
    {"optimised warp+thread", cuda::TrilateralGpuMethod::kOptimized, cuda::TrilateralDetailSchedule::kWarpAndThread},
    {"optimised thread per pixel", cuda::TrilateralGpuMethod::kOptimized, cuda::TrilateralDetailSchedule::kThreadPerPixel},
    {"optimised pipeline, full-window kernel", cuda::TrilateralGpuMethod::kOptimized, cuda::TrilateralDetailSchedule::kFullWindow}};

TEST(TrilateralGpu, WorkedExampleMatchesCpu) {
  PROJ_REQUIRE_GPU();
  std::vector<float> image(64);
  for (int y = 0; y < 8; ++y) {
    for (int x = 0; x < 8; ++x) image[y * 8 + x] = x <= 3 ? 10.f : 50.f;
  }
  image[2 * 8 + 2] = 14.f;
  cuda::TrilateralFilterGpu gpu;
  for (const Config& config : kConfigs) {
    SCOPED_TRACE(config.name);
    cuda::TrilateralGpuOptions options;
    options.method = config.method;
    options.detail_schedule = config.schedule;
    CompareWithCpu(gpu, image, 8, 8, options);
    std::vector<float> out(64);
    gpu.Filter(image.data(), 8, 8, options, out.data());
    EXPECT_NEAR(out[0], 10.2769023f, 1e-4f);
    EXPECT_NEAR(out[1], 9.7448245f, 1e-4f);
    EXPECT_EQ(out[2 * 8 + 2], 14.f);
  }
}

TEST(TrilateralGpu, BothMethodsMatchCpuOnSceneImages) {
  PROJ_REQUIRE_GPU();
  cuda::TrilateralFilterGpu gpu;
  struct Case { int width, height; double sigma_c; };
  const Case cases[] = {{96, 80, 3.0}, {257, 131, 1.6}, {200, 200, 5.0}, {160, 160, 1.0}, {33, 300, 3.0}};
  for (const Case& c : cases) {
    const std::vector<float> image = SceneImage(c.width, c.height, 17);
    for (const Config& config : kConfigs) {
      cuda::TrilateralGpuOptions options;
      options.sigma_c = c.sigma_c;
      options.method = config.method;
      options.detail_schedule = config.schedule;
      SCOPED_TRACE(::testing::Message() << c.width << "x" << c.height << " sigma_c " << c.sigma_c
                                      << " " << config.name);
      CompareWithCpu(gpu, image, c.width, c.height, options);
    }
  }
}

TEST(TrilateralGpu, LargeWindowsUseTheExactDiskCut) {
  PROJ_REQUIRE_GPU();
  // Smooth 320x240 image: most pixels reach large levels (r = 64 > 14.4 sigma_c = 43).
  const int width = 320, height = 240;
  std::vector<float> image(static_cast<size_t>(width) * height);
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) image[y * width + x] = 100.f + 20.f * std::sin(0.02f * x + 0.01f * y);
  }
  image[120 * width + 160] += 30.f;  // one hot pixel sets sigma_r
  cuda::TrilateralFilterGpu gpu;
  for (const Config& config : kConfigs) {
    SCOPED_TRACE(config.name);
    cuda::TrilateralGpuOptions options;
    options.method = config.method;
    options.detail_schedule = config.schedule;
    CompareWithCpu(gpu, image, width, height, options);
    const cuda::TrilateralGpuDiagnostics state = gpu.LastDiagnostics();
    EXPECT_GE(*std::max_element(state.level.begin(), state.level.end()), 7);
    options.trunc_radius = 10;
    CompareWithCpu(gpu, image, width, height, options);
  }
}

// Every kernel and template of the filter on one small image (the compute-sanitizer selection
// of scripts/gpu_sanitize.sh): all methods and schedules, exact and fast math. The smooth
// shading lets pixels reach levels >= 4, which the warp path of the optimised detail kernel
// takes, next to the edges' small levels, which its thread path takes.
TEST(TrilateralGpu, SmallImageRunsEveryKernelAndMatchesCpu) {
  PROJ_REQUIRE_GPU();
  const int width = 64, height = 48;
  std::vector<float> image(static_cast<size_t>(width) * height);
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      image[y * width + x] = 0.4f + 0.1f * std::sin(0.07f * x + 0.05f * y) + (x > 40 && y > 30 ? 0.3f : 0.f);
    }
  }
  cuda::TrilateralFilterGpu gpu;
  for (const bool fast_math : {false, true}) {
    for (const Config& config : kConfigs) {
      if (fast_math && config.method == cuda::TrilateralGpuMethod::kPublished) continue;
      SCOPED_TRACE(::testing::Message() << config.name << (fast_math ? ", fast math" : ""));
      cuda::TrilateralGpuOptions options;
      options.method = config.method;
      options.detail_schedule = config.schedule;
      options.fast_math = fast_math;
      CompareWithCpu(gpu, image, width, height, options, fast_math ? 1e-4 : 1e-5);
      const cuda::TrilateralGpuDiagnostics state = gpu.LastDiagnostics();
      EXPECT_GE(*std::max_element(state.level.begin(), state.level.end()), 4);
      EXPECT_LT(*std::min_element(state.level.begin(), state.level.end()), 4);
    }
  }
}

TEST(TrilateralGpu, FastMathErrorIsSmall) {
  PROJ_REQUIRE_GPU();
  const std::vector<float> image = SceneImage(256, 192, 5);
  cuda::TrilateralFilterGpu gpu;
  cuda::TrilateralGpuOptions options;
  options.method = cuda::TrilateralGpuMethod::kOptimized;  // fast math exists only there
  options.fast_math = true;
  const double error = CompareWithCpu(gpu, image, 256, 192, options, 1e-4);
  RecordProperty("fast_math_max_error_over_range", std::to_string(error));
}

TEST(TrilateralGpu, ConstantImageAndGuard) {
  PROJ_REQUIRE_GPU();
  const std::vector<float> image(50 * 40, 0.5f);
  cuda::TrilateralFilterGpu gpu;
  cuda::TrilateralGpuOptions options;
  std::vector<float> out(image.size());
  gpu.Filter(image.data(), 50, 40, options, out.data());
  EXPECT_EQ(out, image);
  options.constant_guard = false;
  gpu.Filter(image.data(), 50, 40, options, out.data());
  for (float v : out) ASSERT_TRUE(std::isnan(v));
}

TEST(TrilateralGpu, BuffersAreReusedAcrossSizes) {
  PROJ_REQUIRE_GPU();
  cuda::TrilateralFilterGpu gpu;
  cuda::TrilateralGpuOptions options;
  const std::vector<float> big = SceneImage(300, 200, 1);
  const std::vector<float> small = SceneImage(40, 70, 2);
  std::vector<float> first(big.size()), again(big.size()), small_out(small.size());
  gpu.Filter(big.data(), 300, 200, options, first.data());
  CompareWithCpu(gpu, small, 40, 70, options);
  gpu.Filter(big.data(), 300, 200, options, again.data());
  EXPECT_EQ(first, again);  // deterministic: no atomics in the sums
}

TEST(TrilateralGpu, RejectsBadOptions) {
  cuda::TrilateralGpuOptions options;
  options.sigma_c = -1;
  EXPECT_THROW(options.Check(), InputError);
  options = cuda::TrilateralGpuOptions();
  options.method = cuda::TrilateralGpuMethod::kPublished;
  options.fast_math = true;
  EXPECT_THROW(options.Check(), InputError);
}

}  // namespace
}  // namespace proj
