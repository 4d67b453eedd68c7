#include "cuda/ba/ba_kernels.cuh"

#include <algorithm>

#include "cuda/ba/ba_block_math.h"
#include "cuda/cuda_check.cuh"

namespace proj::cuda {
namespace {

constexpr int kThreads = 256;  // a multiple of the warp size: warp reductions need full warps
constexpr int kPose = kBaPoseDof;
constexpr int kCam = kBaMaxCameraParams;
constexpr unsigned kFullMask = 0xffffffffu;

int Blocks(int n) { return (n + kThreads - 1) / kThreads; }

__device__ inline double WarpSum(double v) {
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(kFullMask, v, offset);
  return v;
}
__device__ inline bool LaneZero() { return (threadIdx.x & 31) == 0; }

// Whether every lane of the warp has the same key (then sums are reduced across the warp and
// added once). Must be called by all lanes.
__device__ inline bool WarpUniform(int key) {
  return __all_sync(kFullMask, key == __shfl_sync(kFullMask, key, 0));
}
// Adds v to *address for lanes with has_key; with a warp-uniform key, once for the warp. Must be
// called by all lanes with the same `uniform`.
__device__ inline void WarpAtomicAdd(bool uniform, bool has_key, double v, double* address) {
  if (uniform) {
    v = WarpSum(v);
    if (LaneZero() && has_key) atomicAdd(address, v);
  } else if (has_key) {
    atomicAdd(address, v);
  }
}
// Sum of v over the launch added to *out (one atomic per warp).
__device__ inline void AddToTotal(double v, double* out) {
  v = WarpSum(v);
  if (LaneZero() && v != 0) atomicAdd(out, v);
}

// Symmetric block: copies the upper triangle to the lower one.
template <int N>
__device__ inline void MirrorUpper(double* m) {
  for (int i = 0; i < N; ++i) {
    for (int j = 0; j < i; ++j) m[i * N + j] = m[j * N + i];
  }
}

__global__ void LinearizeKernel(BaDeviceData d, double* cost) {
  const int position = blockIdx.x * blockDim.x + threadIdx.x;
  const bool active = position < d.num_observations;
  int image = -1, camera = -1;
  double c = 0;
  BaObservationLinearization l = {};
  if (active) {
    image = d.observation_images[position];
    camera = d.image_cameras[image];
    const int point = d.observation_points[position];
    if (!LinearizeObservation(d.camera_models[camera], d.camera_params + kCam * camera,
                              d.camera_mask[camera], d.poses + kBaPoseStride * image,
                              d.pose_mask[image], d.points + 3 * point,
                              d.point_constant[point] != 0, d.observations_px + 2 * position,
                              d.loss, d.loss_scale, &l, &c)) {
      d.invalid[0] = 1;
      l = {};
      c = 0;
    }
    d.linearization[position] = l;
  }
  AddToTotal(c, cost);
  const bool image_uniform = WarpUniform(image), camera_uniform = WarpUniform(camera);
  for (int i = 0; i < kPose; ++i) {
    WarpAtomicAdd(image_uniform, active,
                  l.jac_pose[0][i] * l.residual[0] + l.jac_pose[1][i] * l.residual[1],
                  d.gradient_c + kPose * image + i);
    for (int j = i; j < kPose; ++j) {
      WarpAtomicAdd(image_uniform, active,
                    l.jac_pose[0][i] * l.jac_pose[0][j] + l.jac_pose[1][i] * l.jac_pose[1][j],
                    d.hessian_pose + kPose * kPose * image + i * kPose + j);
    }
  }
  for (int i = 0; i < kCam; ++i) {
    WarpAtomicAdd(camera_uniform, active,
                  l.jac_camera[0][i] * l.residual[0] + l.jac_camera[1][i] * l.residual[1],
                  d.gradient_c + d.camera_offset + kCam * camera + i);
    for (int j = i; j < kCam; ++j) {
      WarpAtomicAdd(camera_uniform, active,
                    l.jac_camera[0][i] * l.jac_camera[0][j] + l.jac_camera[1][i] * l.jac_camera[1][j],
                    d.hessian_camera + kCam * kCam * camera + i * kCam + j);
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

__global__ void MaxAbsKernel(const double* v, int n, unsigned long long* out) {
  double m = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    m = fmax(m, fabs(v[i]));
  }
  for (int offset = 16; offset > 0; offset >>= 1) m = fmax(m, __shfl_down_sync(kFullMask, m, offset));
  // Non-negative doubles order like their bit patterns.
  if (LaneZero()) atomicMax(out, static_cast<unsigned long long>(__double_as_longlong(m)));
}

template <int N>
__device__ void InitBlock(const double* hessian, double mu, const double* gradient, double* damping,
                          double* preconditioner, double* b) {
  for (int k = 0; k < N * N; ++k) preconditioner[k] = hessian[k];
  MirrorUpper<N>(preconditioner);
  for (int k = 0; k < N; ++k) {
    damping[k] = LmDamping(hessian[k * N + k], mu);
    preconditioner[k * N + k] += damping[k];
    b[k] = -gradient[k];
  }
}

__global__ void InitStepKernel(BaDeviceData d, double mu, double* b) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < d.num_images) {
    InitBlock<kPose>(d.hessian_pose + kPose * kPose * t, mu, d.gradient_c + kPose * t,
                     d.damping_c + kPose * t, d.preconditioner_pose + kPose * kPose * t,
                     b + kPose * t);
  } else if (t < d.num_images + d.num_cameras) {
    const int camera = t - d.num_images;
    const int offset = d.camera_offset + kCam * camera;
    InitBlock<kCam>(d.hessian_camera + kCam * kCam * camera, mu, d.gradient_c + offset,
                    d.damping_c + offset, d.preconditioner_camera + kCam * kCam * camera,
                    b + offset);
  }
}

__global__ void PointInverseKernel(BaDeviceData d, double mu, double* y) {
  const int point = blockIdx.x * blockDim.x + threadIdx.x;
  if (point >= d.num_points) return;
  double a[9];
  for (int k = 0; k < 9; ++k) a[k] = d.hessian_point[9 * point + k];
  for (int k = 0; k < 3; ++k) a[4 * k] += LmDamping(a[4 * k], mu);
  if (!InvertSymmetricPositive<3>(a)) d.invalid[0] = 1;
  for (int k = 0; k < 9; ++k) d.point_inverse[9 * point + k] = a[k];
  MatVec(a, d.gradient_p + 3 * point, 3, y + 3 * point);
}

__global__ void RhsAndPreconditionerKernel(BaDeviceData d, const double* y, double* b) {
  const int position = blockIdx.x * blockDim.x + threadIdx.x;
  const bool active = position < d.num_observations;
  int image = -1, camera = -1;
  BaObservationLinearization l = {};
  double ainv[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0}, v[2] = {0, 0};
  if (active) {
    image = d.observation_images[position];
    camera = d.image_cameras[image];
    const int point = d.observation_points[position];
    l = d.linearization[position];
    for (int k = 0; k < 9; ++k) ainv[k] = d.point_inverse[9 * point + k];
    AddXv<3>(l.jac_point, y + 3 * point, v);
  }
  const bool image_uniform = WarpUniform(image), camera_uniform = WarpUniform(camera);
  {
    double coupling[kPose * 3], coupling_ainv[kPose * 3];
    SchurCoupling<kPose>(l.jac_pose, l.jac_point, ainv, coupling, coupling_ainv);
    for (int i = 0; i < kPose; ++i) {
      WarpAtomicAdd(image_uniform, active, l.jac_pose[0][i] * v[0] + l.jac_pose[1][i] * v[1],
                    b + kPose * image + i);
      for (int j = i; j < kPose; ++j) {
        WarpAtomicAdd(image_uniform, active, -SchurTerm(coupling_ainv, coupling, i, j),
                      d.preconditioner_pose + kPose * kPose * image + i * kPose + j);
      }
    }
  }
  double coupling[kCam * 3], coupling_ainv[kCam * 3];
  SchurCoupling<kCam>(l.jac_camera, l.jac_point, ainv, coupling, coupling_ainv);
  for (int i = 0; i < kCam; ++i) {
    WarpAtomicAdd(camera_uniform, active, l.jac_camera[0][i] * v[0] + l.jac_camera[1][i] * v[1],
                  b + d.camera_offset + kCam * camera + i);
    for (int j = i; j < kCam; ++j) {
      WarpAtomicAdd(camera_uniform, active, -SchurTerm(coupling_ainv, coupling, i, j),
                    d.preconditioner_camera + kCam * kCam * camera + i * kCam + j);
    }
  }
}

__global__ void InvertPreconditionerKernel(BaDeviceData d) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < d.num_images) {
    double* m = d.preconditioner_pose + kPose * kPose * t;
    MirrorUpper<kPose>(m);
    InvertPreconditionerBlock<kPose>(m);
  } else if (t < d.num_images + d.num_cameras) {
    double* m = d.preconditioner_camera + kCam * kCam * (t - d.num_images);
    MirrorUpper<kCam>(m);
    InvertPreconditionerBlock<kCam>(m);
  }
}

__global__ void JcVKernel(BaDeviceData d, const double* v, double* u) {
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
                                 double* out) {
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

__global__ void DampedCopyKernel(int n, const double* damping, const double* v, double* q) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) q[i] = damping[i] * v[i];
}

__global__ void SchurScatterKernel(BaDeviceData d, const double* u, const double* t, double* q) {
  const int position = blockIdx.x * blockDim.x + threadIdx.x;
  const bool active = position < d.num_observations;
  int image = -1, camera = -1;
  BaObservationLinearization l = {};
  double z[2] = {0, 0};
  if (active) {
    image = d.observation_images[position];
    camera = d.image_cameras[image];
    l = d.linearization[position];
    const int point = d.observation_points[position];
    double jt[2] = {0, 0};
    AddXv<3>(l.jac_point, t + 3 * point, jt);
    z[0] = u[2 * position] - jt[0];
    z[1] = u[2 * position + 1] - jt[1];
  }
  const bool image_uniform = WarpUniform(image), camera_uniform = WarpUniform(camera);
  for (int i = 0; i < kPose; ++i) {
    WarpAtomicAdd(image_uniform, active, l.jac_pose[0][i] * z[0] + l.jac_pose[1][i] * z[1],
                  q + kPose * image + i);
  }
  for (int i = 0; i < kCam; ++i) {
    WarpAtomicAdd(camera_uniform, active, l.jac_camera[0][i] * z[0] + l.jac_camera[1][i] * z[1],
                  q + d.camera_offset + kCam * camera + i);
  }
}

__global__ void PreconditionKernel(BaDeviceData d, const double* r, const double* x,
                                   const double* b, double* z, double* sums) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  double rr = 0, rz = 0, q = 0;
  auto apply = [&](const double* m, int n, int offset) {
    MatVec(m, r + offset, n, z + offset);
    for (int k = 0; k < n; ++k) {
      rr += r[offset + k] * r[offset + k];
      rz += r[offset + k] * z[offset + k];
      q -= x[offset + k] * (b[offset + k] + r[offset + k]);
    }
  };
  if (t < d.num_images) {
    apply(d.preconditioner_pose + kPose * kPose * t, kPose, kPose * t);
  } else if (t < d.num_images + d.num_cameras) {
    const int camera = t - d.num_images;
    apply(d.preconditioner_camera + kCam * kCam * camera, kCam, d.camera_offset + kCam * camera);
  }
  AddToTotal(rr, sums);
  AddToTotal(rz, sums + 1);
  AddToTotal(q, sums + 2);
}

__global__ void CgUpdateKernel(int n, double alpha, const double* p, const double* q, double* x,
                               double* r) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  x[i] += alpha * p[i];
  r[i] -= alpha * q[i];
}

__global__ void CgDirectionKernel(int n, double beta, const double* z, double* p) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = z[i] + beta * p[i];
}

__global__ void DotKernel(const double* a, const double* b, int n, double* out) {
  double s = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    s += a[i] * b[i];
  }
  AddToTotal(s, out);
}

__global__ void MaskStepKernel(BaDeviceData d, double* delta_c) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < d.camera_offset) {
    if ((d.pose_mask[i / kPose] >> (i % kPose)) & 1) delta_c[i] = 0;
  } else if (i < d.num_camera_side) {
    const int k = i - d.camera_offset;
    if ((d.camera_mask[k / kCam] >> (k % kCam)) & 1) delta_c[i] = 0;
  }
}

__global__ void ModelChangeKernel(BaDeviceData d, const double* u, const double* delta_p,
                                  double* out) {
  const int position = blockIdx.x * blockDim.x + threadIdx.x;
  double change = 0;
  if (position < d.num_observations) {
    const BaObservationLinearization& l = d.linearization[position];
    double e[2] = {u[2 * position], u[2 * position + 1]};
    AddXv<3>(l.jac_point, delta_p + 3 * d.observation_points[position], e);
    change = -(l.residual[0] * e[0] + l.residual[1] * e[1] + 0.5 * (e[0] * e[0] + e[1] * e[1]));
  }
  AddToTotal(change, out);
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

__global__ void CostKernel(BaDeviceData d, const double* poses, const double* camera_params,
                           const double* points, double* cost) {
  const int position = blockIdx.x * blockDim.x + threadIdx.x;
  double c = 0;
  if (position < d.num_observations) {
    const int image = d.observation_images[position];
    const int camera = d.image_cameras[image];
    if (!ObservationCost(d.camera_models[camera], camera_params + kCam * camera,
                         poses + kBaPoseStride * image,
                         points + 3 * d.observation_points[position],
                         d.observations_px + 2 * position, d.loss, d.loss_scale, &c)) {
      d.invalid[0] = 1;
      c = 0;
    }
  }
  AddToTotal(c, cost);
}

}  // namespace

#define PROJ_BA_LAUNCH(kernel, n, ...)                                           \
  do {                                                                           \
    if ((n) > 0) {                                                               \
      kernel<<<Blocks(n), kThreads, 0, stream>>>(__VA_ARGS__);                   \
      PROJ_CUDA_CHECK(cudaGetLastError());                                       \
    }                                                                            \
  } while (false)

void LaunchLinearize(const BaDeviceData& d, double* cost, cudaStream_t stream) {
  PROJ_BA_LAUNCH(LinearizeKernel, d.num_observations, d, cost);
}
void LaunchPointBlocks(const BaDeviceData& d, cudaStream_t stream) {
  PROJ_BA_LAUNCH(PointBlocksKernel, d.num_points, d);
}
void LaunchMaxAbs(const double* v, int n, unsigned long long* out, cudaStream_t stream) {
  PROJ_BA_LAUNCH(MaxAbsKernel, std::min(n, 1024 * kThreads), v, n, out);
}
void LaunchInitStep(const BaDeviceData& d, double mu, double* b, cudaStream_t stream) {
  PROJ_BA_LAUNCH(InitStepKernel, d.num_images + d.num_cameras, d, mu, b);
}
void LaunchPointInverse(const BaDeviceData& d, double mu, double* y, cudaStream_t stream) {
  PROJ_BA_LAUNCH(PointInverseKernel, d.num_points, d, mu, y);
}
void LaunchRhsAndPreconditioner(const BaDeviceData& d, const double* y, double* b,
                                cudaStream_t stream) {
  PROJ_BA_LAUNCH(RhsAndPreconditionerKernel, d.num_observations, d, y, b);
}
void LaunchInvertPreconditioner(const BaDeviceData& d, cudaStream_t stream) {
  PROJ_BA_LAUNCH(InvertPreconditionerKernel, d.num_images + d.num_cameras, d);
}
void LaunchJcV(const BaDeviceData& d, const double* v, double* u, cudaStream_t stream) {
  PROJ_BA_LAUNCH(JcVKernel, d.num_observations, d, v, u);
}
void LaunchPointSolve(const BaDeviceData& d, const double* u, const double* add, double sign,
                      double* out, cudaStream_t stream) {
  PROJ_BA_LAUNCH(PointSolveKernel, d.num_points, d, u, add, sign, out);
}
void LaunchSchurScatter(const BaDeviceData& d, const double* v, const double* u, const double* t,
                        double* q, cudaStream_t stream) {
  PROJ_BA_LAUNCH(DampedCopyKernel, d.num_camera_side, d.num_camera_side, d.damping_c, v, q);
  PROJ_BA_LAUNCH(SchurScatterKernel, d.num_observations, d, u, t, q);
}
void LaunchPrecondition(const BaDeviceData& d, const double* r, const double* x, const double* b,
                        double* z, double* sums, cudaStream_t stream) {
  PROJ_BA_LAUNCH(PreconditionKernel, d.num_images + d.num_cameras, d, r, x, b, z, sums);
}
void LaunchCgUpdate(int n, double alpha, const double* p, const double* q, double* x, double* r,
                    cudaStream_t stream) {
  PROJ_BA_LAUNCH(CgUpdateKernel, n, n, alpha, p, q, x, r);
}
void LaunchCgDirection(int n, double beta, const double* z, double* p, cudaStream_t stream) {
  PROJ_BA_LAUNCH(CgDirectionKernel, n, n, beta, z, p);
}
void LaunchDot(const double* a, const double* b, int n, double* out, cudaStream_t stream) {
  PROJ_BA_LAUNCH(DotKernel, std::min(n, 1024 * kThreads), a, b, n, out);
}
void LaunchMaskStep(const BaDeviceData& d, double* delta_c, cudaStream_t stream) {
  PROJ_BA_LAUNCH(MaskStepKernel, d.num_camera_side, d, delta_c);
}
void LaunchModelChange(const BaDeviceData& d, const double* u, const double* delta_p, double* out,
                       cudaStream_t stream) {
  PROJ_BA_LAUNCH(ModelChangeKernel, d.num_observations, d, u, delta_p, out);
}
void LaunchCandidate(const BaDeviceData& d, const double* delta_c, const double* delta_p,
                     double* poses, double* camera_params, double* points, cudaStream_t stream) {
  PROJ_BA_LAUNCH(CandidateKernel, d.num_images + kCam * d.num_cameras + 3 * d.num_points, d,
                 delta_c, delta_p, poses, camera_params, points);
}
void LaunchCost(const BaDeviceData& d, const double* poses, const double* camera_params,
                const double* points, double* cost, cudaStream_t stream) {
  PROJ_BA_LAUNCH(CostKernel, d.num_observations, d, poses, camera_params, points, cost);
}

}  // namespace proj::cuda
