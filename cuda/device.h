// Which CUDA devices are usable. Host-only header (no CUDA includes). Devices are numbered as
// the CUDA runtime numbers them, so CUDA_VISIBLE_DEVICES narrows and renumbers them.
#pragma once

#include <string>

namespace proj::cuda {

// True when the program was built with the CUDA kernels.
bool BuiltWithCuda();
// True when built with CUDA and at least one device can be used. Never throws.
bool DeviceAvailable();
// Number of usable devices (0 without CUDA or without a device). Never throws.
int DeviceCount();
// "NVIDIA H100 80GB HBM3 (sm_90, 79 GiB)" for device 0, or the reason no device is usable.
std::string DeviceDescription();
// The same for device `device` ("CUDA device 3 does not exist (2 visible)" when out of range).
std::string DeviceDescription(int device);
// Makes `device` the calling thread's current CUDA device, on which host APIs that take no
// device (mvs/patch_match.h's RunPatchMatch on the GPU) run. Throws GpuError when it cannot
// (no such device, or built without CUDA).
void SetCurrentDevice(int device);

}  // namespace proj::cuda
