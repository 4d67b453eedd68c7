// The GPU failure policy without a GPU: GpuFallback and GpuWithCpuFallback driven by fake
// GPU work that throws GpuError, and the test hooks' bookkeeping (memory budget, failing
// call counter, environment parsing).
#include "cuda/gpu_fallback.h"

#include <cstdlib>
#include <iostream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "cuda/gpu_fault_hooks.h"
#include "tests/support/cerr_capture.h"

namespace proj::cuda {
namespace {

using proj::testing::CerrCapture;

GpuError OutOfMemory() {
  return GpuError(2, "cudaErrorMemoryAllocation", "out of memory", "cudaMalloc(&data, bytes)", "x.cu:1");
}

size_t Count(const std::string& text, const std::string& what) {
  size_t count = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++count;
  return count;
}

TEST(GpuFallback, FailedUnitAndEveryLaterOneRunOnTheCpuWithOneWarning) {
  CerrCapture capture;
  GpuFallback fallback("feature extraction");
  int gpu_calls = 0;
  std::vector<std::string> results;
  for (int unit = 0; unit < 5; ++unit) {
    results.push_back(fallback.Run(
        [&] {
          ++gpu_calls;
          if (unit == 2) throw OutOfMemory();
          return "gpu" + std::to_string(unit);
        },
        [&] { return "cpu" + std::to_string(unit); }));
  }
  EXPECT_EQ(results, (std::vector<std::string>{"gpu0", "gpu1", "cpu2", "cpu3", "cpu4"}));
  EXPECT_EQ(gpu_calls, 3);  // none after the failure
  EXPECT_FALSE(fallback.using_gpu());
  EXPECT_EQ(fallback.num_failures(), 1);
  const std::string log = capture.text();
  EXPECT_EQ(Count(log, "warning: feature extraction: the GPU failed (cudaErrorMemoryAllocation: "
                       "out of memory)"),
            1u)
      << log;
}

TEST(GpuFallback, OtherErrorsAreNotTurnedIntoAFallback) {
  GpuFallback fallback("descriptor matching");
  EXPECT_THROW(fallback.Run([]() -> int { throw std::runtime_error("bad input"); }, [] { return 1; }),
               std::runtime_error);
  EXPECT_TRUE(fallback.using_gpu());
}

TEST(GpuFallback, StartedOnTheCpuNeverTriesTheGpu) {
  GpuFallback fallback("KLT tracking", /*use_gpu=*/false);
  EXPECT_EQ(fallback.Run([]() -> int { throw std::logic_error("GPU work ran"); }, [] { return 7; }), 7);
  EXPECT_EQ(fallback.num_failures(), 0);
}

struct Worker {
  virtual ~Worker() = default;
  virtual std::string Work(int unit) = 0;
};

struct FakeGpuWorker : Worker {
  explicit FakeGpuWorker(int fail_at) : fail_at(fail_at) {}
  std::string Work(int unit) override {
    if (unit == fail_at) throw OutOfMemory();
    return "gpu";
  }
  int fail_at;
};

struct CpuWorker : Worker {
  std::string Work(int) override { return "cpu"; }
};

TEST(GpuWithCpuFallback, MakesTheCpuImplementationOnlyWhenTheGpuFails) {
  CerrCapture capture;
  int cpu_made = 0;
  GpuWithCpuFallback<Worker> workers(
      "stage", [] { return std::make_unique<FakeGpuWorker>(1); },
      [&] {
        ++cpu_made;
        return std::make_unique<CpuWorker>();
      });
  auto work = [](int unit) { return [unit](Worker& worker) { return worker.Work(unit); }; };
  EXPECT_EQ(workers.Run(work(0)), "gpu");
  EXPECT_EQ(cpu_made, 0);
  EXPECT_EQ(workers.Run(work(1)), "cpu");
  EXPECT_EQ(workers.Run(work(2)), "cpu");
  EXPECT_EQ(cpu_made, 1);
  EXPECT_EQ(workers.Current().Work(0), "cpu");
}

TEST(GpuWithCpuFallback, GpuFailingWhileMadeStartsOnTheCpu) {
  CerrCapture capture;
  GpuWithCpuFallback<Worker> workers(
      "stage", []() -> std::unique_ptr<Worker> { throw OutOfMemory(); },
      [] { return std::make_unique<CpuWorker>(); });
  EXPECT_FALSE(workers.fallback().using_gpu());
  EXPECT_EQ(workers.Run([](Worker& worker) { return worker.Work(0); }), "cpu");
  EXPECT_NE(capture.text().find("stage: the GPU failed"), std::string::npos);
}

TEST(GpuWithCpuFallback, SeparateWorkForEachDevice) {
  CerrCapture capture;
  GpuWithCpuFallback<Worker> workers(
      "stage", [] { return std::make_unique<FakeGpuWorker>(0); },
      [] { return std::make_unique<CpuWorker>(); });
  std::string ran;
  workers.Run([&](Worker& gpu) { ran = "gpu:" + gpu.Work(0); return 0; },
              [&](Worker& cpu) { ran = "cpu:" + cpu.Work(0); return 0; });
  EXPECT_EQ(ran, "cpu:cpu");
}

TEST(GpuMemoryBudget, RefusesAllocationsPastTheLimit) {
  GpuMemoryBudget budget(1000);
  EXPECT_TRUE(budget.Reserve(600));
  EXPECT_FALSE(budget.Reserve(500));
  EXPECT_EQ(budget.in_use(), 600u);
  EXPECT_TRUE(budget.Reserve(400));
  budget.Release(600);
  EXPECT_TRUE(budget.Reserve(500));
  EXPECT_EQ(budget.in_use(), 900u);
}

TEST(GpuMemoryBudget, NoLimitAcceptsEverything) {
  GpuMemoryBudget budget(std::nullopt);
  EXPECT_TRUE(budget.Reserve(size_t{1} << 40));
}

TEST(CallFaultCounter, FailsOnlyTheChosenCall) {
  CallFaultCounter counter(3);
  EXPECT_FALSE(counter.Next());
  EXPECT_FALSE(counter.Next());
  EXPECT_TRUE(counter.Next());
  EXPECT_FALSE(counter.Next());
  CallFaultCounter never(std::nullopt);
  for (int i = 0; i < 10; ++i) EXPECT_FALSE(never.Next());
}

TEST(PositiveEnvironmentInteger, ParsesOnlyPositiveIntegers) {
  CerrCapture capture;
  const char* name = "PROJ_TEST_POSITIVE_INTEGER";
  unsetenv(name);
  EXPECT_EQ(PositiveEnvironmentInteger(name), std::nullopt);
  setenv(name, "64", 1);
  EXPECT_EQ(PositiveEnvironmentInteger(name), 64);
  for (const char* bad : {"0", "-3", "12MB", "x"}) {
    setenv(name, bad, 1);
    EXPECT_EQ(PositiveEnvironmentInteger(name), std::nullopt) << bad;
  }
  unsetenv(name);
  EXPECT_NE(capture.text().find("is not a positive integer"), std::string::npos);
}

}  // namespace
}  // namespace proj::cuda
