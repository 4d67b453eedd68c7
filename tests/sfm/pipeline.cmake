proj_add_test(sfm_pipeline_test
  SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/ba/synthetic_scene.cc
    ${CMAKE_CURRENT_LIST_DIR}/pipeline/georeferenced_outputs_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/pipeline/gps_priors_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/pipeline/html_report_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/pipeline/extract_and_match.cc
    ${CMAKE_CURRENT_LIST_DIR}/pipeline/multi_device_stages_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/pipeline/pair_chunks_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/pipeline/stage_options_test.cc
  LIBS proj_sfm proj_datasets
  LABELS dataset)
