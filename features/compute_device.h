// Where GPU-capable work runs. One function decides it for every stage (extraction,
// matching, KLT tracking, the trilateral filter), so `--device` means the same everywhere.
#pragma once

#include <string>

namespace proj {

enum class ComputeDevice { kAuto, kCpu, kGpu };

// kGpu: true, or InputError naming `what` and why no GPU is usable; kCpu: false;
// kAuto: whether a usable CUDA device is present.
bool UseGpu(ComputeDevice device, const std::string& what = "--device gpu");

// "gpu: NVIDIA H100 ..." or "cpu", as UseGpu resolves `device` (InputError as UseGpu).
std::string ComputeDeviceSummary(ComputeDevice device);

}  // namespace proj
