target_sources(proj_sfm PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/database_digest.cc
  ${CMAKE_CURRENT_LIST_DIR}/database_encoding.cc
  ${CMAKE_CURRENT_LIST_DIR}/database_file_check.cc
  ${CMAKE_CURRENT_LIST_DIR}/database_schema.cc
  ${CMAKE_CURRENT_LIST_DIR}/scene_database.cc
  ${CMAKE_CURRENT_LIST_DIR}/scene_database_features.cc
  ${CMAKE_CURRENT_LIST_DIR}/scene_database_images.cc
  ${CMAKE_CURRENT_LIST_DIR}/sqlite_statement.cc)
find_package(SQLite3 REQUIRED)
target_link_libraries(proj_sfm PRIVATE SQLite::SQLite3)
