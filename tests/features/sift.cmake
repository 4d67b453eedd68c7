# The project's SIFT: CPU properties, and quality against OpenCV's SIFT on Strecha (full-size
# photographs, ~100 s: a binary of its own, labelled slow).
proj_add_test(sift_test
  SOURCES sift_cpu_test.cc sift_test_support.cc
  LIBS proj_features Eigen3::Eigen PkgConfig::TURBOJPEG opencv_core opencv_features2d
  LABELS dataset)
proj_add_test(sift_quality_test
  SOURCES sift_quality_test.cc sift_test_support.cc
  LIBS proj_features Eigen3::Eigen PkgConfig::TURBOJPEG opencv_core opencv_features2d
  LABELS dataset slow)
