find_package(SQLite3 REQUIRED)
proj_add_test(sfm_stages_test
  SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/stages/camera_assignment_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/stages/database_merge_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/stages/gps_priors_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/stages/gps_rebuild_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/mapper/mapper_test_scene.cc
    ${CMAKE_CURRENT_LIST_DIR}/ba/synthetic_scene.cc
    ${CMAKE_CURRENT_LIST_DIR}/stages/mapper_choice_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/stages/model_quality_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/stages/extract_and_match.cc
    ${CMAKE_CURRENT_LIST_DIR}/stages/multi_device_stages_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/stages/pair_chunks_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/stages/shard_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/stages/sharded_stages_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/stages/stage_options_test.cc
    ${PROJECT_SOURCE_DIR}/tests/sfm/database/database_test_util.cc
  LIBS proj_stages proj_datasets SQLite::SQLite3
  LABELS dataset)
