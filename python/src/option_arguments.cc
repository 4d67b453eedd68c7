#include "python/src/option_arguments.h"

#include <algorithm>

namespace proj::python {

namespace py = pybind11;

namespace {

std::string ValueText(const py::handle& value) {
  if (py::isinstance<py::bool_>(value)) return value.cast<bool>() ? "on" : "off";
  if (py::isinstance<py::list>(value) || py::isinstance<py::tuple>(value)) {
    std::string joined;
    for (const py::handle item : value) joined += (joined.empty() ? "" : ",") + ValueText(item);
    return joined;
  }
  if (py::hasattr(value, "__fspath__")) return py::str(value.attr("__fspath__")());
  return py::str(value);
}

}  // namespace

std::vector<std::string> OptionArguments(const CLI::App& app, const py::dict& options) {
  std::vector<std::string> arguments;
  for (const auto& [key, value] : options) {
    if (value.is_none()) continue;
    std::string name = "--" + key.cast<std::string>();
    std::replace(name.begin(), name.end(), '_', '-');
    const CLI::Option* option = app.get_option_no_throw(name);
    if (option != nullptr && option->get_expected_max() == 0) {  // a flag
      if (!py::isinstance<py::bool_>(value)) {
        throw py::type_error(name + " is a flag: give True or False, not " +
                             py::str(value).cast<std::string>());
      }
      if (value.cast<bool>()) arguments.push_back(name);
      continue;
    }
    arguments.push_back(name);
    arguments.push_back(ValueText(value));
  }
  return arguments;
}

}  // namespace proj::python
