// PROJ_CUDA_CHECK wraps every CUDA API call and launch, in all builds (STYLE P10).
#pragma once

#include <cuda_runtime.h>

#include "core/check.h"

#define PROJ_CUDA_CHECK(call)                                                        \
  do {                                                                               \
    const cudaError_t proj_cuda_status_ = (call);                                    \
    PROJ_CHECK(proj_cuda_status_ == cudaSuccess,                                     \
               "CUDA error " << cudaGetErrorName(proj_cuda_status_) << ": "          \
                             << cudaGetErrorString(proj_cuda_status_));              \
  } while (false)
