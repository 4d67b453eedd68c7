# Trilateral filter on the GPU (host-only API in trilateral_gpu.h) and its SIFT scale-space
# hook (trilateral_level.cuh). No fast-math flags here: the gradient and level steps must
# round exactly like the CPU reference.
target_sources(proj_cuda PRIVATE ${CMAKE_CURRENT_LIST_DIR}/trilateral_gpu_options.cc)
if(PROJ_WITH_CUDA)
  target_sources(proj_cuda PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/trilateral_gpu.cu
    ${CMAKE_CURRENT_LIST_DIR}/trilateral_kernels.cu
    ${CMAKE_CURRENT_LIST_DIR}/trilateral_pipeline.cu)
  if(EXISTS ${PROJECT_SOURCE_DIR}/cuda/sift/scale_space_gpu.cuh)
    target_sources(proj_cuda PRIVATE ${CMAKE_CURRENT_LIST_DIR}/trilateral_level.cu)
    target_compile_definitions(proj_cuda PRIVATE PROJ_HAVE_CUDA_TRILATERAL=1)
  endif()
else()
  target_sources(proj_cuda PRIVATE ${CMAKE_CURRENT_LIST_DIR}/trilateral_gpu_without_cuda.cc)
endif()
