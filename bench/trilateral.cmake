# Trilateral filter benchmark (CPU reference and GPU methods); see bench/RESULTS-trilateral.md.
add_executable(trilateral_bench ${CMAKE_CURRENT_LIST_DIR}/trilateral_bench.cc)
target_link_libraries(trilateral_bench PRIVATE proj_features proj_io proj_cuda CLI11::CLI11)
proj_warnings(trilateral_bench)
