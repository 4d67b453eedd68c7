# KLT sequence matcher (issue 5): correspondences from tracks over ordered frames.
target_sources(proj_matching PRIVATE ${CMAKE_CURRENT_LIST_DIR}/klt_sequence_matcher.cc)
# Tracking with the pairs' geometric verification overlapped (the pipeline's --matcher klt).
target_sources(proj_matching PRIVATE ${CMAKE_CURRENT_LIST_DIR}/klt_sequence_verification.cc)
