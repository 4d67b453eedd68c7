# Geometric-consistency filter and fusion on the synthetic ring's true depth maps (issue 24):
# keep rates, cloud size and accuracy, times by thread count; see bench/RESULTS-fusion.md.
add_executable(fusion_bench ${CMAKE_CURRENT_LIST_DIR}/fusion_bench.cc
                            ${PROJECT_SOURCE_DIR}/tests/mvs/synthetic_truth.cc)
target_link_libraries(fusion_bench PRIVATE proj_mvs proj_datasets CLI11::CLI11)
proj_warnings(fusion_bench)
