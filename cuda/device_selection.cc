#include "cuda/device_selection.h"

#include <algorithm>
#include <sstream>

#include "core/check.h"
#include "cuda/device.h"

namespace proj {

ComputeDevice ResolveComputeDevice(ComputeDevice device, const std::string& what) {
  return UseGpu(device, what) ? ComputeDevice::kGpu : ComputeDevice::kCpu;
}

bool UseGpu(ComputeDevice device, const std::string& what) {
  switch (device) {
    case ComputeDevice::kCpu:
      return false;
    case ComputeDevice::kGpu:
      PROJ_REQUIRE(cuda::DeviceAvailable(),
                   what << " was requested but no GPU is usable: " << cuda::DeviceDescription());
      return true;
    case ComputeDevice::kAuto:
      return cuda::DeviceAvailable();
  }
  PROJ_CHECK(false, "unhandled compute device");
  return false;
}

std::vector<int> SelectGpus(ComputeDevice device, const GpuSelection& selection) {
  selection.Check();
  const bool chosen = selection.kind != GpuSelection::Kind::kAll;
  PROJ_REQUIRE(!(chosen && device == ComputeDevice::kCpu),
               "--gpus " << selection.ToText() << " asks for GPUs but --device cpu runs on the CPU");
  if (!UseGpu(device)) {
    PROJ_REQUIRE(!chosen, "--gpus " << selection.ToText()
                                    << " asks for GPUs but none is usable: " << cuda::DeviceDescription());
    return {};
  }
  return ResolveGpuSelection(selection, cuda::DeviceCount());
}

std::string ComputeDeviceSummary(ComputeDevice device, const GpuSelection& selection) {
  const std::vector<int> devices = SelectGpus(device, selection);
  if (devices.empty()) return "cpu";
  if (devices.size() == 1) return "gpu: " + cuda::DeviceDescription(devices[0]);
  std::ostringstream out;
  out << devices.size() << " gpus (";
  for (size_t k = 0; k < devices.size(); ++k) out << (k ? ", " : "") << devices[k];
  out << "): ";
  const std::string first = cuda::DeviceDescription(devices[0]);
  const bool alike = std::all_of(devices.begin(), devices.end(),
                                 [&](int d) { return cuda::DeviceDescription(d) == first; });
  if (alike) return out.str() + first;
  for (size_t k = 0; k < devices.size(); ++k) {
    out << (k ? "; " : "") << devices[k] << ": " << cuda::DeviceDescription(devices[k]);
  }
  return out.str();
}

}  // namespace proj
