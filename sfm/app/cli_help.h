// --help that reads well. Options print as `--device auto|cpu|gpu  Where ... [auto]`: the
// values an enum option takes instead of CLI11's `ENUM:value in {auto->0,...} OR {0,1,2}`, and
// the default at the end of the description instead of glued to the type (`INT=3200`).
#pragma once

#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

namespace proj::app {

// Formatter for the program and every sub-command (set it before adding sub-commands: they
// copy their parent's formatter when created).
std::shared_ptr<CLI::Formatter> MakeHelpFormatter();

// `-q,--quiet` and `-v,--verbose` on `app`, bound to the given flags (the same flags on the
// program and on each sub-command, so they work before and after the sub-command's name).
void AddLogLevelFlags(CLI::App& app, bool* quiet, bool* verbose);

template <typename T>
using EnumNames = std::vector<std::pair<std::string, T>>;

namespace internal {
// The text CLI11 converts back into `value` when it assigns the option.
template <typename T>
std::string ValueText(const T& value) {
  if constexpr (std::is_enum_v<T>) {
    return std::to_string(static_cast<long long>(value));
  } else if constexpr (std::is_same_v<T, bool>) {
    return value ? "true" : "false";
  } else {
    return value;
  }
}
}  // namespace internal

// An option whose value is one of `names` (case-insensitive), listed in --help in the given
// order as `a|b|c`, with the name of `*value`'s initial value as the default. Another value
// is refused with "--flag: 'x' is not one of a|b|c".
template <typename T>
CLI::Option* AddEnumOption(CLI::App& app, const std::string& flag, T* value,
                           const EnumNames<T>& names, const std::string& help) {
  std::string type_name;
  std::string default_name;
  for (const auto& [name, enum_value] : names) {
    type_name += (type_name.empty() ? "" : "|") + name;
    if (enum_value == *value && default_name.empty()) default_name = name;
  }
  CLI::Validator to_value(
      [names, type_name](std::string& input) -> std::string {
        for (const auto& [name, enum_value] : names) {
          if (CLI::detail::to_lower(name) == CLI::detail::to_lower(input)) {
            input = internal::ValueText(enum_value);
            return "";
          }
        }
        return "'" + input + "' is not one of " + type_name;
      },
      "");
  return app.add_option(flag, *value, help)
      ->transform(to_value)
      ->type_name(type_name)
      ->default_str(default_name);
}

}  // namespace proj::app
