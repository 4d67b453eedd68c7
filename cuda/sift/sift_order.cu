// Deterministic order of keypoints with equal responses. The detection and orientation
// kernels append their results at atomicAdd positions, so the order of two records with the
// same response after the (stable) radix sort depends on thread scheduling, and so would
// which of them survive the max_features cut and the order of the output. Ordering each run
// of equal keys by the records' contents makes the output a function of the image alone,
// the same on every run and on every GPU of a multi-GPU run. Runs are short (a detection's
// orientations share its response; distinct keypoints tie rarely), so one thread per run.
#include "cuda/cuda_check.cuh"
#include "cuda/sift/sift_kernels.cuh"

namespace proj::cuda {
namespace {

// Lexicographic on the float fields as bit patterns (a total order; the values are finite).
__device__ bool Less(const GpuDetection& a, const GpuDetection& b) {
  if (a.octave_slot != b.octave_slot) return a.octave_slot < b.octave_slot;
  const float fa[] = {a.y, a.x, a.level, a.sigma};
  const float fb[] = {b.y, b.x, b.level, b.sigma};
  for (int i = 0; i < 4; ++i) {
    if (__float_as_int(fa[i]) != __float_as_int(fb[i])) return __float_as_int(fa[i]) < __float_as_int(fb[i]);
  }
  return false;
}

__device__ bool Less(const GpuOrientedKeypoint& a, const GpuOrientedKeypoint& b) {
  if (a.octave_slot != b.octave_slot) return a.octave_slot < b.octave_slot;
  const float fa[] = {a.y, a.x, a.level, a.sigma, a.angle};
  const float fb[] = {b.y, b.x, b.level, b.sigma, b.angle};
  for (int i = 0; i < 5; ++i) {
    if (__float_as_int(fa[i]) != __float_as_int(fb[i])) return __float_as_int(fa[i]) < __float_as_int(fb[i]);
  }
  return false;
}

// Thread i starts a run when keys[i] differs from keys[i - 1] and equals keys[i + 1]; it
// insertion-sorts order[run] by the records.
template <typename Record>
__global__ void OrderTiesKernel(const float* keys, int* order, const Record* records, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n - 1 || (i > 0 && keys[i - 1] == keys[i]) || keys[i + 1] != keys[i]) return;
  int end = i + 1;
  while (end < n && keys[end] == keys[i]) ++end;
  for (int k = i + 1; k < end; ++k) {
    const int moving = order[k];
    int j = k;
    while (j > i && Less(records[moving], records[order[j - 1]])) {
      order[j] = order[j - 1];
      --j;
    }
    order[j] = moving;
  }
}

template <typename Record>
void Launch(const float* sorted_keys, int* order, const Record* records, int n, cudaStream_t stream) {
  if (n < 2) return;
  constexpr int kThreads = 256;
  OrderTiesKernel<<<(n + kThreads - 1) / kThreads, kThreads, 0, stream>>>(sorted_keys, order, records, n);
  PROJ_CUDA_CHECK(cudaGetLastError());
}

}  // namespace

void LaunchOrderTies(const float* sorted_keys, int* order, const GpuDetection* detections, int n,
                     cudaStream_t stream) {
  Launch(sorted_keys, order, detections, n, stream);
}

void LaunchOrderTies(const float* sorted_keys, int* order, const GpuOrientedKeypoint* keypoints, int n,
                     cudaStream_t stream) {
  Launch(sorted_keys, order, keypoints, n, stream);
}

}  // namespace proj::cuda
