proj_add_test(trilateral_filter_test
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/trilateral_filter_test.cc
  LIBS proj_features)
if(EXISTS ${PROJECT_SOURCE_DIR}/features/sift/scale_space.h)
  proj_add_test(trilateral_integration_test
    SOURCES ${CMAKE_CURRENT_LIST_DIR}/trilateral_integration_test.cc
    LIBS proj_features)
endif()
