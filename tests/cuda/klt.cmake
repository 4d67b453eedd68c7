# GPU KLT tracker against the truth and the OpenCV tracker (issue 5); skips without a GPU.
proj_add_test(klt_gpu_test
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/klt_gpu_tracker_test.cc
  LIBS proj_matching proj_features proj_cuda
  LABELS gpu)
