# Bundle adjustment benchmark: Ceres vs our LM-PCG solver on the CPU and on the GPU (CUDA
# events), on a BAL problem and large generated aerial scenes.
add_executable(ba_bench ${CMAKE_CURRENT_LIST_DIR}/ba_bench.cc
  ${PROJECT_SOURCE_DIR}/tests/sfm/ba/bal_problem.cc
  ${PROJECT_SOURCE_DIR}/tests/sfm/ba/synthetic_scene.cc
  ${PROJECT_SOURCE_DIR}/tests/sfm/ba/ba_test_scenes.cc)
target_link_libraries(ba_bench PRIVATE proj_sfm proj_cuda CLI11::CLI11)
proj_warnings(ba_bench)
