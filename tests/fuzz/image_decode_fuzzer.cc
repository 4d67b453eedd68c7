// libFuzzer target: image decoding (io/image_decode.h) of arbitrary bytes, headers and pixels.
// Bad input must end in proj::InputError; anything else (a crash, a sanitizer report, another
// exception escaping) is a finding.
#include <cstddef>
#include <cstdint>

#include "core/check.h"
#include "io/image_decode.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  proj::DecodeOptions options;
  // Small enough that a header claiming a huge image is refused quickly, large enough that
  // the seeds (downscaled photographs) decode fully.
  options.max_pixels = 4'000'000;
  try {
    proj::ImageInfo info;
    const proj::Image image = proj::DecodeImage(data, size, "fuzz_input", &info, options);
    PROJ_CHECK(
        image.data.size() == static_cast<size_t>(image.width) * image.height * image.channels,
        "decoded buffer does not match its size");
    PROJ_CHECK(image.width == info.width && image.height == info.height,
               "decoded size differs from the reported size");
  } catch (const proj::InputError&) {
  }
  return 0;
}
