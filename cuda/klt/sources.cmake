# GPU KLT tracker (issue 5). klt_types.cc (options, status names) is host code built always.
target_sources(proj_cuda PRIVATE ${CMAKE_CURRENT_LIST_DIR}/klt_types.cc)
if(PROJ_WITH_CUDA)
  target_sources(proj_cuda PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/klt_gpu_tracker.cu
    ${CMAKE_CURRENT_LIST_DIR}/klt_affine_refine.cu
    ${CMAKE_CURRENT_LIST_DIR}/klt_lucas_kanade.cu
    ${CMAKE_CURRENT_LIST_DIR}/klt_pyramid.cu
    ${CMAKE_CURRENT_LIST_DIR}/klt_select.cu)
else()
  target_sources(proj_cuda PRIVATE ${CMAKE_CURRENT_LIST_DIR}/klt_gpu_tracker_without_cuda.cc)
endif()
