// Where GPU-capable work runs: the one type of the device decision (--device, --gpus) for
// every stage (extraction, matching, KLT tracking, the trilateral filter, bundle adjustment).
// It is made once per run (cuda/device_selection.h ResolveComputeDevice, which asks the CUDA
// runtime), so `--device auto` means the same everywhere. `--gpus` selects the GPUs that
// feature extraction, descriptor matching and dense depth maps spread over; KLT tracking, the
// trilateral filter and GPU bundle adjustment run on one GPU, CUDA device 0.
#pragma once

#include <string>
#include <vector>

namespace proj {

// What was asked: kAuto (a GPU when one is usable), or one of them. A resolved decision is
// kCpu or kGpu.
enum class ComputeDevice { kAuto, kCpu, kGpu };

// Which CUDA devices (numbered as the CUDA runtime numbers them, so after
// CUDA_VISIBLE_DEVICES) work spreads over: every visible device, the first `count`, or the
// listed ones.
struct GpuSelection {
  enum class Kind { kAll, kFirst, kList };
  Kind kind = Kind::kAll;
  int count = 0;             // kFirst: how many, >= 1
  std::vector<int> devices;  // kList: distinct device indices, >= 0, in the order given
  void Check() const;        // InputError naming --gpus
  std::string ToText() const;  // "all", "2" or "0,2", as --gpus takes it
};

// Parses --gpus: "all", a count "N" (the first N devices) or a list "I,J,..." of device
// indices (two or more; one given device is CUDA_VISIBLE_DEVICES=I). InputError naming the
// text and the accepted forms otherwise.
GpuSelection ParseGpuSelection(const std::string& text);

// The device indices `selection` names among `device_count` visible devices (all of them
// for kAll). InputError when it asks for more devices, or for devices, than are visible.
std::vector<int> ResolveGpuSelection(const GpuSelection& selection, int device_count);

// " on GPUs 0, 1" for several devices, "" for one or none: what the descriptions of work
// spread over GPUs add ("sift (gpu: NVIDIA H100 ...) on GPUs 0, 1").
std::string OnGpusSuffix(const std::vector<int>& devices);

}  // namespace proj
