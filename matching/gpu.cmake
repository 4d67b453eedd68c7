# DescriptorMatcher over the CUDA brute-force matcher (throws without a device or CUDA).
target_sources(proj_matching PRIVATE ${CMAKE_CURRENT_LIST_DIR}/gpu_descriptor_matcher.cc)
