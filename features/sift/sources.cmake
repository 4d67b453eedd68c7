target_sources(proj_features PRIVATE ${CMAKE_CURRENT_LIST_DIR}/sift_extractor_factory.cc)
