// PatchMatch stereo kernels: one thread per pixel of the colour being swept (red-black), each
// running the shared per-pixel update (patch_match_core.h). Images are read through the
// read-only cache; the views' geometry travels in the kernel parameters (constant bank, the
// same for every thread).
#include <vector>

#include "cuda/mvs/patch_match_gpu.h"
#include "cuda/sift/device_buffer.cuh"

namespace proj::cuda {
namespace {

constexpr int kBlockX = 32, kBlockY = 8;

__global__ void InitKernel(PmViews views, PmParams params, PmState state) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= views.reference.width || y >= views.reference.height) return;
  PmInitPixel(views, params, state, x, y);
}

// Threads cover the pixels of one colour: pixel x = 2 i + ((y + colour) & 1) of row y, so no
// warp idles half its lanes.
__global__ void SweepKernel(PmViews views, PmParams params, PmState state, int colour, int sweep) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  const int x = 2 * i + ((y + colour) & 1);
  if (x >= views.reference.width || y >= views.reference.height) return;
  PmUpdatePixel(views, params, state, x, y, sweep);
}

size_t Pixels(const PmCamera& camera) { return static_cast<size_t>(camera.width) * camera.height; }

// Times the work between Start() and Stop() on the default stream.
class EventTimer {
 public:
  EventTimer() {
    PROJ_CUDA_CHECK(cudaEventCreate(&start_));
    PROJ_CUDA_CHECK(cudaEventCreate(&stop_));
  }
  ~EventTimer() {
    cudaEventDestroy(start_);  // unchecked: no throw in a destructor
    cudaEventDestroy(stop_);
  }
  void Start() { PROJ_CUDA_CHECK(cudaEventRecord(start_)); }
  float StopMs() {
    PROJ_CUDA_CHECK(cudaEventRecord(stop_));
    PROJ_CUDA_CHECK(cudaEventSynchronize(stop_));
    float ms = 0;
    PROJ_CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
    return ms;
  }

 private:
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
};

}  // namespace

void RunPatchMatchGpu(const PmViews& views, const PmParams& params, int num_iterations, float* depth, float* normal,
                      float* cost, PmGpuTimings* timings) {
  EventTimer timer;
  timer.Start();
  const size_t ref_pixels = Pixels(views.reference);
  PmViews device_views = views;
  std::vector<DeviceBuffer<float>> images(1 + views.num_sources);
  images[0].Reserve(ref_pixels);
  PROJ_CUDA_CHECK(cudaMemcpy(images[0].data(), views.reference_image, ref_pixels * sizeof(float),
                             cudaMemcpyHostToDevice));
  device_views.reference_image = images[0].data();
  for (int s = 0; s < views.num_sources; ++s) {
    const size_t pixels = Pixels(views.sources[s].camera);
    images[1 + s].Reserve(pixels);
    PROJ_CUDA_CHECK(cudaMemcpy(images[1 + s].data(), views.source_images[s], pixels * sizeof(float),
                               cudaMemcpyHostToDevice));
    device_views.source_images[s] = images[1 + s].data();
  }
  DeviceBuffer<float> depth_buffer(ref_pixels), normal_buffer(3 * ref_pixels), cost_buffer(ref_pixels);
  PROJ_CUDA_CHECK(cudaMemcpy(depth_buffer.data(), depth, ref_pixels * sizeof(float), cudaMemcpyHostToDevice));
  const PmState state{depth_buffer.data(), normal_buffer.data(), cost_buffer.data()};
  const float upload_ms = timer.StopMs();
  timer.Start();

  const int width = views.reference.width, height = views.reference.height;
  const dim3 block(kBlockX, kBlockY);
  InitKernel<<<dim3((width + kBlockX - 1) / kBlockX, (height + kBlockY - 1) / kBlockY), block>>>(device_views,
                                                                                               params, state);
  PROJ_CUDA_CHECK(cudaGetLastError());
  const dim3 half_grid(((width + 1) / 2 + kBlockX - 1) / kBlockX, (height + kBlockY - 1) / kBlockY);
  for (int sweep = 1; sweep <= num_iterations; ++sweep) {
    for (int colour = 0; colour < 2; ++colour) {
      SweepKernel<<<half_grid, block>>>(device_views, params, state, colour, sweep);
      PROJ_CUDA_CHECK(cudaGetLastError());
    }
  }
  const float sweep_ms = timer.StopMs();
  if (timings != nullptr) *timings = {upload_ms, sweep_ms};
  PROJ_CUDA_CHECK(cudaMemcpy(depth, depth_buffer.data(), ref_pixels * sizeof(float), cudaMemcpyDeviceToHost));
  PROJ_CUDA_CHECK(cudaMemcpy(normal, normal_buffer.data(), 3 * ref_pixels * sizeof(float), cudaMemcpyDeviceToHost));
  PROJ_CUDA_CHECK(cudaMemcpy(cost, cost_buffer.data(), ref_pixels * sizeof(float), cudaMemcpyDeviceToHost));
}

}  // namespace proj::cuda
