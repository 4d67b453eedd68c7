find_package(SQLite3 REQUIRED)
proj_add_test(database_test
  SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/database/database_test_util.cc
    ${CMAKE_CURRENT_LIST_DIR}/database/scene_database_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/database/scene_database_tables_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/database/scene_database_open_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/database/colmap_interop_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/database/database_digest_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/database/view_graph_loader_test.cc
  LIBS proj_database proj_model_io SQLite::SQLite3)
