# GPU bundle adjuster against our CPU solver and Ceres; skips without a GPU.
proj_add_test(ba_gpu_test
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/ba_gpu_test.cc
    ${PROJECT_SOURCE_DIR}/tests/sfm/ba/ba_test_scenes.cc
    ${PROJECT_SOURCE_DIR}/tests/sfm/ba/synthetic_scene.cc
    ${PROJECT_SOURCE_DIR}/tests/sfm/ba/bal_problem.cc
  LIBS proj_sfm proj_cuda
  LABELS gpu dataset)
