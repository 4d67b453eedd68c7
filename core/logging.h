// One logging facade for the whole program. Messages go to stderr; stdout is kept for
// results a user may pipe (summaries, evaluation tables). Thread-safe.
#pragma once

#include <sstream>
#include <string>

namespace proj {

enum class LogLevel { kDebug = 0, kInfo = 1, kWarning = 2, kError = 3, kSilent = 4 };

// Messages below `level` are dropped. Default kInfo; `--quiet` sets kWarning.
void SetLogLevel(LogLevel level);
LogLevel GetLogLevel();
void LogMessage(LogLevel level, const std::string& message);

// While one lives, the messages this thread logs start with `prefix`, and the progress it
// makes (core/progress.h) is not shown: the thread does one piece of a larger job (a part of
// a partitioned mapping, several at once) whose progress the job shows. Nests.
class ScopedLogPrefix {
 public:
  explicit ScopedLogPrefix(const std::string& prefix);
  ~ScopedLogPrefix();
  ScopedLogPrefix(const ScopedLogPrefix&) = delete;
  ScopedLogPrefix& operator=(const ScopedLogPrefix&) = delete;

 private:
  std::string previous_;
};
// This thread's prefix; empty outside a ScopedLogPrefix.
const std::string& ThreadLogPrefix();

// A status line (a progress bar, core/progress.h) redrawn in place at the bottom of a
// terminal: LogMessage clears it, prints the message and draws it again below, so messages
// never garble it. Only for a stderr that is a terminal.
void DrawStatusLine(const std::string& line);
// Draws `line` a last time and ends it with a newline; it is no longer redrawn.
void FinishStatusLine(const std::string& line);

}  // namespace proj

#define PROJ_LOG(level, message)                                              \
  do {                                                                        \
    if (::proj::LogLevel::level >= ::proj::GetLogLevel()) {                   \
      std::ostringstream proj_log_stream_;                                    \
      proj_log_stream_ << message;                                            \
      ::proj::LogMessage(::proj::LogLevel::level, proj_log_stream_.str());    \
    }                                                                         \
  } while (false)
