# Map products measured (issue 25; bench/products_synth.sh): the orthophoto rendered on a
# synthetic flight's true surface model.
add_executable(orthophoto_on_truth ${CMAKE_CURRENT_LIST_DIR}/orthophoto_on_truth.cc)
target_link_libraries(orthophoto_on_truth PRIVATE dense_eval proj_datasets CLI11::CLI11)
proj_warnings(orthophoto_on_truth)
