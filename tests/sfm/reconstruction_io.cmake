proj_add_test(reconstruction_io_test
  SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/ba/synthetic_scene.cc
    ${CMAKE_CURRENT_LIST_DIR}/reconstruction_io/colmap_test_support.cc
    ${CMAKE_CURRENT_LIST_DIR}/reconstruction_io/colmap_text_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/reconstruction_io/colmap_binary_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/reconstruction_io/colmap_tool_test.cc
  LIBS proj_model_io)
