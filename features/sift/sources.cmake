# The project's SIFT: CPU reference (always) and the adapter onto the CUDA implementation.
target_sources(proj_features PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/sift_params.cc
  ${CMAKE_CURRENT_LIST_DIR}/scale_space.cc
  ${CMAKE_CURRENT_LIST_DIR}/sift_detector.cc
  ${CMAKE_CURRENT_LIST_DIR}/sift_descriptor.cc
  ${CMAKE_CURRENT_LIST_DIR}/sift_cpu.cc
  ${CMAKE_CURRENT_LIST_DIR}/gpu_sift_extractor.cc
  ${CMAKE_CURRENT_LIST_DIR}/sift_extractor_factory.cc)
# The gradient loops of the descriptors vectorize only when the compiler may evaluate both
# sides of a select and take sqrt as an instruction (nothing here reads FP exceptions or
# errno); values are unchanged.
set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/sift_descriptor.cc PROPERTIES
  COMPILE_OPTIONS "-fno-trapping-math;-fno-math-errno")
# The pyramid and the keypoint refinement round as the CUDA SIFT's (compiled with -fmad=false,
# cuda/sift/sources.cmake): no fused multiply-add, which -march=x86-64-v3 would otherwise let
# the compiler form in the vectorized blur loops (bit-identical pyramids on both devices).
set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/scale_space.cc
  ${CMAKE_CURRENT_LIST_DIR}/sift_detector.cc PROPERTIES COMPILE_OPTIONS -ffp-contract=off)
