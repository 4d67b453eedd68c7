#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <memory>

#include "core/timer.h"
#include "features/trilateral/trilateral_filter_image.h"
#include "io/image_decode.h"
#include "io/image_encode.h"
#include "sfm/app/cli_help.h"
#include "sfm/app/commands.h"
#include "sfm/app/pipeline_options.h"

namespace proj::app {
namespace {

// CLI::PositiveNumber's message prints the whole double range; this one says what is wrong.
const CLI::Validator kPositivePixels(
    [](std::string& text) -> std::string {
      char* end = nullptr;
      const double value = std::strtod(text.c_str(), &end);
      if (end == text.c_str() || *end != '\0' || !std::isfinite(value) || value <= 0) {
        return "must be a positive number of pixels (got '" + text + "')";
      }
      return "";
    },
    "POSITIVE");

}  // namespace

CommandRunner AddFilterCommand(CLI::App& app) {
  struct Args {
    std::string input, output;
    double sigma_c = 0;
    ComputeDevice device = ComputeDevice::kAuto;
    int num_threads = 0;
  };
  auto args = std::make_shared<Args>();
  app.add_option("IN", args->input, "Input image (JPEG or PNG)")->required();
  app.add_option("OUT", args->output, "Output PNG (8-bit grey)")->required();
  app.add_option("--trilateral", args->sigma_c,
                 "Trilateral filter (Choudhury & Tumblin 2003) with this domain sigma, px")
      ->required()
      ->check(kPositivePixels);
  AddEnumOption(app, "--device", &args->device, DeviceNames(), "Where the filter runs");
  app.add_option("--threads", args->num_threads, "CPU threads, 0 = all cores")
      ->capture_default_str();
  return [args]() {
    const Image input = ReadImageFile(args->input);
    Timer timer;
    const GrayImage filtered =
        TrilateralFilterImage(input, args->sigma_c, args->device, args->num_threads);
    const double seconds = timer.ElapsedSeconds();
    Image out;
    out.width = filtered.width;
    out.height = filtered.height;
    out.channels = 1;
    out.data.resize(filtered.pixels.size());
    for (size_t i = 0; i < filtered.pixels.size(); ++i) {
      out.data[i] = static_cast<uint8_t>(std::lround(255 * std::clamp(filtered.pixels[i], 0.0f, 1.0f)));
    }
    WritePng(args->output, out);
    std::cout << "filtered " << input.width << "x" << input.height << " in " << seconds
              << " s, written to " << args->output << std::endl;
    return kExitSuccess;
  };
}

}  // namespace proj::app
