#include "core/progress.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "core/logging.h"

namespace proj {
namespace {

using Clock = std::chrono::steady_clock;

int TerminalColumns() {
  winsize size{};
  if (ioctl(STDERR_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) return size.ws_col;
  const char* columns = std::getenv("COLUMNS");
  return columns != nullptr && std::atoi(columns) > 0 ? std::atoi(columns) : 80;
}

// A terminal that understands "\r" and "erase line" (TERM=dumb ones do not).
bool StderrIsTerminal() {
  const char* term = std::getenv("TERM");
  return isatty(STDERR_FILENO) && !(term != nullptr && std::strcmp(term, "dumb") == 0);
}

double Seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

ProgressListener& Listener() {
  static ProgressListener listener;
  return listener;
}

}  // namespace

void SetProgressListener(ProgressListener listener) { Listener() = std::move(listener); }

std::string ProgressBar(int done, int total, int width) {
  width = std::max(width, 0);
  const double fraction = total > 0 ? std::clamp(static_cast<double>(done) / total, 0.0, 1.0) : 1.0;
  const int filled = std::min(width, static_cast<int>(std::floor(fraction * width)));
  return "[" + std::string(filled, '#') + std::string(width - filled, '.') + "]";
}

std::string FormatRate(double items_per_second) {
  char text[32];
  const double r = std::max(items_per_second, 0.0);
  const char* format = r >= 100 ? "%.0f" : r >= 10 ? "%.1f" : "%.2f";
  std::snprintf(text, sizeof(text), format, r);
  return text;
}

std::string FormatDuration(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return "?";
  const long long total = static_cast<long long>(std::ceil(seconds));
  char text[32];
  if (total >= 3600) {
    std::snprintf(text, sizeof(text), "%lld:%02lld:%02lld", total / 3600, total / 60 % 60,
                  total % 60);
  } else {
    std::snprintf(text, sizeof(text), "%lld:%02lld", total / 60, total % 60);
  }
  return text;
}

namespace {

// "ETA M:SS" from the mean rate so far, or once done "in M:SS".
std::string TimeLeftOrTaken(int done, int total, double elapsed_seconds) {
  const double rate = elapsed_seconds > 0 ? done / elapsed_seconds : 0;
  return done >= total ? "in " + FormatDuration(elapsed_seconds)
                       : "ETA " + (rate > 0 ? FormatDuration((total - done) / rate) : "?");
}

}  // namespace

std::string FormatProgressLogLine(const std::string& stage, int done, int total,
                                  const std::string& unit, double elapsed_seconds) {
  return stage + ": " + std::to_string(done) + "/" + std::to_string(total) + " " + unit + " (" +
         TimeLeftOrTaken(done, total, elapsed_seconds) + ")";
}

std::string FormatProgressLine(const std::string& stage, int done, int total,
                               const std::string& unit, double elapsed_seconds, int columns) {
  const double rate = elapsed_seconds > 0 ? done / elapsed_seconds : 0;
  const std::string time = TimeLeftOrTaken(done, total, elapsed_seconds);
  const std::string counts = " " + std::to_string(done) + "/" + std::to_string(total) + " " +
                             unit + "  " + FormatRate(rate) + " " + unit + "/s  " + time;
  // The bar takes what is left of the line, within 10 to 40 cells.
  const int free_cells = columns - 1 - static_cast<int>(stage.size() + counts.size()) - 3;
  std::string line = stage + " " + ProgressBar(done, total, std::clamp(free_cells, 10, 40)) + counts;
  if (columns > 1 && static_cast<int>(line.size()) > columns - 1) line.resize(columns - 1);
  return line;
}

Progress::Progress(std::string stage, int total, std::string unit)
    : stage_(std::move(stage)),
      unit_(std::move(unit)),
      total_(total),
      terminal_(StderrIsTerminal()),
      hidden_(!ThreadLogPrefix().empty()),
      start_(Clock::now()) {}

Progress::~Progress() {
  // A stage that stopped early (an error, nothing left to do) still ends its line.
  std::lock_guard<std::mutex> lock(mutex_);
  if (!last_line_.empty() && !finished_) FinishStatusLine(last_line_);
}

void Progress::Advance(int count) {
  if (hidden_) return;
  done_ += count;
  if (Listener()) {
    std::lock_guard<std::mutex> lock(mutex_);  // counts in order, as on screen
    Listener()(stage_, std::min(done_.load(), total_), total_);
  }
  if (GetLogLevel() > LogLevel::kInfo) return;
  const auto now = Clock::now();
  std::lock_guard<std::mutex> lock(mutex_);
  if (finished_) return;
  // Read under the lock, so counts never go backwards on screen whatever the thread order.
  const int done = std::min(done_.load(), total_);
  const bool last = done >= total_;
  const auto interval = std::chrono::milliseconds(terminal_ ? 100 : 250);
  if (!last && now - last_print_ < interval) return;
  last_print_ = now;
  finished_ = last;
  if (!terminal_) {
    LogMessage(LogLevel::kInfo, FormatProgressLogLine(stage_, done, total_, unit_, Seconds(now - start_)));
    return;
  }
  last_line_ = FormatProgressLine(stage_, done, total_, unit_, Seconds(now - start_),
                                  TerminalColumns());
  if (last) {
    FinishStatusLine(last_line_);
  } else {
    DrawStatusLine(last_line_);
  }
}

}  // namespace proj
