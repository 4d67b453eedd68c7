proj_add_test(sfm_mapper_test
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/track_builder_test.cc ${CMAKE_CURRENT_LIST_DIR}/scene_test.cc
  LIBS proj_sfm)
