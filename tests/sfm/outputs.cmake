proj_add_test(sfm_outputs_test
  SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/ba/synthetic_scene.cc
    ${CMAKE_CURRENT_LIST_DIR}/outputs/georeferenced_outputs_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/outputs/html_report_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/outputs/quality_report_test.cc
  LIBS proj_outputs)
