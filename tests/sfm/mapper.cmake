proj_add_test(sfm_mapper_test
  SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/track_builder_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/scene_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/ba/synthetic_scene.cc
    ${CMAKE_CURRENT_LIST_DIR}/mapper/mapper_test_scene.cc
    ${CMAKE_CURRENT_LIST_DIR}/mapper/track_visibility_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/mapper/incremental_mapper_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/mapper/principal_point_rule_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/mapper/prior_alignment_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/mapper/gps_dome_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/mapper/dome_correction_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/mapper/local_adjustment_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/mapper/initial_pair_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/mapper/scene_geometry_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/mapper/keyframes_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/mapper/dense_object_tracks_test.cc
  LIBS proj_mapper proj_datasets proj_matching)
