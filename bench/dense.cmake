# Dense reconstruction measured (issue 24; see bench/RESULTS-dense.md): depth maps against the
# synthetic scene's true depth or against another run's (GPU vs CPU), and fused clouds against
# the true surface or a reference cloud (drone flight, with a rigid best fit).
add_library(dense_eval STATIC ${CMAKE_CURRENT_LIST_DIR}/dense_eval.cc)
target_link_libraries(dense_eval PUBLIC proj_undistort proj_sfm proj_mvs proj_io proj_core)
proj_warnings(dense_eval)

add_executable(dense_depth_accuracy ${CMAKE_CURRENT_LIST_DIR}/dense_depth_accuracy.cc)
target_link_libraries(dense_depth_accuracy PRIVATE dense_eval CLI11::CLI11)
proj_warnings(dense_depth_accuracy)

add_executable(dense_cloud_accuracy ${CMAKE_CURRENT_LIST_DIR}/dense_cloud_accuracy.cc)
target_link_libraries(dense_cloud_accuracy PRIVATE dense_eval CLI11::CLI11)
proj_warnings(dense_cloud_accuracy)
# PatchMatch stereo benchmark: GPU sweeps (CUDA events) and the CPU path on the synthetic ring.
add_executable(patch_match_bench patch_match_bench.cc)
target_link_libraries(patch_match_bench PRIVATE proj_mvs proj_datasets CLI11::CLI11)
proj_warnings(patch_match_bench)

# A surface model against a reference cloud rasterised onto its grid the same way (issue 25).
add_executable(dsm_compare ${CMAKE_CURRENT_LIST_DIR}/dsm_compare.cc)
target_link_libraries(dsm_compare PRIVATE proj_mvs proj_io CLI11::CLI11)
proj_warnings(dsm_compare)
