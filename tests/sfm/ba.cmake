proj_add_test(ba_test
  SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/ba/synthetic_scene.cc
    ${CMAKE_CURRENT_LIST_DIR}/ba/bal_problem.cc
    ${CMAKE_CURRENT_LIST_DIR}/ba/reprojection_cost_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/ba/bundle_adjuster_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/ba/bal_bundle_adjustment_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/ba/ba_test_scenes.cc
    ${CMAKE_CURRENT_LIST_DIR}/ba/schur_pcg_cpu_test.cc
  LIBS proj_ba Ceres::ceres
  LABELS dataset)
