#include "cuda/ba/ba_kernels.cuh"

#include <algorithm>

#include "cuda/ba/ba_block_math.h"
#include "cuda/cuda_check.cuh"

namespace proj::cuda {
namespace {

constexpr int kBlock = kBaChunkSize;  // threads of every block (a multiple of the warp size)
constexpr int kWarps = kBlock / 32;
constexpr int kMaxNormBlocks = 256;   // blocks of LaunchSquaredNorm's grid-stride loop
constexpr int kPose = kBaPoseDof;
constexpr int kCam = kBaMaxCameraParams;
constexpr int kPoseUpper = kPose * (kPose + 1) / 2;
constexpr int kCamUpper = kCam * (kCam + 1) / 2;
constexpr unsigned kFullMask = 0xffffffffu;

// Chunk partial layouts: pose values, then camera values (then the cost for linearisation).
constexpr int kLinearizePose = kPose + kPoseUpper;  // J^T r, upper J^T J
constexpr int kLinearizeCamera = kCam + kCamUpper;
constexpr int kLinearizeWidth = kLinearizePose + kLinearizeCamera + 1;
constexpr int kStepPose = kPose + kPoseUpper;  // J^T J_p y, upper Schur terms
constexpr int kStepCamera = kCam + kCamUpper;
constexpr int kStepWidth = kStepPose + kStepCamera;
constexpr int kSchurWidth = kPose + kCam;  // J^T (u - J_p t)
static_assert(kLinearizeWidth <= kBaMaxChunkWidth && kStepWidth <= kBaMaxChunkWidth,
              "chunk partials wider than the workspace holds");

int Blocks(int n) { return (n + kBlock - 1) / kBlock; }
int NormBlocks(int n) { return std::max(1, std::min(Blocks(n), kMaxNormBlocks)); }

__device__ inline double WarpSum(double v) {
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(kFullMask, v, offset);
  return v;
}
__device__ inline int Lane() { return threadIdx.x & 31; }
__device__ inline int Warp() { return threadIdx.x >> 5; }

// Block sums in a fixed order: each thread passes its value of component k (0 <= k < width)
// to WarpPartial, which sums the warp's values by a fixed shuffle tree and keeps one partial
// per warp; FinishBlockSum then adds the warps' partials in warp order into out[0..width).
// Every thread of the block must make the same calls.
__device__ inline void WarpPartial(double v, int k, int width, double* scratch) {
  v = WarpSum(v);
  if (Lane() == 0) scratch[Warp() * width + k] = v;
}
__device__ inline void FinishBlockSum(const double* scratch, int width, double* out) {
  __syncthreads();
  for (int k = threadIdx.x; k < width; k += kBlock) {
    double s = 0;
    for (int w = 0; w < kWarps; ++w) s += scratch[w * width + k];
    out[k] = s;
  }
  __syncthreads();
}

// Sums components [offset, offset + W) of the chunk partials (`width` per chunk) of a segment,
// the segment's chunks in order and strided over the block's threads, into out[0..W).
template <int W>
__device__ void SumSegment(const BaDeviceData& d, int segment, int width, int offset,
                           double* scratch, double* out) {
  double sums[W];
  for (int k = 0; k < W; ++k) sums[k] = 0;
  // A camera shared by every image has thousands of chunks: keep several loads in flight
  // (the additions stay in order).
#pragma unroll 4
  for (int e = d.segment_offsets[segment] + threadIdx.x; e < d.segment_offsets[segment + 1];
       e += kBlock) {
    const double* partial = d.chunk_partials + static_cast<size_t>(d.segment_chunks[e]) * width + offset;
    for (int k = 0; k < W; ++k) sums[k] += partial[k];
  }
  for (int k = 0; k < W; ++k) WarpPartial(sums[k], k, W, scratch);
  FinishBlockSum(scratch, W, out);
}

// A symmetric N x N block from its upper triangle (row by row).
template <int N>
__device__ inline void FromUpper(const double* upper, double* m) {
  int k = 0;
  for (int i = 0; i < N; ++i) {
    for (int j = i; j < N; ++j, ++k) m[i * N + j] = m[j * N + i] = upper[k];
  }
}

__device__ inline bool PcgDone(const BaPcgState* pcg) { return pcg != nullptr && pcg->done != 0; }

// --- Linearisation -------------------------------------------------------------------------

__global__ void __launch_bounds__(kBlock) LinearizeChunksKernel(BaDeviceData d) {
  __shared__ double scratch[kWarps * kLinearizeWidth];
  const int chunk = blockIdx.x;
  const int position = d.chunk_starts[chunk] + threadIdx.x;
  BaObservationLinearization l = {};
  double cost = 0;
  if (position < d.chunk_starts[chunk + 1]) {
    const int image = d.observation_images[position];
    const int camera = d.image_cameras[image];
    const int point = d.observation_points[position];
    if (!LinearizeObservation(d.camera_models[camera], d.camera_params + kCam * camera,
                              d.camera_mask[camera], d.poses + kBaPoseStride * image,
                              d.pose_mask[image], d.points + 3 * point,
                              d.point_constant[point] != 0, d.observations_px + 2 * position,
                              d.loss, d.loss_scale, &l, &cost)) {
      d.scalars->invalid = 1;
      l = {};
      cost = 0;
    }
    d.linearization[position] = l;
  }
  int k = 0;
  for (int i = 0; i < kPose; ++i) {
    WarpPartial(l.jac_pose[0][i] * l.residual[0] + l.jac_pose[1][i] * l.residual[1], k++,
                kLinearizeWidth, scratch);
  }
  for (int i = 0; i < kPose; ++i) {
    for (int j = i; j < kPose; ++j) {
      WarpPartial(l.jac_pose[0][i] * l.jac_pose[0][j] + l.jac_pose[1][i] * l.jac_pose[1][j], k++,
                  kLinearizeWidth, scratch);
    }
  }
  for (int i = 0; i < kCam; ++i) {
    WarpPartial(l.jac_camera[0][i] * l.residual[0] + l.jac_camera[1][i] * l.residual[1], k++,
                kLinearizeWidth, scratch);
  }
  for (int i = 0; i < kCam; ++i) {
    for (int j = i; j < kCam; ++j) {
      WarpPartial(l.jac_camera[0][i] * l.jac_camera[0][j] + l.jac_camera[1][i] * l.jac_camera[1][j],
                  k++, kLinearizeWidth, scratch);
    }
  }
  WarpPartial(cost, k, kLinearizeWidth, scratch);
  FinishBlockSum(scratch, kLinearizeWidth,
                 d.chunk_partials + static_cast<size_t>(chunk) * kLinearizeWidth);
}

// Position prior linearisation per image and prior costs per image and camera (into
// segment_terms).
__global__ void PriorLinearizeKernel(BaDeviceData d) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < d.num_images) {
    double cost = 0;
    if (d.prior_weights != nullptr) {
      BaPositionPriorLinearization& l = d.prior_linearization[t];
      LinearizePositionPrior(d.poses + kBaPoseStride * t, d.pose_mask[t], d.prior_centers + 3 * t,
                             d.prior_weights + 9 * t, &l);
      cost = 0.5 * (l.residual[0] * l.residual[0] + l.residual[1] * l.residual[1] +
                    l.residual[2] * l.residual[2]);
    }
    d.segment_terms[t] = cost;
  } else if (t < d.num_images + d.num_cameras) {
    double cost = 0;
    if (d.camera_prior_weights != nullptr) {
      const int base = kCam * (t - d.num_images);
      for (int k = 0; k < kCam; ++k) {
        cost += CameraPriorCost(d.camera_params[base + k], d.camera_prior_means[base + k],
                                d.camera_prior_weights[base + k]);
      }
    }
    d.segment_terms[t] = cost;
  } else if (t < d.num_images + d.num_cameras + d.num_point_priors) {
    const int j = t - d.num_images - d.num_cameras;
    d.segment_terms[t] = PointPriorCost(d.points + 3 * d.point_prior_points[j],
                                        d.point_prior_positions + 3 * j, d.point_prior_weights + 9 * j);
  }
}

__global__ void __launch_bounds__(kBlock) LinearizeSegmentsKernel(BaDeviceData d) {
  __shared__ double scratch[kWarps * kLinearizePose];
  __shared__ double sums[kLinearizePose];
  const int segment = blockIdx.x;
  if (segment < d.num_images) {
    SumSegment<kLinearizePose>(d, segment, kLinearizeWidth, 0, scratch, sums);
    if (threadIdx.x != 0) return;
    double* g = d.gradient_c + kPose * segment;
    double* h = d.hessian_pose + kPose * kPose * segment;
    for (int k = 0; k < kPose; ++k) g[k] = sums[k];
    FromUpper<kPose>(sums + kPose, h);
    if (d.prior_weights != nullptr) AddPositionPriorNormalEquations(d.prior_linearization[segment], g, h);
  } else {
    SumSegment<kLinearizeCamera>(d, segment, kLinearizeWidth, kLinearizePose, scratch, sums);
    if (threadIdx.x != 0) return;
    const int camera = segment - d.num_images;
    double* g = d.gradient_c + d.camera_offset + kCam * camera;
    double* h = d.hessian_camera + kCam * kCam * camera;
    for (int k = 0; k < kCam; ++k) g[k] = sums[k];
    FromUpper<kCam>(sums + kCam, h);
    if (d.camera_prior_weights == nullptr) return;
    for (int k = 0; k < kCam; ++k) {
      const int index = kCam * camera + k;
      const double jacobian =
          CameraPriorJacobian(d.camera_mask[camera], k, d.camera_prior_weights[index]);
      g[k] += jacobian * CameraPriorResidual(d.camera_params[index], d.camera_prior_means[index],
                                             d.camera_prior_weights[index]);
      h[k * kCam + k] += jacobian * jacobian;
    }
  }
}

__global__ void PointBlocksKernel(BaDeviceData d) {
  const int point = blockIdx.x * blockDim.x + threadIdx.x;
  if (point >= d.num_points) return;
  double g[3] = {0, 0, 0}, w[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
  for (int k = d.point_offsets[point]; k < d.point_offsets[point + 1]; ++k) {
    const BaObservationLinearization& l = d.linearization[d.point_positions[k]];
    AddXtv<3>(l.jac_point, l.residual, g);
    AddXtY<3, 3>(l.jac_point, l.jac_point, 1.0, w);
  }
  for (int k = 0; k < 3; ++k) d.gradient_p[3 * point + k] = g[k];
  for (int k = 0; k < 9; ++k) d.hessian_point[9 * point + k] = w[k];
}

// Adds each point prior's gradient and J^T J block to its (variable) point's, after
// PointBlocksKernel. A point has at most one prior (BaProblem::Check): no two threads meet.
__global__ void PointPriorBlocksKernel(BaDeviceData d) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= d.num_point_priors) return;
  const int point = d.point_prior_points[j];
  if (d.point_constant[point] != 0) return;
  AddPointPriorNormalEquations(d.points + 3 * point, d.point_prior_positions + 3 * j,
                               d.point_prior_weights + 9 * j, d.gradient_p + 3 * point,
                               d.hessian_point + 9 * point);
}

__global__ void MaxAbsKernel(const double* v, int n, unsigned long long* out) {
  double m = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    m = fmax(m, fabs(v[i]));
  }
  for (int offset = 16; offset > 0; offset >>= 1) m = fmax(m, __shfl_down_sync(kFullMask, m, offset));
  // Non-negative doubles order like their bit patterns; max is order-independent.
  if (Lane() == 0) atomicMax(out, static_cast<unsigned long long>(__double_as_longlong(m)));
}

// *out = sum of a[i * stride] (i < na), then b[i] (i < nb), in a fixed order. One block.
__global__ void __launch_bounds__(kBlock) FinalSumKernel(const double* a, int na, int stride,
                                                         const double* b, int nb, double* out) {
  __shared__ double scratch[kWarps];
  double s = 0;
  for (int i = threadIdx.x; i < na + nb; i += kBlock) {
    s += i < na ? a[static_cast<size_t>(i) * stride] : b[i - na];
  }
  WarpPartial(s, 0, 1, scratch);
  FinishBlockSum(scratch, 1, out);
}

// --- Step preparation -----------------------------------------------------------------------

__global__ void PointInverseKernel(BaDeviceData d, double mu, double* y) {
  const int point = blockIdx.x * blockDim.x + threadIdx.x;
  if (point >= d.num_points) return;
  double a[9];
  for (int k = 0; k < 9; ++k) a[k] = d.hessian_point[9 * point + k];
  for (int k = 0; k < 3; ++k) a[4 * k] += LmDamping(a[4 * k], mu);
  if (!InvertSymmetricPositive<3>(a)) d.scalars->invalid = 1;
  for (int k = 0; k < 9; ++k) d.point_inverse[9 * point + k] = a[k];
  MatVec(a, d.gradient_p + 3 * point, 3, y + 3 * point);
}

__global__ void __launch_bounds__(kBlock) StepChunksKernel(BaDeviceData d, const double* y) {
  __shared__ double scratch[kWarps * kStepWidth];
  const int chunk = blockIdx.x;
  const int position = d.chunk_starts[chunk] + threadIdx.x;
  BaObservationLinearization l = {};
  double ainv[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0}, v[2] = {0, 0};
  if (position < d.chunk_starts[chunk + 1]) {
    const int point = d.observation_points[position];
    l = d.linearization[position];
    for (int k = 0; k < 9; ++k) ainv[k] = d.point_inverse[9 * point + k];
    AddXv<3>(l.jac_point, y + 3 * point, v);
  }
  int k = 0;
  {
    double coupling[kPose * 3], coupling_ainv[kPose * 3];
    SchurCoupling<kPose>(l.jac_pose, l.jac_point, ainv, coupling, coupling_ainv);
    for (int i = 0; i < kPose; ++i) {
      WarpPartial(l.jac_pose[0][i] * v[0] + l.jac_pose[1][i] * v[1], k++, kStepWidth, scratch);
    }
    for (int i = 0; i < kPose; ++i) {
      for (int j = i; j < kPose; ++j) {
        WarpPartial(-SchurTerm(coupling_ainv, coupling, i, j), k++, kStepWidth, scratch);
      }
    }
  }
  double coupling[kCam * 3], coupling_ainv[kCam * 3];
  SchurCoupling<kCam>(l.jac_camera, l.jac_point, ainv, coupling, coupling_ainv);
  for (int i = 0; i < kCam; ++i) {
    WarpPartial(l.jac_camera[0][i] * v[0] + l.jac_camera[1][i] * v[1], k++, kStepWidth, scratch);
  }
  for (int i = 0; i < kCam; ++i) {
    for (int j = i; j < kCam; ++j) {
      WarpPartial(-SchurTerm(coupling_ainv, coupling, i, j), k++, kStepWidth, scratch);
    }
  }
  FinishBlockSum(scratch, kStepWidth, d.chunk_partials + static_cast<size_t>(chunk) * kStepWidth);
}

// Damping, right-hand side b = -g + J^T J_p y and the inverted preconditioner block
// (J^T J + D - Schur terms) of one image or camera.
template <int N>
__device__ void FinishStepBlock(const double* sums, const double* hessian, const double* gradient,
                                double mu, double* damping, double* b, double* preconditioner) {
  double m[N * N];
  FromUpper<N>(sums + N, m);
  for (int k = 0; k < N * N; ++k) m[k] += hessian[k];
  for (int k = 0; k < N; ++k) {
    damping[k] = LmDamping(hessian[k * N + k], mu);
    m[k * N + k] += damping[k];
    b[k] = -gradient[k] + sums[k];
  }
  InvertPreconditionerBlock<N>(m);
  for (int k = 0; k < N * N; ++k) preconditioner[k] = m[k];
}

__global__ void __launch_bounds__(kBlock) StepSegmentsKernel(BaDeviceData d, double mu, double* b) {
  __shared__ double scratch[kWarps * kStepPose];
  __shared__ double sums[kStepPose];
  const int segment = blockIdx.x;
  if (segment < d.num_images) {
    SumSegment<kStepPose>(d, segment, kStepWidth, 0, scratch, sums);
    if (threadIdx.x != 0) return;
    FinishStepBlock<kPose>(sums, d.hessian_pose + kPose * kPose * segment,
                           d.gradient_c + kPose * segment, mu, d.damping_c + kPose * segment,
                           b + kPose * segment, d.preconditioner_pose + kPose * kPose * segment);
  } else {
    SumSegment<kStepCamera>(d, segment, kStepWidth, kStepPose, scratch, sums);
    if (threadIdx.x != 0) return;
    const int camera = segment - d.num_images;
    const int offset = d.camera_offset + kCam * camera;
    FinishStepBlock<kCam>(sums, d.hessian_camera + kCam * kCam * camera, d.gradient_c + offset, mu,
                          d.damping_c + offset, b + offset,
                          d.preconditioner_camera + kCam * kCam * camera);
  }
}

// --- Schur products and conjugate gradients -------------------------------------------------

__global__ void JcVKernel(BaDeviceData d, const double* v, double* u, const BaPcgState* pcg) {
  if (PcgDone(pcg)) return;
  const int position = blockIdx.x * blockDim.x + threadIdx.x;
  if (position >= d.num_observations) return;
  const int image = d.observation_images[position];
  const int camera = d.image_cameras[image];
  const BaObservationLinearization& l = d.linearization[position];
  double out[2] = {0, 0};
  AddXv<kPose>(l.jac_pose, v + kPose * image, out);
  AddXv<kCam>(l.jac_camera, v + d.camera_offset + kCam * camera, out);
  u[2 * position] = out[0];
  u[2 * position + 1] = out[1];
}

__global__ void PointSolveKernel(BaDeviceData d, const double* u, const double* add, double sign,
                                 double* out, const BaPcgState* pcg) {
  if (PcgDone(pcg)) return;
  const int point = blockIdx.x * blockDim.x + threadIdx.x;
  if (point >= d.num_points) return;
  double s[3] = {0, 0, 0};
  if (add != nullptr) {
    for (int k = 0; k < 3; ++k) s[k] = add[3 * point + k];
  }
  for (int k = d.point_offsets[point]; k < d.point_offsets[point + 1]; ++k) {
    const int position = d.point_positions[k];
    AddXtv<3>(d.linearization[position].jac_point, u + 2 * position, s);
  }
  double r[3];
  MatVec(d.point_inverse + 9 * point, s, 3, r);
  for (int k = 0; k < 3; ++k) out[3 * point + k] = sign * r[k];
}

// Chunk partials of J_c^T (u - J_p t).
__global__ void __launch_bounds__(kBlock) SchurChunksKernel(BaDeviceData d, const double* u,
                                                            const double* t) {
  __shared__ double scratch[kWarps * kSchurWidth];
  if (d.pcg->done) return;
  const int chunk = blockIdx.x;
  const int position = d.chunk_starts[chunk] + threadIdx.x;
  BaObservationLinearization l = {};
  double z[2] = {0, 0};
  if (position < d.chunk_starts[chunk + 1]) {
    l = d.linearization[position];
    double jt[2] = {0, 0};
    AddXv<3>(l.jac_point, t + 3 * d.observation_points[position], jt);
    z[0] = u[2 * position] - jt[0];
    z[1] = u[2 * position + 1] - jt[1];
  }
  for (int i = 0; i < kPose; ++i) {
    WarpPartial(l.jac_pose[0][i] * z[0] + l.jac_pose[1][i] * z[1], i, kSchurWidth, scratch);
  }
  for (int i = 0; i < kCam; ++i) {
    WarpPartial(l.jac_camera[0][i] * z[0] + l.jac_camera[1][i] * z[1], kPose + i, kSchurWidth,
                scratch);
  }
  FinishBlockSum(scratch, kSchurWidth, d.chunk_partials + static_cast<size_t>(chunk) * kSchurWidth);
}

// q = S v per image and camera (chunk sums + D v + prior terms); segment_terms = v . q of it.
__global__ void __launch_bounds__(kBlock) SchurSegmentsKernel(BaDeviceData d, const double* v,
                                                              double* q) {
  __shared__ double scratch[kWarps * kPose];
  __shared__ double sums[kPose];
  if (d.pcg->done) return;
  const int segment = blockIdx.x;
  if (segment < d.num_images) {
    SumSegment<kPose>(d, segment, kSchurWidth, 0, scratch, sums);
    if (threadIdx.x != 0) return;
    const int offset = kPose * segment;
    double out[kPose];
    for (int k = 0; k < kPose; ++k) out[k] = sums[k] + d.damping_c[offset + k] * v[offset + k];
    if (d.prior_weights != nullptr) AddPositionPriorProduct(d.prior_linearization[segment], v + offset, out);
    double dot = 0;
    for (int k = 0; k < kPose; ++k) {
      q[offset + k] = out[k];
      dot += v[offset + k] * out[k];
    }
    d.segment_terms[segment] = dot;
  } else {
    SumSegment<kCam>(d, segment, kSchurWidth, kPose, scratch, sums);
    if (threadIdx.x != 0) return;
    const int camera = segment - d.num_images;
    const int offset = d.camera_offset + kCam * camera;
    double dot = 0;
    for (int k = 0; k < kCam; ++k) {
      double out = sums[k] + d.damping_c[offset + k] * v[offset + k];
      if (d.camera_prior_weights != nullptr) {
        const double jacobian = CameraPriorJacobian(d.camera_mask[camera], k,
                                                    d.camera_prior_weights[kCam * camera + k]);
        out += jacobian * jacobian * v[offset + k];
      }
      q[offset + k] = out;
      dot += v[offset + k] * out;
    }
    d.segment_terms[segment] = dot;
  }
}

// With `update`: x += alpha p, r -= alpha q. Then z = M^-1 r and per-block partials of r . r,
// r . z and -x . (b + r) (the quadratic model Q).
__global__ void __launch_bounds__(kBlock) PcgUpdateKernel(BaDeviceData d, bool update,
                                                          const double* b, const double* p,
                                                          const double* q, double* x, double* r,
                                                          double* z) {
  __shared__ double scratch[kWarps * 3];
  if (update && d.pcg->done) return;
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  double rr = 0, rz = 0, model = 0;
  if (t < d.num_images + d.num_cameras) {
    const bool pose = t < d.num_images;
    const int n = pose ? kPose : kCam;
    const int offset = pose ? kPose * t : d.camera_offset + kCam * (t - d.num_images);
    const double* m = pose ? d.preconditioner_pose + kPose * kPose * t
                           : d.preconditioner_camera + kCam * kCam * (t - d.num_images);
    if (update) {
      const double alpha = d.pcg->alpha;
      for (int k = offset; k < offset + n; ++k) {
        x[k] += alpha * p[k];
        r[k] -= alpha * q[k];
      }
    }
    MatVec(m, r + offset, n, z + offset);
    for (int k = offset; k < offset + n; ++k) {
      rr += r[k] * r[k];
      rz += r[k] * z[k];
      model -= x[k] * (b[k] + r[k]);
    }
  }
  WarpPartial(rr, 0, 3, scratch);
  WarpPartial(rz, 1, 3, scratch);
  WarpPartial(model, 2, 3, scratch);
  FinishBlockSum(scratch, 3, d.block_partials + 3 * blockIdx.x);
}

// Sums of the per-block (rr, rz, Q) partials of PcgUpdateKernel into totals[0..3). One block.
__device__ void SumPcgPartials(const BaDeviceData& d, int num_blocks, double* scratch,
                               double* totals) {
  double s[3] = {0, 0, 0};
  for (int i = threadIdx.x; i < num_blocks; i += kBlock) {
    for (int k = 0; k < 3; ++k) s[k] += d.block_partials[3 * i + k];
  }
  for (int k = 0; k < 3; ++k) WarpPartial(s[k], k, 3, scratch);
  FinishBlockSum(scratch, 3, totals);
}

__global__ void __launch_bounds__(kBlock) PcgStartKernel(BaDeviceData d, int num_blocks,
                                                         double tolerance, double eta) {
  __shared__ double scratch[kWarps * 3];
  __shared__ double totals[3];
  SumPcgPartials(d, num_blocks, scratch, totals);
  if (threadIdx.x != 0) return;
  BaPcgState& s = *d.pcg;
  s = BaPcgState{};
  s.b_norm = sqrt(totals[0]);
  s.rz = totals[1];
  s.tolerance = tolerance;
  s.eta = eta;
  // A singular point block makes the step invalid: nothing to solve.
  s.done = s.b_norm == 0 || d.scalars->invalid != 0;
}

__global__ void __launch_bounds__(kBlock) PcgAlphaKernel(BaDeviceData d) {
  __shared__ double scratch[kWarps];
  __shared__ double pq;
  if (d.pcg->done) return;
  double s = 0;
  for (int i = threadIdx.x; i < d.num_images + d.num_cameras; i += kBlock) s += d.segment_terms[i];
  WarpPartial(s, 0, 1, scratch);
  FinishBlockSum(scratch, 1, &pq);
  if (threadIdx.x != 0) return;
  BaPcgState& state = *d.pcg;
  ++state.iteration;
  if (!(pq > 0)) {
    state.done = 1;
    return;
  }
  state.alpha = state.rz / pq;
}

// The stopping tests of the CPU solver's SolvePcg (residual, and the truncated-Newton test on
// the quadratic model), then beta.
__global__ void __launch_bounds__(kBlock) PcgBetaKernel(BaDeviceData d, int num_blocks) {
  __shared__ double scratch[kWarps * 3];
  __shared__ double totals[3];
  if (d.pcg->done) return;
  SumPcgPartials(d, num_blocks, scratch, totals);
  if (threadIdx.x != 0) return;
  BaPcgState& s = *d.pcg;
  const double model = totals[2];
  if (sqrt(totals[0]) <= s.tolerance * s.b_norm ||
      s.iteration * (model - s.q_previous) / model < s.eta) {
    s.done = 1;
    return;
  }
  s.q_previous = model;
  s.beta = totals[1] / s.rz;
  s.rz = totals[1];
}

__global__ void CgDirectionKernel(int n, const BaPcgState* pcg, const double* z, double* p) {
  if (pcg->done) return;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = z[i] + pcg->beta * p[i];
}

// --- Step evaluation ------------------------------------------------------------------------

__global__ void MaskStepKernel(BaDeviceData d, double* delta_c) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < d.camera_offset) {
    if ((d.pose_mask[i / kPose] >> (i % kPose)) & 1) delta_c[i] = 0;
  } else if (i < d.num_camera_side) {
    const int k = i - d.camera_offset;
    if ((d.camera_mask[k / kCam] >> (k % kCam)) & 1) delta_c[i] = 0;
  }
}

__global__ void __launch_bounds__(kBlock) ModelChangeKernel(BaDeviceData d, const double* u,
                                                            const double* delta_p) {
  __shared__ double scratch[kWarps];
  const int position = blockIdx.x * blockDim.x + threadIdx.x;
  double change = 0;
  if (position < d.num_observations) {
    const BaObservationLinearization& l = d.linearization[position];
    double e[2] = {u[2 * position], u[2 * position + 1]};
    AddXv<3>(l.jac_point, delta_p + 3 * d.observation_points[position], e);
    change = -(l.residual[0] * e[0] + l.residual[1] * e[1] + 0.5 * (e[0] * e[0] + e[1] * e[1]));
  }
  WarpPartial(change, 0, 1, scratch);
  FinishBlockSum(scratch, 1, d.block_partials + blockIdx.x);
}

// The priors' model decrease per image, camera and point prior, into segment_terms.
__global__ void PriorModelChangeKernel(BaDeviceData d, const double* delta_c, const double* delta_p) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < d.num_images) {
    d.segment_terms[t] =
        d.prior_weights != nullptr
            ? PositionPriorModelChange(d.prior_linearization[t], delta_c + kPose * t)
            : 0.0;
  } else if (t < d.num_images + d.num_cameras) {
    const int camera = t - d.num_images;
    double change = 0;
    if (d.camera_prior_weights != nullptr) {
      for (int k = 0; k < kCam; ++k) {
        const int index = kCam * camera + k;
        const double weight = d.camera_prior_weights[index];
        change += CameraPriorModelChange(
            CameraPriorResidual(d.camera_params[index], d.camera_prior_means[index], weight),
            CameraPriorJacobian(d.camera_mask[camera], k, weight),
            delta_c[d.camera_offset + index]);
      }
    }
    d.segment_terms[t] = change;
  } else if (t < d.num_images + d.num_cameras + d.num_point_priors) {
    const int j = t - d.num_images - d.num_cameras;
    const int point = d.point_prior_points[j];
    d.segment_terms[t] = d.point_constant[point] != 0
                             ? 0.0
                             : PointPriorModelChange(d.points + 3 * point, d.point_prior_positions + 3 * j,
                                                     d.point_prior_weights + 9 * j, delta_p + 3 * point);
  }
}

__global__ void __launch_bounds__(kBlock) SquaredNormKernel(const double* a, int na,
                                                            const double* b, int nb,
                                                            const double* c, int nc,
                                                            double* partials) {
  __shared__ double scratch[kWarps];
  double s = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < na + nb + nc; i += gridDim.x * blockDim.x) {
    const double v = i < na ? a[i] : i < na + nb ? b[i - na] : c[i - na - nb];
    s += v * v;
  }
  WarpPartial(s, 0, 1, scratch);
  FinishBlockSum(scratch, 1, partials + blockIdx.x);
}

__global__ void CandidateKernel(BaDeviceData d, const double* delta_c, const double* delta_p,
                                double* poses, double* camera_params, double* points) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < d.num_images) {
    if (d.pose_mask[t] == kBaConstantPose) {
      for (int k = 0; k < kBaPoseStride; ++k) poses[kBaPoseStride * t + k] = d.poses[kBaPoseStride * t + k];
    } else {
      UpdatePose(d.poses + kBaPoseStride * t, delta_c + kPose * t, poses + kBaPoseStride * t);
    }
    return;
  }
  t -= d.num_images;
  if (t < kCam * d.num_cameras) {
    camera_params[t] = d.camera_params[t] + delta_c[d.camera_offset + t];
    return;
  }
  t -= kCam * d.num_cameras;
  if (t < 3 * d.num_points) points[t] = d.points[t] + delta_p[t];
}

__global__ void __launch_bounds__(kBlock) CostKernel(BaDeviceData d, const double* poses,
                                                     const double* camera_params,
                                                     const double* points) {
  __shared__ double scratch[kWarps];
  const int position = blockIdx.x * blockDim.x + threadIdx.x;
  double c = 0;
  if (position < d.num_observations) {
    const int image = d.observation_images[position];
    const int camera = d.image_cameras[image];
    if (!ObservationCost(d.camera_models[camera], camera_params + kCam * camera,
                         poses + kBaPoseStride * image,
                         points + 3 * d.observation_points[position],
                         d.observations_px + 2 * position, d.loss, d.loss_scale, &c)) {
      d.scalars->invalid = 1;
      c = 0;
    }
  }
  WarpPartial(c, 0, 1, scratch);
  FinishBlockSum(scratch, 1, d.block_partials + blockIdx.x);
}

// Prior costs at the given parameters per image, camera and point prior, into segment_terms.
__global__ void PriorCostKernel(BaDeviceData d, const double* poses, const double* camera_params,
                                const double* points) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < d.num_images) {
    d.segment_terms[t] = d.prior_weights != nullptr
                             ? PositionPriorCost(poses + kBaPoseStride * t, d.prior_centers + 3 * t,
                                                 d.prior_weights + 9 * t)
                             : 0.0;
  } else if (t < d.num_images + d.num_cameras) {
    double cost = 0;
    if (d.camera_prior_weights != nullptr) {
      const int base = kCam * (t - d.num_images);
      for (int k = 0; k < kCam; ++k) {
        cost += CameraPriorCost(camera_params[base + k], d.camera_prior_means[base + k],
                                d.camera_prior_weights[base + k]);
      }
    }
    d.segment_terms[t] = cost;
  } else if (t < d.num_images + d.num_cameras + d.num_point_priors) {
    const int j = t - d.num_images - d.num_cameras;
    d.segment_terms[t] = PointPriorCost(points + 3 * d.point_prior_points[j],
                                        d.point_prior_positions + 3 * j, d.point_prior_weights + 9 * j);
  }
}

bool HasPriors(const BaDeviceData& d) {
  return d.prior_weights != nullptr || d.camera_prior_weights != nullptr || d.num_point_priors > 0;
}
int NumSegments(const BaDeviceData& d) { return d.num_images + d.num_cameras; }
// Terms of the prior sums (segment_terms): one per image and camera, then one per point prior;
// none without priors.
int NumPriorTerms(const BaDeviceData& d) { return HasPriors(d) ? NumSegments(d) + d.num_point_priors : 0; }

}  // namespace

#define PROJ_BA_LAUNCH(kernel, blocks, ...)                         \
  do {                                                              \
    if ((blocks) > 0) {                                             \
      kernel<<<(blocks), kBlock, 0, stream>>>(__VA_ARGS__);         \
      PROJ_CUDA_CHECK(cudaGetLastError());                          \
    }                                                               \
  } while (false)

int BaBlockPartials(const BaDeviceData& d) {
  return std::max({Blocks(d.num_observations), kMaxNormBlocks, 3 * Blocks(NumSegments(d)), 1});
}

void LaunchLinearize(const BaDeviceData& d, cudaStream_t stream) {
  PROJ_BA_LAUNCH(LinearizeChunksKernel, d.num_chunks, d);
  PROJ_BA_LAUNCH(PriorLinearizeKernel, Blocks(NumPriorTerms(d)), d);
  PROJ_BA_LAUNCH(LinearizeSegmentsKernel, NumSegments(d), d);
  PROJ_BA_LAUNCH(FinalSumKernel, 1, d.chunk_partials + kLinearizeWidth - 1, d.num_chunks,
                 kLinearizeWidth, d.segment_terms, NumPriorTerms(d), &d.scalars->cost);
  PROJ_BA_LAUNCH(PointBlocksKernel, Blocks(d.num_points), d);
  PROJ_BA_LAUNCH(PointPriorBlocksKernel, Blocks(d.num_point_priors), d);
  const int max_blocks = std::min(Blocks(d.num_camera_side), 1024);
  PROJ_BA_LAUNCH(MaxAbsKernel, max_blocks, d.gradient_c, d.num_camera_side,
                 &d.scalars->max_gradient_bits);
  PROJ_BA_LAUNCH(MaxAbsKernel, std::min(Blocks(3 * d.num_points), 1024), d.gradient_p,
                 3 * d.num_points, &d.scalars->max_gradient_bits);
}

void LaunchPrepareStep(const BaDeviceData& d, double mu, double* y, double* b,
                       cudaStream_t stream) {
  PROJ_BA_LAUNCH(PointInverseKernel, Blocks(d.num_points), d, mu, y);
  PROJ_BA_LAUNCH(StepChunksKernel, d.num_chunks, d, y);
  PROJ_BA_LAUNCH(StepSegmentsKernel, NumSegments(d), d, mu, b);
}

void LaunchJcV(const BaDeviceData& d, const double* v, double* u, const BaPcgState* pcg,
               cudaStream_t stream) {
  PROJ_BA_LAUNCH(JcVKernel, Blocks(d.num_observations), d, v, u, pcg);
}

void LaunchPointSolve(const BaDeviceData& d, const double* u, const double* add, double sign,
                      double* out, const BaPcgState* pcg, cudaStream_t stream) {
  PROJ_BA_LAUNCH(PointSolveKernel, Blocks(d.num_points), d, u, add, sign, out, pcg);
}

void LaunchPcgInit(const BaDeviceData& d, const BaSolverOptions& options, const double* b,
                   double* x, double* r, double* z, double* p, cudaStream_t stream) {
  const size_t bytes = d.num_camera_side * sizeof(double);
  PROJ_CUDA_CHECK(cudaMemsetAsync(x, 0, bytes, stream));
  PROJ_CUDA_CHECK(cudaMemcpyAsync(r, b, bytes, cudaMemcpyDeviceToDevice, stream));
  const int blocks = Blocks(NumSegments(d));
  PROJ_BA_LAUNCH(PcgUpdateKernel, blocks, d, false, b, p, nullptr, x, r, z);
  PROJ_BA_LAUNCH(PcgStartKernel, 1, d, blocks, options.pcg_relative_tolerance, options.pcg_eta);
  PROJ_CUDA_CHECK(cudaMemcpyAsync(p, z, bytes, cudaMemcpyDeviceToDevice, stream));
}

void LaunchPcgIteration(const BaDeviceData& d, const double* b, double* x, double* r, double* z,
                        double* p, double* q, double* u, double* t, cudaStream_t stream) {
  LaunchJcV(d, p, u, d.pcg, stream);
  LaunchPointSolve(d, u, nullptr, 1.0, t, d.pcg, stream);
  PROJ_BA_LAUNCH(SchurChunksKernel, d.num_chunks, d, u, t);
  PROJ_BA_LAUNCH(SchurSegmentsKernel, NumSegments(d), d, p, q);
  PROJ_BA_LAUNCH(PcgAlphaKernel, 1, d);
  const int blocks = Blocks(NumSegments(d));
  PROJ_BA_LAUNCH(PcgUpdateKernel, blocks, d, true, b, p, q, x, r, z);
  PROJ_BA_LAUNCH(PcgBetaKernel, 1, d, blocks);
  PROJ_BA_LAUNCH(CgDirectionKernel, Blocks(d.num_camera_side), d.num_camera_side, d.pcg, z, p);
}

void LaunchMaskStep(const BaDeviceData& d, double* delta_c, cudaStream_t stream) {
  PROJ_BA_LAUNCH(MaskStepKernel, Blocks(d.num_camera_side), d, delta_c);
}

void LaunchModelChange(const BaDeviceData& d, const double* u, const double* delta_c,
                       const double* delta_p, cudaStream_t stream) {
  const int blocks = Blocks(d.num_observations);
  PROJ_BA_LAUNCH(ModelChangeKernel, blocks, d, u, delta_p);
  PROJ_BA_LAUNCH(PriorModelChangeKernel, Blocks(NumPriorTerms(d)), d, delta_c, delta_p);
  PROJ_BA_LAUNCH(FinalSumKernel, 1, d.block_partials, blocks, 1, d.segment_terms,
                 NumPriorTerms(d), &d.scalars->model_change);
}

void LaunchSquaredNorm(const BaDeviceData& d, const double* a, int na, const double* b, int nb,
                       const double* c, int nc, double* out, cudaStream_t stream) {
  const int blocks = NormBlocks(na + nb + nc);
  PROJ_BA_LAUNCH(SquaredNormKernel, blocks, a, na, b, nb, c, nc, d.block_partials);
  PROJ_BA_LAUNCH(FinalSumKernel, 1, d.block_partials, blocks, 1, nullptr, 0, out);
}

void LaunchCandidate(const BaDeviceData& d, const double* delta_c, const double* delta_p,
                     double* poses, double* camera_params, double* points, cudaStream_t stream) {
  PROJ_BA_LAUNCH(CandidateKernel, Blocks(d.num_images + kCam * d.num_cameras + 3 * d.num_points),
                 d, delta_c, delta_p, poses, camera_params, points);
}

void LaunchCost(const BaDeviceData& d, const double* poses, const double* camera_params,
                const double* points, cudaStream_t stream) {
  const int blocks = Blocks(d.num_observations);
  PROJ_BA_LAUNCH(CostKernel, blocks, d, poses, camera_params, points);
  PROJ_BA_LAUNCH(PriorCostKernel, Blocks(NumPriorTerms(d)), d, poses, camera_params, points);
  PROJ_BA_LAUNCH(FinalSumKernel, 1, d.block_partials, blocks, 1, d.segment_terms,
                 NumPriorTerms(d), &d.scalars->cost);
}

}  // namespace proj::cuda
