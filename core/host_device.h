// PROJ_HOST_DEVICE marks small inline functions and templates (camera projections, the bundle
// adjustment residual) that both host code and CUDA kernels call, so each has one definition.
// Host compilers read it as nothing; nvcc as __host__ __device__. Functions marked with it must
// use no host-only library calls (no std::abs, std::sqrt on the device: use plain sqrt, fabs).
#pragma once

#ifdef __CUDACC__
#define PROJ_HOST_DEVICE __host__ __device__
#else
#define PROJ_HOST_DEVICE
#endif
