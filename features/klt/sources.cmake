# KLT tracking (issue 5): the tracker interface and factory, the OpenCV CPU tracker, and the
# synthetic moving-texture frames the tests and benchmark use.
target_sources(proj_features PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/klt_tracker.cc
  ${CMAKE_CURRENT_LIST_DIR}/klt_cpu_tracker.cc
  ${CMAKE_CURRENT_LIST_DIR}/klt_affine_refiner.cc
  ${CMAKE_CURRENT_LIST_DIR}/klt_synthetic.cc)
target_link_libraries(proj_features PRIVATE opencv_video)
