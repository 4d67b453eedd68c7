// The one policy for a GPU failure during a run: a stage runs its units of work (an image,
// a block of pairs, one adjustment, the whole stage) through a GpuFallback. When a unit
// throws cuda::GpuError (out of memory, a failed launch), the fallback logs one warning
// naming the stage and the CUDA error, redoes that unit on the CPU, and keeps the CPU for
// every later unit of the stage. Host-only header; thread-safe.
//
// Stages that spread over several GPUs (GpuWithCpuFallback with a list of devices) first
// move a failed unit to another GPU: the failed device takes no more work in the stage, and
// the CPU takes over only when no device is left. With one GPU that is the policy above. A
// unit redone on another GPU gives what the failed one would have (same kernels, same
// input), so the results do not depend on which GPU failed.
#pragma once

#include <atomic>
#include <condition_variable>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

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

// Lends N devices to concurrent callers, one caller per device at a time, and remembers
// which devices still work. Slots are indices into the device list. Thread-safe.
class DeviceLeases {
 public:
  // `devices`: CUDA device indices (for warnings); `working[k]` whether slot k may be lent.
  DeviceLeases(std::string stage, std::vector<int> devices, std::vector<bool> working);

  // A free working slot (free ones in turn), waiting while every working one is lent;
  // nullopt once none works.
  std::optional<int> Acquire();
  void Release(int slot);
  // The device of `slot` (lent to the caller, or failed while its work was being set up)
  // failed: it is never lent again and, while other devices still work, a warning names it.
  // Returns whether another device still works.
  bool Retire(int slot, const GpuError& error);
  int num_working() const;
  // The first working slot, or nullopt.
  std::optional<int> FirstWorking() const;
  const std::vector<int>& devices() const { return devices_; }

 private:
  std::string stage_;
  std::vector<int> devices_;
  std::vector<bool> working_;
  std::vector<bool> lent_;
  size_t next_ = 0;  // where the search for a free device starts
  mutable std::mutex mutex_;
  std::condition_variable changed_;
};

// GPU implementations of an interface (a feature extractor, a matcher), one per device,
// paired with a CPU one computing the same: what the stages' GPU decorators hold. Run()
// lends the work a free device, so concurrent callers spread over the devices (dynamic
// scheduling: whichever device is free takes the next unit), each device runs one unit at a
// time, and a caller waits while every device is busy. On GpuError the unit goes to another
// device that still works (DeviceLeases::Retire); with no device left it runs, with every
// later unit, on the CPU implementation, made on first need (GpuFallback's warning). The
// device implementations are made concurrently, one thread per device; a GpuError while
// making one leaves that device out. The CPU implementation may be called concurrently
// (CpuWork must be thread-safe when Run is called from several threads).
template <typename Interface>
class GpuWithCpuFallback {
 public:
  using Factory = std::function<std::unique_ptr<Interface>()>;
  using DeviceFactory = std::function<std::unique_ptr<Interface>(int device)>;

  // One GPU, the one make_gpu picks.
  GpuWithCpuFallback(std::string stage, const Factory& make_gpu, Factory make_cpu)
      : GpuWithCpuFallback(std::move(stage), {0}, [&make_gpu](int) { return make_gpu(); },
                           std::move(make_cpu)) {}

  // The GPUs `devices` (CUDA indices, at least one).
  GpuWithCpuFallback(std::string stage, const std::vector<int>& devices,
                     const DeviceFactory& make_gpu, Factory make_cpu)
      : fallback_(stage), make_cpu_(std::move(make_cpu)), gpus_(devices.size()) {
    std::vector<bool> working(devices.size(), false);
    std::vector<std::optional<GpuError>> gpu_errors(devices.size());
    std::vector<std::exception_ptr> other_errors(devices.size());
    auto make = [&](size_t k) {
      try {
        gpus_[k] = make_gpu(devices[k]);
        working[k] = gpus_[k] != nullptr;
      } catch (const GpuError& error) {
        gpu_errors[k] = error;
      } catch (...) {
        other_errors[k] = std::current_exception();
      }
    };
    if (devices.size() == 1) {
      make(0);
    } else {
      std::vector<std::thread> threads;
      for (size_t k = 0; k < devices.size(); ++k) threads.emplace_back(make, k);
      for (std::thread& thread : threads) thread.join();
    }
    for (const std::exception_ptr& error : other_errors) {
      if (error) std::rethrow_exception(error);
    }
    leases_ = std::make_unique<DeviceLeases>(std::move(stage), devices, working);
    for (size_t k = 0; k < devices.size(); ++k) {
      if (gpu_errors[k]) Failed(*gpu_errors[k], static_cast<int>(k));
    }
  }

  // gpu_work(a device's implementation), or on GpuError of every device, cpu_work(the CPU
  // one); later calls go straight to the CPU once no device is left.
  template <typename GpuWork, typename CpuWork>
  auto Run(GpuWork&& gpu_work, CpuWork&& cpu_work) -> decltype(cpu_work(std::declval<Interface&>())) {
    while (std::optional<int> slot = leases_->Acquire()) {
      Lease lease{leases_.get(), *slot};
      try {
        return gpu_work(*gpus_[*slot]);
      } catch (const GpuError& error) {
        lease.held = false;
        Failed(error, *slot);
      }
    }
    return cpu_work(Cpu());
  }
  template <typename Work>
  auto Run(Work&& work) -> decltype(work(std::declval<Interface&>())) {
    return Run(work, work);
  }

  // Devices still taking work (0 once on the CPU).
  int NumWorkingDevices() const { return leases_->num_working(); }
  const std::vector<int>& devices() const { return leases_->devices(); }
  // The implementation in use now: the first working device's, or the CPU one.
  Interface& Current() {
    const std::optional<int> slot = leases_->FirstWorking();
    return slot ? *gpus_[*slot] : Cpu();
  }
  const GpuFallback& fallback() const { return fallback_; }

 private:
  // Gives a lent device back unless it failed (held false then).
  struct Lease {
    DeviceLeases* leases;
    int slot;
    bool held = true;
    ~Lease() {
      if (held) leases->Release(slot);
    }
  };
  void Failed(const GpuError& error, int slot) {
    if (!leases_->Retire(slot, error)) fallback_.SwitchToCpu(error);
  }
  Interface& Cpu() {
    std::call_once(cpu_made_, [&] { cpu_ = make_cpu_(); });
    return *cpu_;
  }
  GpuFallback fallback_;
  Factory make_cpu_;
  std::vector<std::unique_ptr<Interface>> gpus_;
  std::unique_ptr<DeviceLeases> leases_;
  std::once_flag cpu_made_;
  std::unique_ptr<Interface> cpu_;
};

}  // namespace proj::cuda
