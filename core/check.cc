#include "core/check.h"

#include <cstdlib>
#include <iostream>

namespace proj::internal {

void CheckFailed(const char* file, int line, const char* condition, const std::string& message) {
  std::cerr << "internal error at " << file << ":" << line << ": check '" << condition
            << "' failed: " << message << std::endl;
  std::abort();
}

void RequireFailed(const char* file, int line, const std::string& message) {
  (void)file;
  (void)line;
  // Users see the message alone; file:line would only confuse them.
  throw InputError(message);
}

}  // namespace proj::internal
