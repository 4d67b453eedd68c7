// The device decision against the CUDA devices present: whether a GPU is used, which GPUs,
// and how to name them. Host code, plain C++ (cuda/device.h asks the runtime).
#pragma once

#include <string>
#include <vector>

#include "core/compute_device.h"

namespace proj {

// The decision of a run, made once: kGpu when `device` is kGpu (InputError naming `what` when
// no GPU is usable) or kAuto with a usable GPU; kCpu otherwise.
ComputeDevice ResolveComputeDevice(ComputeDevice device, const std::string& what = "--device gpu");

// kGpu: true, or InputError naming `what` and why no GPU is usable; kCpu: false;
// kAuto: whether a usable CUDA device is present.
bool UseGpu(ComputeDevice device, const std::string& what = "--device gpu");

// The GPUs that work of `device` spreads over: none on the CPU (kCpu, or kAuto without a
// usable GPU), else ResolveGpuSelection over the visible devices. InputError as UseGpu, and
// for a selection other than kAll with kCpu or without a usable GPU.
std::vector<int> SelectGpus(ComputeDevice device, const GpuSelection& selection);

// "gpu: NVIDIA H100 ..." (one GPU), "2 gpus (0, 1): NVIDIA H100 ..." or "cpu", as SelectGpus
// resolves `device` and `selection` (InputError as SelectGpus).
std::string ComputeDeviceSummary(ComputeDevice device, const GpuSelection& selection = {});

}  // namespace proj
