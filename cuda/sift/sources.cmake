# The project's SIFT on CUDA (host API: cuda/sift/sift_gpu.h).
if(PROJ_WITH_CUDA)
  target_sources(proj_cuda PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/scale_space_gpu.cu
    ${CMAKE_CURRENT_LIST_DIR}/sift_detect.cu
    ${CMAKE_CURRENT_LIST_DIR}/sift_describe.cu
    ${CMAKE_CURRENT_LIST_DIR}/sift_order.cu
    ${CMAKE_CURRENT_LIST_DIR}/sift_gpu.cu)
  # The pyramid and the refinement round exactly as the CPU reference (no fused multiply-add).
  set_source_files_properties(
    ${CMAKE_CURRENT_LIST_DIR}/scale_space_gpu.cu ${CMAKE_CURRENT_LIST_DIR}/sift_detect.cu
    TARGET_DIRECTORY proj_cuda PROPERTIES COMPILE_OPTIONS "-fmad=false")
else()
  target_sources(proj_cuda PRIVATE ${CMAKE_CURRENT_LIST_DIR}/sift_gpu_without_cuda.cc)
endif()
