// The extension module gpusfm._gpusfm; the package gpusfm (python/gpusfm/__init__.py) is its
// public face.
#include <pybind11/pybind11.h>

#include "core/check.h"
#include "python/src/command_bindings.h"
#include "python/src/database_bindings.h"
#include "python/src/model_bindings.h"

namespace py = pybind11;

namespace {
PyObject* g_input_error = nullptr;  // gpusfm.InputError, alive as long as the module
}  // namespace

PYBIND11_MODULE(_gpusfm, module) {
  module.doc() = "gpusfm's extension module: the sfm pipeline, models and scene databases.";
  // gpusfm.Error: every failure of ours; InputError is also a ValueError (bad input), as the
  // program's exit code 2; NoModelError, exit code 1; SuspectModelError, exit code 3.
  const py::object error = py::reinterpret_steal<py::object>(
      PyErr_NewExceptionWithDoc("gpusfm.Error", "A failure of gpusfm; the message is what sfm prints.",
                                PyExc_RuntimeError, nullptr));
  const py::tuple input_bases = py::make_tuple(error, py::handle(PyExc_ValueError));
  const py::object input_error = py::reinterpret_steal<py::object>(PyErr_NewExceptionWithDoc(
      "gpusfm.InputError", "Bad input: a missing or unreadable folder, file or database, or too few images.",
      input_bases.ptr(), nullptr));
  const py::object no_model_error = py::reinterpret_steal<py::object>(PyErr_NewExceptionWithDoc(
      "gpusfm.NoModelError", "The run found no model; the message says why.", error.ptr(), nullptr));
  const py::object suspect_model_error = py::reinterpret_steal<py::object>(PyErr_NewExceptionWithDoc(
      "gpusfm.SuspectModelError",
      "A model was built and written but failed its quality checks (report.json \"quality\"); "
      "accept_suspect_model=True returns it.",
      error.ptr(), nullptr));
  module.attr("Error") = error;
  module.attr("SuspectModelError") = suspect_model_error;
  module.attr("InputError") = input_error;
  module.attr("NoModelError") = no_model_error;
  g_input_error = input_error.ptr();
  // InputError thrown by the readers (Model.read, Database) becomes gpusfm.InputError.
  py::register_exception_translator([](std::exception_ptr thrown) {
    try {
      if (thrown) std::rethrow_exception(thrown);
    } catch (const proj::InputError& failure) {
      PyErr_SetString(g_input_error, failure.what());
    }
  });
  proj::python::BindModel(module);
  proj::python::BindDatabase(module);
  proj::python::BindCommands(module);
}
