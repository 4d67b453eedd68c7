// The CUDA SIFT scale-space hook TrilateralSmoothLevel against the CPU reference.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "cuda/cuda_check.cuh"
#include "cuda/device.h"
#include "cuda/trilateral/trilateral_level.cuh"
#include "features/trilateral/trilateral_filter.h"

namespace proj {
namespace {

std::vector<float> LevelTestImage(int width, int height) {
  std::vector<float> image(static_cast<size_t>(width) * height);
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      float v = 0.35f + 0.15f * std::sin(0.05f * x) * std::cos(0.04f * y);
      if (x > width / 3 && y > height / 2) v += 0.4f;
      v += 0.01f * static_cast<float>((x * 7 + y * 13) % 5);
      image[static_cast<size_t>(y) * width + x] = v;
    }
  }
  return image;
}

TEST(TrilateralSmoothLevel, MatchesCpuReference) {
  if (!cuda::DeviceAvailable()) GTEST_SKIP() << "no usable CUDA device: " << cuda::DeviceDescription();
  const int width = 150, height = 110;
  const std::vector<float> image = LevelTestImage(width, height);
  const size_t bytes = image.size() * sizeof(float);
  float *base = nullptr, *out = nullptr;
  cudaStream_t stream = nullptr;
  PROJ_CUDA_CHECK(cudaStreamCreate(&stream));
  PROJ_CUDA_CHECK(cudaMalloc(&base, bytes));
  PROJ_CUDA_CHECK(cudaMalloc(&out, bytes));
  PROJ_CUDA_CHECK(cudaMemcpy(base, image.data(), bytes, cudaMemcpyHostToDevice));
  const auto [lo, hi] = std::minmax_element(image.begin(), image.end());
  for (const auto& [target_sigma, scale] : {std::pair<float, float>{1.6f, 0.f}, {3.2f, 0.f}, {2.0f, 1.5f}}) {
    cuda::LevelSmoothArgs args;
    args.base = base;
    args.previous = base;
    args.target_sigma = target_sigma;
    args.out = out;
    args.width = width;
    args.height = height;
    args.stream = stream;
    cuda::TrilateralSmoothLevel(args, scale);
    std::vector<float> gpu(image.size());
    PROJ_CUDA_CHECK(cudaMemcpyAsync(gpu.data(), out, bytes, cudaMemcpyDeviceToHost, stream));
    PROJ_CUDA_CHECK(cudaStreamSynchronize(stream));
    TrilateralOptions options;
    options.sigma_c = static_cast<double>(scale > 0 ? scale : 1.0f) * target_sigma;
    const std::vector<float> cpu = TrilateralFilter(image.data(), width, height, options);
    double worst = 0;
    for (size_t i = 0; i < cpu.size(); ++i) worst = std::max(worst, std::abs(static_cast<double>(gpu[i]) - cpu[i]));
    EXPECT_LE(worst, 1e-5 * (*hi - *lo)) << "target sigma " << target_sigma << " scale " << scale;
  }
  PROJ_CUDA_CHECK(cudaFree(base));
  PROJ_CUDA_CHECK(cudaFree(out));
  PROJ_CUDA_CHECK(cudaStreamDestroy(stream));
}

}  // namespace
}  // namespace proj
