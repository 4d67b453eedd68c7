target_sources(proj_sfm PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/colmap_model_builder.cc
  ${CMAKE_CURRENT_LIST_DIR}/colmap_text_writer.cc
  ${CMAKE_CURRENT_LIST_DIR}/colmap_text_reader.cc
  ${CMAKE_CURRENT_LIST_DIR}/colmap_binary_writer.cc
  ${CMAKE_CURRENT_LIST_DIR}/colmap_binary_reader.cc
  ${CMAKE_CURRENT_LIST_DIR}/colmap_model.cc)
