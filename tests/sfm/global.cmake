proj_add_test(sfm_global_test
  SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/global/rotation_averaging_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/global/global_positioning_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/global/scale_check_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/global/prior_start_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/global/global_mapper_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/global/global_mapper_flight_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/global/focal_calibration_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/global/focal_bootstrap_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/global/view_graph_calibration_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/global/ring_view_graph.cc
    ${CMAKE_CURRENT_LIST_DIR}/global/flight_view_graph.cc
    ${CMAKE_CURRENT_LIST_DIR}/ba/synthetic_scene.cc
    ${CMAKE_CURRENT_LIST_DIR}/mapper/mapper_test_scene.cc
  LIBS proj_global_mapper proj_datasets proj_matching)
