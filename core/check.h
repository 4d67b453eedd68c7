// Checks for the three kinds of failure (STYLE P11):
//  - PROJ_CHECK(cond, msg): a broken internal invariant; logs and aborts, in all builds.
//  - PROJ_REQUIRE(cond, msg): bad input, options or files at a module boundary; throws
//    proj::InputError (a std::invalid_argument) naming file:line and the message. The CLI
//    catches it and turns it into exit code 2.
//  - expected algorithmic failure is a return value, never one of these.
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>

namespace proj {

// Bad user input, configuration or file content. `what()` is a complete sentence for users.
class InputError : public std::invalid_argument {
 public:
  explicit InputError(const std::string& message) : std::invalid_argument(message) {}
};

namespace internal {
[[noreturn]] void CheckFailed(const char* file, int line, const char* condition,
                              const std::string& message);
[[noreturn]] void RequireFailed(const char* file, int line, const std::string& message);
}  // namespace internal

}  // namespace proj

#define PROJ_CHECK(condition, message)                                               \
  do {                                                                               \
    if (!(condition)) {                                                              \
      std::ostringstream proj_check_stream_;                                         \
      proj_check_stream_ << message;                                                 \
      ::proj::internal::CheckFailed(__FILE__, __LINE__, #condition,                  \
                                    proj_check_stream_.str());                       \
    }                                                                                \
  } while (false)

#define PROJ_REQUIRE(condition, message)                                             \
  do {                                                                               \
    if (!(condition)) {                                                              \
      std::ostringstream proj_require_stream_;                                       \
      proj_require_stream_ << message;                                               \
      ::proj::internal::RequireFailed(__FILE__, __LINE__, proj_require_stream_.str()); \
    }                                                                                \
  } while (false)
