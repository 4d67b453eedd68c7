#include "core/logging.h"

#include <atomic>
#include <iostream>
#include <mutex>

namespace proj {
namespace {
std::atomic<int> g_level{static_cast<int>(LogLevel::kInfo)};
std::mutex g_mutex;
}  // namespace

void SetLogLevel(LogLevel level) { g_level = static_cast<int>(level); }
LogLevel GetLogLevel() { return static_cast<LogLevel>(g_level.load()); }

void LogMessage(LogLevel level, const std::string& message) {
  if (static_cast<int>(level) < g_level.load()) return;
  const char* prefix = "";
  if (level == LogLevel::kWarning) prefix = "warning: ";
  if (level == LogLevel::kError) prefix = "error: ";
  if (level == LogLevel::kDebug) prefix = "debug: ";
  std::lock_guard<std::mutex> lock(g_mutex);
  std::cerr << prefix << message << '\n' << std::flush;
}

}  // namespace proj
