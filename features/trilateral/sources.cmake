# Trilateral filter (CPU reference), whole-image filtering for the CLI, and the SIFT
# scale-space level smoother. -ffp-contract=off keeps the float arithmetic identical to the
# CUDA port (bit-identical gradients and level map).
set(PROJ_TRILATERAL_CPU_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/trilateral_filter.cc
  ${CMAKE_CURRENT_LIST_DIR}/trilateral_filter_image.cc)
if(EXISTS ${PROJECT_SOURCE_DIR}/features/sift/scale_space.h)
  list(APPEND PROJ_TRILATERAL_CPU_SOURCES ${CMAKE_CURRENT_LIST_DIR}/trilateral_level_smoother.cc)
  target_compile_definitions(proj_features PRIVATE PROJ_HAVE_TRILATERAL=1)
endif()
target_sources(proj_features PRIVATE ${PROJ_TRILATERAL_CPU_SOURCES})
set_source_files_properties(${PROJ_TRILATERAL_CPU_SOURCES} PROPERTIES COMPILE_OPTIONS -ffp-contract=off)
