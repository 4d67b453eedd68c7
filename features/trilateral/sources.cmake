# Trilateral filter (CPU reference) and its SIFT scale-space builder. -ffp-contract=off keeps
# the float arithmetic identical to the CUDA port (bit-identical gradients and level map).
set(PROJ_TRILATERAL_CPU_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/trilateral_filter.cc)
target_sources(proj_features PRIVATE ${PROJ_TRILATERAL_CPU_SOURCES})
set_source_files_properties(${PROJ_TRILATERAL_CPU_SOURCES} PROPERTIES COMPILE_OPTIONS -ffp-contract=off)
