#include "features/trilateral/trilateral_filter_image.h"

#include "core/check.h"
#include "cuda/device_selection.h"
#include "cuda/gpu_fallback.h"
#include "cuda/trilateral/trilateral_gpu.h"
#include "features/image_preprocessing.h"
#include "features/trilateral/trilateral_filter.h"

namespace proj {

GrayImage TrilateralFilterImage(const GrayImage& image, double sigma_c, ComputeDevice device,
                                int num_threads) {
  PROJ_REQUIRE(image.width > 0 && image.height > 0 &&
                   image.pixels.size() == static_cast<size_t>(image.width) * image.height,
               "trilateral filter: the image is empty or its pixel count does not match "
                   << image.width << "x" << image.height);
  TrilateralOptions options;
  options.sigma_c = sigma_c;
  options.num_threads = num_threads;
  cuda::TrilateralGpuOptions gpu_options;
  gpu_options.sigma_c = sigma_c;
  options.domain_cut_sigmas = gpu_options.domain_cut_sigmas;  // both devices compute the same
  options.Check();
  if (!UseGpu(device, "trilateral filter: --device gpu")) return TrilateralFilter(image, options);
  cuda::GpuFallback fallback("trilateral filter");
  return fallback.Run(
      [&] {
        GrayImage output;
        output.width = image.width;
        output.height = image.height;
        output.pixels.resize(image.pixels.size());
        cuda::TrilateralFilterGpu gpu;
        gpu.Filter(image.pixels.data(), image.width, image.height, gpu_options, output.pixels.data());
        return output;
      },
      [&] { return TrilateralFilter(image, options); });
}

GrayImage TrilateralFilterImage(const Image& image, double sigma_c, ComputeDevice device,
                                int num_threads) {
  PROJ_REQUIRE(!image.empty() && image.width > 0 && image.height > 0,
               "trilateral filter: the input image is empty");
  return TrilateralFilterImage(ToGrayImage(image), sigma_c, device, num_threads);
}

}  // namespace proj
