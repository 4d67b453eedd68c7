#include "cuda/gpu_fallback.h"

#include <algorithm>

#include "core/check.h"
#include "core/logging.h"

namespace proj::cuda {

void GpuFallback::SwitchToCpu(const GpuError& error) {
  ++num_failures_;
  use_gpu_.store(false);
  std::call_once(warned_, [&] {
    PROJ_LOG(kWarning, stage_ << ": the GPU failed (" << error.summary()
                              << "); redoing this part and the rest of the stage on the CPU");
  });
}

DeviceLeases::DeviceLeases(std::string stage, std::vector<int> devices, std::vector<bool> working)
    : stage_(std::move(stage)),
      devices_(std::move(devices)),
      working_(std::move(working)),
      lent_(devices_.size(), false) {
  PROJ_CHECK(!devices_.empty() && working_.size() == devices_.size(), "DeviceLeases: bad device list");
}

std::optional<int> DeviceLeases::Acquire() {
  std::unique_lock<std::mutex> lock(mutex_);
  const size_t n = devices_.size();
  while (true) {
    bool any_working = false;
    // From the slot after the last one lent, so that idle devices take turns.
    for (size_t i = 0; i < n; ++i) {
      const size_t k = (next_ + i) % n;
      if (!working_[k]) continue;
      any_working = true;
      if (!lent_[k]) {
        lent_[k] = true;
        next_ = k + 1;
        return static_cast<int>(k);
      }
    }
    if (!any_working) return std::nullopt;
    changed_.wait(lock);
  }
}

void DeviceLeases::Release(int slot) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    lent_[slot] = false;
  }
  changed_.notify_all();
}

bool DeviceLeases::Retire(int slot, const GpuError& error) {
  int others = 0;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    working_[slot] = false;
    lent_[slot] = false;
    others = static_cast<int>(std::count(working_.begin(), working_.end(), true));
  }
  changed_.notify_all();
  if (others > 0) {
    PROJ_LOG(kWarning, stage_ << ": GPU " << devices_[slot] << " failed (" << error.summary()
                              << "); its work goes to the other GPU" << (others > 1 ? "s" : "")
                              << " (" << others << " left)");
  }
  return others > 0;
}

int DeviceLeases::num_working() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return static_cast<int>(std::count(working_.begin(), working_.end(), true));
}

std::optional<int> DeviceLeases::FirstWorking() const {
  std::lock_guard<std::mutex> lock(mutex_);
  for (size_t k = 0; k < working_.size(); ++k) {
    if (working_[k]) return static_cast<int>(k);
  }
  return std::nullopt;
}

}  // namespace proj::cuda
