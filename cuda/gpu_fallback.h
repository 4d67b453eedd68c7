// The one policy for a GPU failure during a run: a stage runs its units of work (an image,
// a block of pairs, one adjustment, the whole stage) through a GpuFallback. When a unit
// throws cuda::GpuError (out of memory, a failed launch), the fallback logs one warning
// naming the stage and the CUDA error, redoes that unit on the CPU, and keeps the CPU for
// every later unit of the stage. Host-only header; thread-safe.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include "cuda/gpu_error.h"

namespace proj::cuda {

class GpuFallback {
 public:
  // `stage` names the work in the warning ("feature extraction"); `use_gpu` false starts
  // (and stays) on the CPU.
  explicit GpuFallback(std::string stage, bool use_gpu = true)
      : stage_(std::move(stage)), use_gpu_(use_gpu) {}

  bool using_gpu() const { return use_gpu_.load(); }
  // How many units failed on the GPU (more than one only when units ran concurrently).
  int num_failures() const { return num_failures_.load(); }

  // gpu() while the GPU is in use; on GpuError, SwitchToCpu and cpu(). Both callables must
  // return the same type; cpu() must compute what gpu() would have.
  template <typename GpuWork, typename CpuWork>
  auto Run(GpuWork&& gpu, CpuWork&& cpu) -> decltype(cpu()) {
    if (use_gpu_.load()) {
      try {
        return gpu();
      } catch (const GpuError& error) {
        SwitchToCpu(error);
      }
    }
    return cpu();
  }

  // Stops using the GPU for the rest of the stage; warns once.
  void SwitchToCpu(const GpuError& error);

 private:
  std::string stage_;
  std::atomic<bool> use_gpu_;
  std::atomic<int> num_failures_{0};
  std::once_flag warned_;
};

// A GPU implementation of an interface (a feature extractor, a matcher) paired with a CPU
// one computing the same, through one GpuFallback: what the stages' GPU decorators hold.
// The CPU implementation is made on first need; a GpuError while making the GPU one starts
// on the CPU.
template <typename Interface>
class GpuWithCpuFallback {
 public:
  using Factory = std::function<std::unique_ptr<Interface>()>;
  GpuWithCpuFallback(std::string stage, const Factory& make_gpu, Factory make_cpu)
      : fallback_(std::move(stage)), make_cpu_(std::move(make_cpu)) {
    try {
      gpu_ = make_gpu();
    } catch (const GpuError& error) {
      fallback_.SwitchToCpu(error);
    }
  }

  // gpu_work(gpu implementation), or on GpuError (then and later) cpu_work(cpu one).
  template <typename GpuWork, typename CpuWork>
  auto Run(GpuWork&& gpu_work, CpuWork&& cpu_work) -> decltype(cpu_work(std::declval<Interface&>())) {
    return fallback_.Run([&] { return gpu_work(*gpu_); }, [&] { return cpu_work(Cpu()); });
  }
  template <typename Work>
  auto Run(Work&& work) -> decltype(work(std::declval<Interface&>())) {
    return Run(work, work);
  }
  // The implementation in use now.
  Interface& Current() { return fallback_.using_gpu() ? *gpu_ : Cpu(); }
  const GpuFallback& fallback() const { return fallback_; }

 private:
  Interface& Cpu() {
    std::call_once(cpu_made_, [&] { cpu_ = make_cpu_(); });
    return *cpu_;
  }
  GpuFallback fallback_;
  Factory make_cpu_;
  std::unique_ptr<Interface> gpu_;
  std::once_flag cpu_made_;
  std::unique_ptr<Interface> cpu_;
};

}  // namespace proj::cuda
