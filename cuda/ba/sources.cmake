# Bundle adjustment: LM + Schur complement + PCG on the GPU. ba_problem.cc and
# lm_solver.cc are host code built always: the CPU solver in sfm/ba shares them.
target_sources(proj_cuda PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/ba_problem.cc
  ${CMAKE_CURRENT_LIST_DIR}/lm_solver.cc)
if(PROJ_WITH_CUDA)
  target_sources(proj_cuda PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/ba_kernels.cu
    ${CMAKE_CURRENT_LIST_DIR}/bundle_adjuster_gpu.cu)
else()
  target_sources(proj_cuda PRIVATE ${CMAKE_CURRENT_LIST_DIR}/bundle_adjuster_gpu_without_cuda.cc)
endif()
