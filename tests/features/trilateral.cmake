proj_add_test(trilateral_filter_test
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/trilateral_filter_test.cc
  LIBS proj_features)
