# The scripts compiled into report.html (html_report.h, report_assets.h).

# three.js for the page's interactive 3D view: fetched with npm at configure time into the
# build folder and compiled into the program, so a report opens offline. Without npm or the
# registry the build still succeeds, and the pages show the static picture only.
set(PROJ_THREE_JS_VERSION "0.160.0" CACHE STRING
    "three.js version bundled into report.html (its build/three.module.min.js must not import other files)")
option(PROJ_BUNDLE_THREE_JS "Fetch three.js with npm for the 3D view of report.html" ON)
set(PROJ_THREE_JS_DIR ${PROJECT_BINARY_DIR}/third_party/three-${PROJ_THREE_JS_VERSION})
if(PROJ_BUNDLE_THREE_JS AND NOT EXISTS ${PROJ_THREE_JS_DIR}/three.module.min.js)
  execute_process(
    COMMAND bash ${PROJECT_SOURCE_DIR}/scripts/fetch_three.sh ${PROJ_THREE_JS_VERSION} ${PROJ_THREE_JS_DIR}
    RESULT_VARIABLE fetch_three_result TIMEOUT 180)
  if(NOT fetch_three_result EQUAL 0)
    message(WARNING "three.js ${PROJ_THREE_JS_VERSION} could not be fetched with npm: "
                    "report.html will show the static picture only, without the 3D view")
  endif()
endif()
set(three_module "")
set(orbit_controls "")
if(PROJ_BUNDLE_THREE_JS AND EXISTS ${PROJ_THREE_JS_DIR}/three.module.min.js)
  set(three_module ${PROJ_THREE_JS_DIR}/three.module.min.js)
  set(orbit_controls ${PROJ_THREE_JS_DIR}/OrbitControls.js)
  set(three_version ${PROJ_THREE_JS_VERSION})
  install(FILES ${PROJ_THREE_JS_DIR}/LICENSE DESTINATION ${CMAKE_INSTALL_DOCDIR}
          RENAME three.js-LICENSE)
else()
  set(three_version "")
endif()
set(report_assets_cc ${PROJECT_BINARY_DIR}/generated/report_assets.cc)
add_custom_command(
  OUTPUT ${report_assets_cc}
  COMMAND ${CMAKE_COMMAND} -DOUTPUT=${report_assets_cc} -DTHREE_VERSION=${three_version}
          -DTHREE_MODULE=${three_module} -DORBIT_CONTROLS=${orbit_controls}
          -DVIEWER=${CMAKE_CURRENT_LIST_DIR}/report_viewer.js
          -P ${CMAKE_CURRENT_LIST_DIR}/embed_report_assets.cmake
  DEPENDS ${CMAKE_CURRENT_LIST_DIR}/embed_report_assets.cmake ${CMAKE_CURRENT_LIST_DIR}/report_viewer.js
          ${three_module} ${orbit_controls}
  COMMENT "Embedding the report's scripts (three.js ${three_version})"
  VERBATIM)
target_sources(proj_outputs PRIVATE ${report_assets_cc})
