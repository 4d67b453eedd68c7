# The CUDA descriptor matcher against the CPU reference (skips without a GPU).
proj_add_test(matching_gpu_test
  SOURCES descriptor_matcher_gpu_test.cc ../features/sift_test_support.cc
  LIBS proj_matching proj_features Eigen3::Eigen PkgConfig::TURBOJPEG opencv_core opencv_features2d
  LABELS gpu dataset)
