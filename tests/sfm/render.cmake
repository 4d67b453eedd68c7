proj_add_test(render_test
  SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/ba/synthetic_scene.cc
    ${CMAKE_CURRENT_LIST_DIR}/render/scene_render_test.cc
  LIBS proj_render)
