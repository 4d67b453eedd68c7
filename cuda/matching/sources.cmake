# Brute-force descriptor matching on CUDA (host API: cuda/matching/descriptor_matcher_gpu.h).
if(PROJ_WITH_CUDA)
  target_sources(proj_cuda PRIVATE ${CMAKE_CURRENT_LIST_DIR}/descriptor_matcher_gpu.cu)
else()
  target_sources(proj_cuda PRIVATE ${CMAKE_CURRENT_LIST_DIR}/descriptor_matcher_gpu_without_cuda.cc)
endif()
