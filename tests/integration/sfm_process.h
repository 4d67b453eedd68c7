// Running the built `sfm` program from the integration tests: to the end, or with signals
// sent at a chosen moment (a line it prints on stderr), and reading report.json numbers.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace proj::testing {

struct SignalledRun {
  bool signalled = false;  // the trigger line came and the signals were sent
  int exit_code = -1;      // when it exited normally
  int term_signal = 0;     // when a signal ended it
  std::string stderr_text;
};

// Starts sfm with `arguments`, reads its stderr and, `delay_ms` after the first line
// containing `trigger`, sends each of `signals` (`gap_ms` apart); then reads stderr to the
// end and waits for the process.
SignalledRun RunSfmAndSignal(const std::vector<std::string>& arguments, const std::string& trigger,
                             int delay_ms, const std::vector<int>& signals, int gap_ms = 0);

// Runs sfm with `arguments` to its end, stdout and stderr into `log`; its exit code.
int RunSfmToEnd(const std::vector<std::string>& arguments, const std::string& log);

// The integer after "key": in report.json text (-1 when absent).
long long ReportNumber(const std::string& report, const std::string& key);
// The number (integer or not) after "key": in `report`, from `from` on; NaN when absent.
double ReportDouble(const std::string& report, const std::string& key, size_t from = 0);

}  // namespace proj::testing
