proj_add_test(sfm_partition_test
  SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/partition/image_partition_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/partition/part_merge_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/partition/partitioned_mapping_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/mapper/mapper_test_scene.cc
    ${CMAKE_CURRENT_LIST_DIR}/ba/synthetic_scene.cc
  LIBS proj_stages)
