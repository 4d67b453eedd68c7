// gpusfm._run: the pipeline's sub-commands (sfm/app/pipeline_commands.h) run from Python, and
// gpusfm.Result, what they return. Errors are raised as Python exceptions carrying the
// message the sfm program prints (sfm/app/command_failure.h):
//   CLI11's refusal of an option   TypeError (an unknown name) or ValueError (a bad value)
//   bad input (program exit 2)     gpusfm.InputError
//   no model (exit 1)              gpusfm.NoModelError
//   Ctrl-C (exit 130)              KeyboardInterrupt (the database is left to resume from)
//   any other failure              gpusfm.Error
#pragma once

#include <pybind11/pybind11.h>

namespace proj::python {

// `module` must hold the exception classes Error, InputError and NoModelError (module.cc).
void BindCommands(pybind11::module_& module);

}  // namespace proj::python
