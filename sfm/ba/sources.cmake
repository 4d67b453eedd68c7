# Bundle adjustment: the API and solver choice (bundle_adjuster.cc), the adjustment every solver
# shares, Ceres, and our LM + Schur + PCG solver (host code; its kernels are in cuda/ba).
target_sources(proj_sfm PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/reprojection_cost.cc
  ${CMAKE_CURRENT_LIST_DIR}/position_prior_cost.cc
  ${CMAKE_CURRENT_LIST_DIR}/adjustment.cc
  ${CMAKE_CURRENT_LIST_DIR}/ceres_backend.cc
  ${CMAKE_CURRENT_LIST_DIR}/ba_problem.cc
  ${CMAKE_CURRENT_LIST_DIR}/lm_solver.cc
  ${CMAKE_CURRENT_LIST_DIR}/lm_pcg_packing.cc
  ${CMAKE_CURRENT_LIST_DIR}/schur_pcg_cpu.cc
  ${CMAKE_CURRENT_LIST_DIR}/schur_pcg_gpu.cc
  ${CMAKE_CURRENT_LIST_DIR}/bundle_adjuster.cc)
