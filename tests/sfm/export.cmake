# sfm export: the library on a synthetic model whose images show its points as dots.
proj_add_test(export_test
  SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/export/model_export_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/export/export_test_scene.cc
    ${CMAKE_CURRENT_LIST_DIR}/export/nerfstudio_transforms_reader.cc
  LIBS proj_export proj_model_io proj_io)
