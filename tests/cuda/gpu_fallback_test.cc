// The GPU failure policy without a GPU: GpuFallback and GpuWithCpuFallback driven by fake
// GPU work that throws GpuError, and the test hooks' bookkeeping (memory budget, failing
// call counter, environment parsing).
#include "cuda/gpu_fallback.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

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

// Several devices: fake GPU workers that record which device ran which unit, how many units
// ran on a device at once, and fail when told to.
struct DeviceLog {
  std::mutex mutex;
  std::map<int, int> units_of_device;
  std::map<int, int> running;
  int most_at_once_on_a_device = 0;
  int cpu_units = 0;
};

struct FakeDevice : Worker {
  FakeDevice(int device, DeviceLog* log, int fail_at_call) : device(device), log(log), fail_at(fail_at_call) {}
  std::string Work(int unit) override {
    {
      std::lock_guard<std::mutex> lock(log->mutex);
      const int running = ++log->running[device];
      log->most_at_once_on_a_device = std::max(log->most_at_once_on_a_device, running);
    }
    std::this_thread::sleep_for(std::chrono::microseconds(300 + 100 * (unit % 5)));
    std::lock_guard<std::mutex> lock(log->mutex);
    --log->running[device];
    if (++calls == fail_at) throw OutOfMemory();
    ++log->units_of_device[device];
    return "unit" + std::to_string(unit);
  }
  int device;
  DeviceLog* log;
  int fail_at;
  int calls = 0;
};

struct LoggedCpu : Worker {
  explicit LoggedCpu(DeviceLog* log) : log(log) {}
  std::string Work(int unit) override {
    std::lock_guard<std::mutex> lock(log->mutex);
    ++log->cpu_units;
    return "unit" + std::to_string(unit);
  }
  DeviceLog* log;
};

// Runs units 0..n-1 from `threads` threads through `workers`; returns each unit's result.
std::vector<std::string> RunUnits(GpuWithCpuFallback<Worker>* workers, int n, int threads) {
  std::vector<std::string> results(n);
  std::atomic<int> next{0};
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&] {
      for (int unit = next++; unit < n; unit = next++) {
        results[unit] = workers->Run([unit](Worker& worker) { return worker.Work(unit); });
      }
    });
  }
  for (std::thread& thread : pool) thread.join();
  return results;
}

std::vector<std::string> ExpectedUnits(int n) {
  std::vector<std::string> expected;
  for (int unit = 0; unit < n; ++unit) expected.push_back("unit" + std::to_string(unit));
  return expected;
}

TEST(GpuWithCpuFallbackOnSeveralDevices, ConcurrentUnitsSpreadOverTheDevicesOneAtATimeEach) {
  DeviceLog log;
  GpuWithCpuFallback<Worker> workers(
      "stage", {0, 1, 2}, [&](int device) { return std::make_unique<FakeDevice>(device, &log, 0); },
      [&] { return std::make_unique<LoggedCpu>(&log); });
  EXPECT_EQ(workers.NumWorkingDevices(), 3);
  EXPECT_EQ(RunUnits(&workers, 60, 6), ExpectedUnits(60));
  EXPECT_EQ(log.most_at_once_on_a_device, 1);
  EXPECT_EQ(log.units_of_device.size(), 3u);  // 6 callers, 3 devices: every device worked
  int total = 0;
  for (const auto& [device, units] : log.units_of_device) total += units;
  EXPECT_EQ(total, 60);
  EXPECT_EQ(log.cpu_units, 0);
}

TEST(GpuWithCpuFallbackOnSeveralDevices, AFreeDeviceTakesTheNextUnitWhileASlowOneIsBusy) {
  // Device 0's first unit waits until every other unit is done: units are lent to whichever
  // device is free, not dealt out in advance.
  std::atomic<int> done{0};
  struct Gated : Worker {
    Gated(int device, std::atomic<int>* done) : device(device), done(done) {}
    std::string Work(int) override {
      if (device == 0) {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
        while (done->load() < 29 && std::chrono::steady_clock::now() < deadline) {
          std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
      }
      ++*done;
      return "gpu" + std::to_string(device);
    }
    int device;
    std::atomic<int>* done;
  };
  GpuWithCpuFallback<Worker> workers(
      "stage", {0, 1}, [&](int device) { return std::make_unique<Gated>(device, &done); },
      [] { return std::make_unique<CpuWorker>(); });
  const std::vector<std::string> results = RunUnits(&workers, 30, 2);
  EXPECT_EQ(std::count(results.begin(), results.end(), "gpu0"), 1);
  EXPECT_EQ(std::count(results.begin(), results.end(), "gpu1"), 29);
}

TEST(GpuWithCpuFallbackOnSeveralDevices, AFailedUnitGoesToAnotherDeviceAndTheFailedOneTakesNoMore) {
  CerrCapture capture;
  DeviceLog log;
  GpuWithCpuFallback<Worker> workers(
      "feature extraction", {0, 3, 5},
      [&](int device) { return std::make_unique<FakeDevice>(device, &log, device == 3 ? 2 : 0); },
      [&] { return std::make_unique<LoggedCpu>(&log); });
  EXPECT_EQ(RunUnits(&workers, 40, 3), ExpectedUnits(40));  // every unit once, none lost
  EXPECT_EQ(log.units_of_device[3], 1);                     // its first unit only
  EXPECT_EQ(log.units_of_device[0] + log.units_of_device[5], 39);
  EXPECT_EQ(log.cpu_units, 0);
  EXPECT_EQ(workers.NumWorkingDevices(), 2);
  EXPECT_TRUE(workers.fallback().using_gpu());
  const std::string text = capture.text();
  EXPECT_EQ(Count(text, "warning: feature extraction: GPU 3 failed (cudaErrorMemoryAllocation: "
                        "out of memory); its work goes to the other GPUs (2 left)"),
            1u)
      << text;
  EXPECT_EQ(Count(text, "on the CPU"), 0u) << text;
}

TEST(GpuWithCpuFallbackOnSeveralDevices, TheCpuTakesOverOnlyWhenEveryDeviceFailed) {
  CerrCapture capture;
  DeviceLog log;
  GpuWithCpuFallback<Worker> workers(
      "descriptor matching", {0, 1}, [&](int device) { return std::make_unique<FakeDevice>(device, &log, 3); },
      [&] { return std::make_unique<LoggedCpu>(&log); });
  EXPECT_EQ(RunUnits(&workers, 20, 2), ExpectedUnits(20));
  EXPECT_EQ(log.units_of_device[0], 2);
  EXPECT_EQ(log.units_of_device[1], 2);
  EXPECT_EQ(log.cpu_units, 16);
  EXPECT_EQ(workers.NumWorkingDevices(), 0);
  EXPECT_FALSE(workers.fallback().using_gpu());
  const std::string text = capture.text();
  EXPECT_EQ(Count(text, "its work goes to the other GPU (1 left)"), 1u) << text;
  EXPECT_EQ(Count(text, "descriptor matching: the GPU failed (cudaErrorMemoryAllocation: out of "
                        "memory); redoing this part and the rest of the stage on the CPU"),
            1u)
      << text;
}

TEST(GpuWithCpuFallbackOnSeveralDevices, ADeviceFailingWhileMadeIsLeftOut) {
  CerrCapture capture;
  DeviceLog log;
  GpuWithCpuFallback<Worker> workers(
      "stage", {0, 1},
      [&](int device) -> std::unique_ptr<Worker> {
        if (device == 1) throw OutOfMemory();
        return std::make_unique<FakeDevice>(device, &log, 0);
      },
      [&] { return std::make_unique<LoggedCpu>(&log); });
  EXPECT_EQ(workers.NumWorkingDevices(), 1);
  EXPECT_EQ(RunUnits(&workers, 10, 2), ExpectedUnits(10));
  EXPECT_EQ(log.units_of_device[0], 10);
  EXPECT_NE(capture.text().find("stage: GPU 1 failed"), std::string::npos) << capture.text();
}

TEST(GpuWithCpuFallbackOnSeveralDevices, OtherErrorsWhileMakingADevicePropagate) {
  EXPECT_THROW(GpuWithCpuFallback<Worker>(
                   "stage", {0, 1},
                   [](int device) -> std::unique_ptr<Worker> {
                     if (device == 1) throw std::invalid_argument("scale space not built in");
                     return std::make_unique<CpuWorker>();
                   },
                   [] { return std::make_unique<CpuWorker>(); }),
               std::invalid_argument);
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
