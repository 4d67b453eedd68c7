target_sources(proj_sfm PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/colmap_text_writer.cc
  ${CMAKE_CURRENT_LIST_DIR}/colmap_text_reader.cc)
