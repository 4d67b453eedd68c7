// Command lines of the benchmark programs, handled as the `sfm` program handles its own:
// --help prints usage and exits 0; bad arguments, and bad input such as a missing image
// (InputError), print a message and exit 2 instead of ending in an uncaught exception.
#pragma once

#include <functional>
#include <iostream>
#include <optional>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

#include "core/check.h"

namespace proj {

// Parses the arguments into `app`'s options. Returns the exit code when the program must stop
// now (0 after --help, 2 after a usage message), std::nullopt when it should run.
inline std::optional<int> ParseBenchArguments(CLI::App& app, int argc, char** argv) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return app.exit(error) == 0 ? 0 : 2;
  }
  return std::nullopt;
}

// Runs a benchmark's main function; bad input it reports as an InputError becomes a message
// and exit code 2.
inline int RunBenchmark(const std::function<int()>& main) {
  try {
    return main();
  } catch (const InputError& error) {
    std::cerr << "error: " << error.what() << std::endl;
    return 2;
  }
}

// For programs made of subcommands (`tool MODE ARGS`): parses the arguments, then runs the
// function paired with the subcommand given (exactly one is required).
inline int RunBenchSubcommands(
    CLI::App& app, int argc, char** argv,
    const std::vector<std::pair<CLI::App*, std::function<int()>>>& subcommands) {
  app.require_subcommand(1);
  if (const auto code = ParseBenchArguments(app, argc, argv)) return *code;
  for (const auto& [subcommand, run] : subcommands) {
    if (subcommand->parsed()) return run();
  }
  return 2;
}

}  // namespace proj
