# PatchMatch stereo benchmark: GPU sweeps (CUDA events) and the CPU path on the synthetic ring.
add_executable(patch_match_bench patch_match_bench.cc)
target_link_libraries(patch_match_bench PRIVATE proj_mvs proj_datasets CLI11::CLI11)
proj_warnings(patch_match_bench)
