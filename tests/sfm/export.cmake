# sfm export: the library on a synthetic model whose images show its points as dots.
proj_add_test(export_test
  SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/export/model_export_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/export/export_test_scene.cc
    ${CMAKE_CURRENT_LIST_DIR}/export/nerfstudio_transforms_reader.cc
  LIBS proj_export proj_model_io proj_io)

# sfm export run as a program, on a hand-made model (seconds: no reconstruction).
proj_add_test(export_cli_test
  SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/export/export_cli_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/export/export_test_scene.cc
    ${CMAKE_CURRENT_LIST_DIR}/export/nerfstudio_transforms_reader.cc
    ${PROJECT_SOURCE_DIR}/tests/integration/sfm_process.cc
  LIBS proj_image_source proj_model_io proj_io
  LABELS integration)
add_dependencies(export_cli_test sfm)
