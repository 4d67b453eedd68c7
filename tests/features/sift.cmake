# The project's SIFT: CPU properties and quality against OpenCV's SIFT on Strecha.
proj_add_test(sift_test
  SOURCES sift_cpu_test.cc sift_quality_test.cc sift_test_support.cc
  LIBS proj_features Eigen3::Eigen PkgConfig::TURBOJPEG opencv_core opencv_features2d)
