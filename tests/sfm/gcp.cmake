proj_add_test(sfm_gcp_test
  SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/ba/synthetic_scene.cc
    ${CMAKE_CURRENT_LIST_DIR}/gcp/gcp_file_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/gcp/ground_control_test.cc
  LIBS proj_gcp)
