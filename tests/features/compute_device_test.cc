// --gpus: parsing all|N|LIST, resolving against the visible devices, and the clear messages
// for values that cannot work. Pure functions: no GPU needed.
#include "cuda/device_selection.h"

#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/check.h"
#include "cuda/device.h"

namespace proj {
namespace {

using ::testing::HasSubstr;
using ::testing::ThrowsMessage;

TEST(GpuSelection, ParsesAllACountAndAList) {
  EXPECT_EQ(ParseGpuSelection("all").kind, GpuSelection::Kind::kAll);
  const GpuSelection two = ParseGpuSelection("2");
  EXPECT_EQ(two.kind, GpuSelection::Kind::kFirst);
  EXPECT_EQ(two.count, 2);
  const GpuSelection list = ParseGpuSelection("3,0,2");
  EXPECT_EQ(list.kind, GpuSelection::Kind::kList);
  EXPECT_EQ(list.devices, (std::vector<int>{3, 0, 2}));
  for (const std::string text : {"all", "4", "0,2", "1,0"}) EXPECT_EQ(ParseGpuSelection(text).ToText(), text);
}

TEST(GpuSelection, RefusesOtherTextsNamingTheAcceptedForms) {
  for (const std::string text : {"", "two", "-1", "1.5", "0,", ",1", "0,,1", "0;1", "ALL", "1,x", "9999999"}) {
    EXPECT_THAT([&] { ParseGpuSelection(text); },
                ThrowsMessage<InputError>(HasSubstr("--gpus '" + text + "'")));
    EXPECT_THAT([&] { ParseGpuSelection(text); },
                ThrowsMessage<InputError>(HasSubstr("expected all, a number of GPUs (2: the first two) "
                                                    "or a list of device indices (0,2)")));
  }
  EXPECT_THAT([] { ParseGpuSelection("0"); },
              ThrowsMessage<InputError>(HasSubstr("--gpus 0: the number of GPUs must be at least 1")));
  EXPECT_THAT([] { ParseGpuSelection("1,1"); },
              ThrowsMessage<InputError>(HasSubstr("--gpus 1,1: a device is listed twice")));
}

TEST(GpuSelection, ResolvesAgainstTheVisibleDevices) {
  EXPECT_EQ(ResolveGpuSelection(ParseGpuSelection("all"), 4), (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(ResolveGpuSelection(ParseGpuSelection("all"), 1), (std::vector<int>{0}));
  EXPECT_EQ(ResolveGpuSelection(ParseGpuSelection("2"), 4), (std::vector<int>{0, 1}));
  EXPECT_EQ(ResolveGpuSelection(ParseGpuSelection("3,1"), 4), (std::vector<int>{3, 1}));
  EXPECT_THAT([] { ResolveGpuSelection(ParseGpuSelection("4"), 2); },
              ThrowsMessage<InputError>(HasSubstr("--gpus 4: only 2 CUDA device(s) visible")));
  EXPECT_THAT([] { ResolveGpuSelection(ParseGpuSelection("0,2"), 2); },
              ThrowsMessage<InputError>(HasSubstr("--gpus 0,2: there is no CUDA device 2 (2 visible, numbered from 0)")));
}

TEST(GpuSelection, ChosenGpusNeedAGpu) {
  EXPECT_TRUE(SelectGpus(ComputeDevice::kCpu, GpuSelection{}).empty());
  EXPECT_THAT([] { SelectGpus(ComputeDevice::kCpu, ParseGpuSelection("2")); },
              ThrowsMessage<InputError>(HasSubstr("--gpus 2 asks for GPUs but --device cpu runs on the CPU")));
  if (cuda::DeviceAvailable()) {
    EXPECT_EQ(SelectGpus(ComputeDevice::kAuto, GpuSelection{}).size(),
              static_cast<size_t>(cuda::DeviceCount()));
  } else {
    EXPECT_TRUE(SelectGpus(ComputeDevice::kAuto, GpuSelection{}).empty());  // auto: the CPU
    EXPECT_THAT([] { SelectGpus(ComputeDevice::kAuto, ParseGpuSelection("0,1")); },
                ThrowsMessage<InputError>(HasSubstr("--gpus 0,1 asks for GPUs but none is usable")));
  }
}

TEST(GpuSelection, SeveralGpusAreNamedInDescriptions) {
  EXPECT_EQ(OnGpusSuffix({0}), "");
  EXPECT_EQ(OnGpusSuffix({0, 2}), " on GPUs 0, 2");
}

}  // namespace
}  // namespace proj
