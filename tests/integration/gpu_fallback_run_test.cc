// A GPU failing during `sfm reconstruct --device gpu` (device memory capped by
// SFM_GPU_MEMORY_LIMIT_MB, or a launch failed by SFM_GPU_FAIL_AT_CALL): the run must finish,
// warn naming the stage and the CUDA error, and give the model of a CPU run within
// tolerance (on several GPUs the failed GPU's work goes to another). Skips without a GPU.
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cuda/device.h"
#include "tests/integration/sfm_process.h"
#include "tests/integration/small_scene.h"
#include "tests/support/test_data.h"

namespace proj {
namespace {

using testing::ReportNumber;

struct FaultCase {
  std::string variable;
  std::string value;
  std::string expected_warning;
};

TEST(GpuFallbackRun, GpuFailuresFallBackToTheCpuAndGiveTheCpuModel) {
  if (!cuda::DeviceAvailable()) GTEST_SKIP() << "no CUDA device: " << cuda::DeviceDescription();
  const std::string dir = testing::WriteSmallRingScene("gpu_fallback", 12);
  auto arguments = [&](const std::string& out, const std::string& device) {
    return std::vector<std::string>{"reconstruct", dir + "/images", "-o", out, "--device", device,
                                    "--seed", "3", "--max-features", "2048"};
  };
  ASSERT_EQ(testing::RunSfmToEnd(arguments(dir + "/cpu", "cpu"), dir + "/cpu.log"), 0)
      << testing::ReadTextFile(dir + "/cpu.log");
  const std::string cpu = testing::ReadTextFile(dir + "/cpu/report.json");
  ASSERT_EQ(ReportNumber(cpu, "registered_images"), 12);

  const std::vector<FaultCase> cases = {
      // With several GPUs the failed call's GPU is named and its work goes to another GPU.
      {"SFM_GPU_MEMORY_LIMIT_MB", "1", "failed (cudaErrorMemoryAllocation"},
      {"SFM_GPU_FAIL_AT_CALL", "300", "failed (cudaErrorLaunchFailure"},
  };
  for (const FaultCase& c : cases) {
    SCOPED_TRACE(c.variable + "=" + c.value);
    const std::string out = dir + "/" + c.variable + c.value;
    setenv(c.variable.c_str(), c.value.c_str(), 1);
    const int code = testing::RunSfmToEnd(arguments(out, "gpu"), out + ".log");
    unsetenv(c.variable.c_str());
    const std::string log = testing::ReadTextFile(out + ".log");
    ASSERT_EQ(code, 0) << log;
    EXPECT_NE(log.find(c.expected_warning), std::string::npos) << log;
    const std::string report = testing::ReadTextFile(out + "/report.json");
    EXPECT_EQ(ReportNumber(report, "registered_images"), 12);
    const double points = static_cast<double>(ReportNumber(report, "points"));
    const double cpu_points = static_cast<double>(ReportNumber(cpu, "points"));
    EXPECT_NEAR(points, cpu_points, 0.03 * cpu_points);
    const size_t warning = log.find(c.expected_warning);
    if (warning == std::string::npos) continue;
    std::cout << c.variable << "=" << c.value << ": " << ReportNumber(report, "points") << " points (cpu "
              << ReportNumber(cpu, "points") << "); "
              << log.substr(log.rfind('\n', warning) + 1, log.find('\n', warning) - log.rfind('\n', warning) - 1)
              << std::endl;
  }
}

}  // namespace
}  // namespace proj
