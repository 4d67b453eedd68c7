# PatchMatch stereo on CUDA (host API: cuda/mvs/patch_match_gpu.h).
if(PROJ_WITH_CUDA)
  target_sources(proj_cuda PRIVATE ${CMAKE_CURRENT_LIST_DIR}/patch_match_gpu.cu)
else()
  target_sources(proj_cuda PRIVATE ${CMAKE_CURRENT_LIST_DIR}/patch_match_gpu_without_cuda.cc)
endif()
