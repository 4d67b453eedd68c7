target_sources(proj_sfm PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/zbuffer_canvas.cc
  ${CMAKE_CURRENT_LIST_DIR}/render_view.cc
  ${CMAKE_CURRENT_LIST_DIR}/scene_render.cc)
