# Compares scene databases byte for byte (bench/multi_gpu_bench.sh: 1 vs N GPUs).
add_executable(database_compare database_compare.cc)
target_link_libraries(database_compare PRIVATE proj_sfm CLI11::CLI11)
proj_warnings(database_compare)
