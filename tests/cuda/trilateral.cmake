proj_add_test(trilateral_gpu_test
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/trilateral_gpu_test.cc
  LIBS proj_features proj_cuda
  LABELS gpu)
if(PROJ_WITH_CUDA AND EXISTS ${PROJECT_SOURCE_DIR}/cuda/sift/scale_space_gpu.cuh)
  proj_add_test(trilateral_level_test
    SOURCES ${CMAKE_CURRENT_LIST_DIR}/trilateral_level_test.cu
    LIBS proj_features proj_cuda CUDA::cudart_static
    LABELS gpu)
endif()
if(PROJ_WITH_CUDA)
  proj_add_test(trilateral_detail_emulation_test
    SOURCES ${CMAKE_CURRENT_LIST_DIR}/trilateral_detail_emulation_test.cu
    LIBS proj_features proj_cuda CUDA::cudart_static
    LABELS gpu)
endif()
