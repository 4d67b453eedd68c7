# The project's SIFT: CPU reference (always) and the adapter onto the CUDA implementation.
target_sources(proj_features PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/sift_params.cc
  ${CMAKE_CURRENT_LIST_DIR}/scale_space.cc
  ${CMAKE_CURRENT_LIST_DIR}/sift_detector.cc
  ${CMAKE_CURRENT_LIST_DIR}/sift_descriptor.cc
  ${CMAKE_CURRENT_LIST_DIR}/sift_cpu.cc
  ${CMAKE_CURRENT_LIST_DIR}/gpu_sift_extractor.cc
  ${CMAKE_CURRENT_LIST_DIR}/sift_extractor_factory.cc)
