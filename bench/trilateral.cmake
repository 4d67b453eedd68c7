# Trilateral filter benchmark (CPU reference and GPU methods); see bench/RESULTS-trilateral.md.
add_executable(trilateral_bench ${CMAKE_CURRENT_LIST_DIR}/trilateral_bench.cc)
target_link_libraries(trilateral_bench PRIVATE proj_features proj_io proj_cuda CLI11::CLI11)
proj_warnings(trilateral_bench)
# Issue 4 experiment 2: matching under perturbation, Gaussian vs trilateral SIFT.
add_executable(trilateral_matching_bench ${CMAKE_CURRENT_LIST_DIR}/trilateral_matching_bench.cc)
target_link_libraries(trilateral_matching_bench PRIVATE proj_features proj_matching proj_io CLI11::CLI11)
proj_warnings(trilateral_matching_bench)
