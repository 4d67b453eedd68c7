#include "core/logging.h"

#include <atomic>
#include <iostream>
#include <mutex>

namespace proj {
namespace {
std::atomic<int> g_level{static_cast<int>(LogLevel::kInfo)};
std::mutex g_mutex;
std::string g_status_line;  // under g_mutex; empty when none is on screen

// Carriage return, then ANSI "erase to the end of the line".
constexpr const char* kClearLine = "\r\033[K";
thread_local std::string t_prefix;
}  // namespace

ScopedLogPrefix::ScopedLogPrefix(const std::string& prefix) : previous_(t_prefix) { t_prefix = previous_ + prefix; }
ScopedLogPrefix::~ScopedLogPrefix() { t_prefix = previous_; }
const std::string& ThreadLogPrefix() { return t_prefix; }

void SetLogLevel(LogLevel level) { g_level = static_cast<int>(level); }
LogLevel GetLogLevel() { return static_cast<LogLevel>(g_level.load()); }

void LogMessage(LogLevel level, const std::string& message) {
  if (static_cast<int>(level) < g_level.load()) return;
  const char* prefix = "";
  if (level == LogLevel::kWarning) prefix = "warning: ";
  if (level == LogLevel::kError) prefix = "error: ";
  if (level == LogLevel::kDebug) prefix = "debug: ";
  std::lock_guard<std::mutex> lock(g_mutex);
  if (!g_status_line.empty()) std::cerr << kClearLine;
  std::cerr << prefix << t_prefix << message << '\n' << g_status_line << std::flush;
}

void DrawStatusLine(const std::string& line) {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_status_line = line;
  std::cerr << kClearLine << line << std::flush;
}

void FinishStatusLine(const std::string& line) {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_status_line.clear();
  std::cerr << kClearLine << line << '\n' << std::flush;
}

}  // namespace proj
