# SIFT extraction benchmark: GPU (CUDA events) and CPU reference vs OpenCV.
add_executable(sift_bench sift_bench.cc ${PROJECT_SOURCE_DIR}/tests/features/sift_test_support.cc)
target_link_libraries(sift_bench PRIVATE proj_features Eigen3::Eigen PkgConfig::TURBOJPEG
  CLI11::CLI11 opencv_core opencv_features2d)
proj_warnings(sift_bench)
