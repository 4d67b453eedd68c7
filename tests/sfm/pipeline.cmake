proj_add_test(sfm_pipeline_test
  SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/ba/synthetic_scene.cc
    ${CMAKE_CURRENT_LIST_DIR}/pipeline/gps_priors_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/pipeline/html_report_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/pipeline/pair_chunks_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/pipeline/stage_options_test.cc
  LIBS proj_sfm)
