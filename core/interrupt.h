// Ctrl-C (SIGINT) stops a long run cleanly. The first SIGINT only sets a flag: stages check
// it between units of work (an image, a block of pairs, a registered image), commit what is
// finished and throw Interrupted, which the program turns into exit code 130 and a message
// that running the same command again resumes. A second SIGINT ends the process at once
// (_exit(130)); the scene database stays consistent because every write is a transaction.
#pragma once

#include <stdexcept>

namespace proj {

class Interrupted : public std::runtime_error {
 public:
  Interrupted() : std::runtime_error("interrupted") {}
};

// Installs the SIGINT handler described above (idempotent).
void InstallInterruptHandler();
// Whether an interrupt was requested (by SIGINT or RequestInterrupt). Async-signal-safe.
bool InterruptRequested();
// Throws Interrupted when one was requested.
void ThrowIfInterrupted();
// What the first SIGINT does, for tests; ClearInterrupt undoes it.
void RequestInterrupt();
void ClearInterrupt();

}  // namespace proj
