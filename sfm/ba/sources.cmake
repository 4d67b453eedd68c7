target_sources(proj_sfm PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/reprojection_cost.cc
  ${CMAKE_CURRENT_LIST_DIR}/position_prior_cost.cc
  ${CMAKE_CURRENT_LIST_DIR}/bundle_adjuster.cc)
target_sources(proj_sfm PRIVATE ${CMAKE_CURRENT_LIST_DIR}/schur_pcg_cpu.cc)
