# The CUDA SIFT against the CPU reference (skips without a GPU).
proj_add_test(sift_gpu_test
  SOURCES sift_gpu_test.cc ../features/sift_test_support.cc
  LIBS proj_features Eigen3::Eigen PkgConfig::TURBOJPEG opencv_core opencv_features2d
  LABELS gpu dataset)
