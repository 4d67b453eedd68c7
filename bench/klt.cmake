# KLT tracker benchmark (GPU stages with CUDA events, OpenCV CPU tracker, 300-frame sequences,
# frames to verified correspondences through the pipeline's code); see bench/RESULTS-klt.md.
add_executable(klt_bench ${CMAKE_CURRENT_LIST_DIR}/klt_bench.cc)
target_link_libraries(klt_bench PRIVATE proj_sfm proj_datasets proj_matching proj_features proj_cuda CLI11::CLI11)
proj_warnings(klt_bench)

# KLT tracks against the synthetic street's ground truth (drift by track age; issue 16).
add_executable(klt_drift_bench ${CMAKE_CURRENT_LIST_DIR}/klt_drift_bench.cc)
target_link_libraries(klt_drift_bench PRIVATE proj_sfm proj_datasets proj_features CLI11::CLI11)
proj_warnings(klt_drift_bench)
