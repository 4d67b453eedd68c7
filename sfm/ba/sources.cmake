target_sources(proj_sfm PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/reprojection_cost.cc
  ${CMAKE_CURRENT_LIST_DIR}/bundle_adjuster.cc)
