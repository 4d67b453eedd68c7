#include "core/compute_device.h"

#include <algorithm>
#include <cctype>
#include <sstream>

#include "core/check.h"

namespace proj {

void GpuSelection::Check() const {
  switch (kind) {
    case Kind::kAll:
      return;
    case Kind::kFirst:
      PROJ_REQUIRE(count >= 1, "--gpus " << count << ": the number of GPUs must be at least 1");
      return;
    case Kind::kList: {
      PROJ_REQUIRE(!devices.empty(), "--gpus: the list of devices is empty");
      std::vector<int> sorted = devices;
      std::sort(sorted.begin(), sorted.end());
      PROJ_REQUIRE(sorted.front() >= 0, "--gpus " << ToText() << ": device indices start at 0");
      PROJ_REQUIRE(std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end(),
                   "--gpus " << ToText() << ": a device is listed twice");
      return;
    }
  }
}

std::string GpuSelection::ToText() const {
  if (kind == Kind::kAll) return "all";
  if (kind == Kind::kFirst) return std::to_string(count);
  std::string text;
  for (int device : devices) text += (text.empty() ? "" : ",") + std::to_string(device);
  return text;
}

namespace {

// A non-negative decimal integer of at most 6 digits, or -1.
int ParseIndex(const std::string& text) {
  if (text.empty() || text.size() > 6) return -1;
  if (!std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c) != 0; })) {
    return -1;
  }
  return std::stoi(text);
}

}  // namespace

GpuSelection ParseGpuSelection(const std::string& text) {
  const std::string forms =
      "expected all, a number of GPUs (2: the first two) or a list of device indices (0,2)";
  GpuSelection selection;
  if (text == "all") return selection;
  if (text.find(',') == std::string::npos) {
    const int count = ParseIndex(text);
    PROJ_REQUIRE(count >= 0, "--gpus '" << text << "': " << forms);
    selection.kind = GpuSelection::Kind::kFirst;
    selection.count = count;
  } else {
    selection.kind = GpuSelection::Kind::kList;
    std::istringstream items(text);
    std::string item;
    while (std::getline(items, item, ',')) {
      const int device = ParseIndex(item);
      PROJ_REQUIRE(device >= 0, "--gpus '" << text << "': '" << item << "' is not a device index; "
                                           << forms);
      selection.devices.push_back(device);
    }
    PROJ_REQUIRE(text.back() != ',' && selection.devices.size() >= 2,
                 "--gpus '" << text << "': " << forms);
  }
  selection.Check();
  return selection;
}

std::vector<int> ResolveGpuSelection(const GpuSelection& selection, int device_count) {
  selection.Check();
  std::vector<int> devices;
  switch (selection.kind) {
    case GpuSelection::Kind::kAll:
      for (int device = 0; device < device_count; ++device) devices.push_back(device);
      break;
    case GpuSelection::Kind::kFirst:
      PROJ_REQUIRE(selection.count <= device_count,
                   "--gpus " << selection.count << ": only " << device_count
                             << " CUDA device(s) visible");
      for (int device = 0; device < selection.count; ++device) devices.push_back(device);
      break;
    case GpuSelection::Kind::kList:
      for (int device : selection.devices) {
        PROJ_REQUIRE(device < device_count,
                     "--gpus " << selection.ToText() << ": there is no CUDA device " << device << " ("
                               << device_count << " visible, numbered from 0)");
      }
      devices = selection.devices;
      break;
  }
  return devices;
}

std::string OnGpusSuffix(const std::vector<int>& devices) {
  if (devices.size() < 2) return "";
  std::string suffix = " on GPUs ";
  for (size_t k = 0; k < devices.size(); ++k) suffix += (k ? ", " : "") + std::to_string(devices[k]);
  return suffix;
}

}  // namespace proj
