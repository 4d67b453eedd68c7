# GPU descriptor matching benchmark.
add_executable(matching_bench matching_bench.cc ${PROJECT_SOURCE_DIR}/tests/features/sift_test_support.cc)
target_link_libraries(matching_bench PRIVATE proj_features Eigen3::Eigen PkgConfig::TURBOJPEG
  CLI11::CLI11 opencv_core opencv_features2d)
proj_warnings(matching_bench)
