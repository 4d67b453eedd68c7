# Installation (cmake --install build --prefix /usr/local) and the Debian package
# (cd build && cpack -G DEB). sfm needs no data files at run time: report.html's scripts are
# compiled into it. Installed: bin/sfm, share/doc/gpusfm/ (README, three.js licence) and, when
# built (python/CMakeLists.txt), the Python package in lib/python3.X/dist-packages/gpusfm.
# Packaging needs only sfm and _gpusfm built (scripts/package.sh), not every test and benchmark.
set(CMAKE_SKIP_INSTALL_ALL_DEPENDENCY ON)
install(TARGETS sfm RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME gpusfm)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "Structure-from-Motion: photos in, camera poses and a coloured point cloud out")
string(CONCAT CPACK_PACKAGE_DESCRIPTION
    "sfm turns a folder of photos into camera poses and a coloured sparse point cloud (PLY, "
    "COLMAP text model) with a report page; SIFT, matching and bundle adjustment run on the "
    "CPU or, when built with CUDA, on an NVIDIA GPU.")
set(CPACK_PACKAGE_CONTACT "gpusfm developers <gpusfm@example.invalid>")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${CPACK_PACKAGE_CONTACT}")
set(CPACK_DEBIAN_PACKAGE_SECTION science)
# Dependencies from the shared libraries sfm links (dpkg-shlibdeps, package dpkg-dev).
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
if(PROJ_WITH_PYTHON)
  # The extension module is built for this Python version, and imports numpy.
  math(EXPR next_minor "${Python3_VERSION_MINOR} + 1")
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "python3 (>= ${Python3_VERSION_MAJOR}.${Python3_VERSION_MINOR}), \
python3 (<< ${Python3_VERSION_MAJOR}.${next_minor}), python3-numpy")
endif()
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_STRIP_FILES ON)
include(CPack)
