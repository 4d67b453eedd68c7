# PatchMatch stereo on the GPU against the CPU path (issue 24); skips without a GPU.
proj_add_test(patch_match_gpu_test
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/patch_match_gpu_test.cc
  LIBS proj_mvs proj_datasets
  LABELS gpu)
