// Python keyword arguments as the sfm program's command-line arguments, so that CLI11 parses
// them with the command's own definitions (names, defaults, checks and messages):
//   max_image_size=2000   ->  --max-image-size 2000
//   single_camera=True    ->  --single-camera       (a flag; False leaves it out)
//   loop_closure=False    ->  --loop-closure off    (an on|off option)
//   gpus=[0, 2]           ->  --gpus 0,2            (lists and tuples, comma-joined)
//   database=Path("x.db") ->  --database x.db       (paths and everything else: str())
//   anything=None         ->  (left out: the default)
// A name the command does not know is passed on as well, for CLI11 to refuse it.
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <pybind11/pybind11.h>

namespace proj::python {

std::vector<std::string> OptionArguments(const CLI::App& app, const pybind11::dict& options);

}  // namespace proj::python
