# Two-view verification benchmark (CPU): time per pair and relative pose accuracy.
add_executable(two_view_bench ${CMAKE_CURRENT_LIST_DIR}/two_view_bench.cc
  ${PROJECT_SOURCE_DIR}/tests/features/sift_test_support.cc)
target_link_libraries(two_view_bench PRIVATE proj_matching proj_sfm CLI11::CLI11 PkgConfig::TURBOJPEG
  opencv_core opencv_features2d)
proj_warnings(two_view_bench)
