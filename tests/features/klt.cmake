# KLT tracker (CPU path), the KLT sequence matcher and its overlapped verification (issue 5).
proj_add_test(klt_test
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/klt_tracker_test.cc
          ${CMAKE_CURRENT_LIST_DIR}/klt_sequence_matcher_test.cc
          ${CMAKE_CURRENT_LIST_DIR}/klt_sequence_verification_test.cc
  LIBS proj_matching proj_features)
