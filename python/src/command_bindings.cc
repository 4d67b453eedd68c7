#include "python/src/command_bindings.h"

#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <pybind11/stl.h>

#include "core/interrupt.h"
#include "core/logging.h"
#include "core/progress.h"
#include "python/src/background_call.h"
#include "python/src/model_bindings.h"
#include "python/src/option_arguments.h"
#include "sfm/app/cli_help.h"
#include "sfm/app/command_failure.h"
#include "sfm/app/pipeline_commands.h"

namespace proj::python {
namespace {

namespace py = pybind11;
using namespace pybind11::literals;
using app::PipelineOutcome;

const std::map<std::string, app::PipelineRunner (*)(CLI::App&)>& Commands() {
  static const std::map<std::string, app::PipelineRunner (*)(CLI::App&)> commands = {
      {"reconstruct", app::AddReconstructPipeline},
      {"extract", app::AddExtractPipeline},
      {"match", app::AddMatchPipeline},
      {"map", app::AddMapPipeline}};
  return commands;
}

// The log level of one call (quiet=True, verbose=True), restored after it.
class ScopedLogLevel {
 public:
  ScopedLogLevel(bool quiet, bool verbose) : saved_(GetLogLevel()) {
    if (quiet) SetLogLevel(LogLevel::kWarning);
    if (verbose) SetLogLevel(LogLevel::kDebug);
  }
  ~ScopedLogLevel() { SetLogLevel(saved_); }

 private:
  LogLevel saved_;
};

// The Python callback as the progress listener of one call. An exception it raises stops the
// run (as Ctrl-C does) and is raised again when the run has stopped.
class ScopedProgressCallback {
 public:
  explicit ScopedProgressCallback(py::object callback) : callback_(std::move(callback)) {
    if (callback_.is_none()) return;
    SetProgressListener([this](const std::string& stage, int done, int total) {
      py::gil_scoped_acquire acquire;
      if (error_) return;
      try {
        callback_(stage, done, total);
      } catch (py::error_already_set& error) {
        error_ = error.value();
        RequestInterrupt();
      }
    });
  }
  ~ScopedProgressCallback() { SetProgressListener(nullptr); }
  const py::object& error() const { return error_; }

 private:
  py::object callback_;
  py::object error_;
};

[[noreturn]] void Raise(const py::handle& type, const std::string& message) {
  PyErr_SetString(type.ptr(), message.c_str());
  throw py::error_already_set();
}

// Raises an exception caught earlier (by the progress callback or the signal check).
[[noreturn]] void RaiseAgain(const py::object& exception) {
  PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(exception.ptr())), exception.ptr());
  throw py::error_already_set();
}

PipelineOutcome Run(const py::module_& module, const std::string& name,
                    const std::vector<std::string>& positional, const py::dict& options,
                    const py::object& progress) {
  const auto command = Commands().find(name);
  if (command == Commands().end()) throw py::value_error("no pipeline command '" + name + "'");
  CLI::App cli{"sfm " + name};
  const app::PipelineRunner runner = command->second(cli);
  bool quiet = false;
  bool verbose = false;
  app::AddLogLevelFlags(cli, &quiet, &verbose);
  std::vector<std::string> arguments = OptionArguments(cli, options);
  arguments.insert(arguments.begin(), positional.begin(), positional.end());
  std::vector<std::string> reversed(arguments.rbegin(), arguments.rend());  // as CLI11 takes them
  try {
    cli.parse(reversed);
  } catch (const CLI::ExtrasError& error) {
    throw py::type_error(error.what());
  } catch (const CLI::ParseError& error) {
    throw py::value_error(error.what());
  }

  // The log level, the progress listener and the interrupt flag are the process's: one run
  // at a time (a second Python thread waits here, without the GIL).
  static std::mutex one_run;
  std::unique_lock<std::mutex> run_lock(one_run, std::defer_lock);
  {
    py::gil_scoped_release release;
    run_lock.lock();
  }
  const ScopedLogLevel log_level(quiet, verbose);
  ScopedProgressCallback callback(progress);
  PipelineOutcome outcome;
  const BackgroundCall call = RunInBackground([&] { outcome = runner(); });
  if (callback.error()) RaiseAgain(callback.error());
  if (call.failure) {
    try {
      std::rethrow_exception(call.failure);
    } catch (const std::exception&) {
      const app::CommandFailure failure = app::CurrentCommandFailure();
      if (failure.exit_code == app::kExitInterrupted) {
        // A SIGINT handler of the program's own may raise something else.
        if (call.signal_error && !PyErr_GivenExceptionMatches(call.signal_error.ptr(), PyExc_KeyboardInterrupt)) {
          RaiseAgain(call.signal_error);
        }
        Raise(PyExc_KeyboardInterrupt, failure.message);
      }
      const py::object type = module.attr(failure.exit_code == app::kExitBadInput ? "InputError" : "Error");
      Raise(type, failure.message);
    }
  }
  // Ctrl-C after the last checkpoint: the run completed, and the program still stops.
  if (call.signal_error) RaiseAgain(call.signal_error);
  if (outcome.exit_code == app::kExitNoModel || outcome.exit_code == app::kExitSuspectModel) {
    const py::object type = module.attr(outcome.exit_code == app::kExitNoModel ? "NoModelError" : "SuspectModelError");
    Raise(type, outcome.failure);
  }
  return outcome;
}

}  // namespace

void BindCommands(py::module_& module) {
  py::class_<PipelineOutcome>(module, "Result", "What gpusfm.reconstruct, extract, match or map produced.")
      .def_readonly("summary", &PipelineOutcome::report, "The lines `sfm` prints on stdout at the end.")
      .def_readonly("database", &PipelineOutcome::database_path, "The scene database's path.")
      .def_property_readonly(
          "output",
          [](const PipelineOutcome& o) { return o.out_dir.empty() ? std::nullopt : std::optional<std::string>(o.out_dir); },
          "The output folder (reconstruct, map), else None.")
      .def_property_readonly(
          "model",
          [](const PipelineOutcome& o) -> py::object {
            if (!o.result) return py::none();
            return ModelObject(std::shared_ptr<Scene>(o.result, &o.result->scene));
          },
          "The reconstruction (reconstruct, map), as written to OUTPUT/model, else None.")
      .def("__repr__", [](const PipelineOutcome& o) { return "Result(" + o.report + ")"; });
  module.def(
      "_run",
      [module](const std::string& name, const std::vector<std::string>& positional, const py::dict& options,
               const py::object& progress) { return Run(module, name, positional, options, progress); },
      "command"_a, "positional"_a, "options"_a, "progress"_a = py::none(),
      "Runs `sfm COMMAND POSITIONAL... OPTIONS...` in this process (gpusfm.reconstruct and the "
      "others call it).");
}

}  // namespace proj::python
