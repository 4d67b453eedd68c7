# Bundle adjustment: LM + Schur complement + PCG on the GPU. ba_types.cc (checks of the plain
# problem, the GPU's reduction layout) is host code built always: the CPU solver in sfm/ba
# checks its input with it.
target_sources(proj_cuda PRIVATE ${CMAKE_CURRENT_LIST_DIR}/ba_types.cc)
if(PROJ_WITH_CUDA)
  target_sources(proj_cuda PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/ba_kernels.cu
    ${CMAKE_CURRENT_LIST_DIR}/bundle_adjuster_gpu.cu)
else()
  target_sources(proj_cuda PRIVATE ${CMAKE_CURRENT_LIST_DIR}/bundle_adjuster_gpu_without_cuda.cc)
endif()
