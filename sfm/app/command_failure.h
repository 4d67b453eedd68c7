// What an exception escaping a command means to its user: the exit code of the sfm program
// and the message it logs. The Python module raises its exceptions with the same messages.
#pragma once

#include <string>

namespace proj::app {

struct CommandFailure {
  int exit_code;
  std::string message;
};

// The failure of the exception being handled; call it inside a catch block of a
// std::exception (Interrupted, InputError, any other).
CommandFailure CurrentCommandFailure();

}  // namespace proj::app
