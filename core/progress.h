// Progress of a long stage on stderr. Thread-safe: workers call Advance() as items finish.
// Nothing is printed when the log level is above kInfo (--quiet).
//  - stderr a terminal: one line per stage, redrawn in place at most 10 times a second, ended
//    with a newline when the stage completes (or the Progress is destroyed):
//      extracting features [##########..........] 6/11 images  1.9 images/s  ETA 0:03
//    Log messages printed meanwhile clear the line first and redraw it below themselves
//    (core/logging.h), so they never garble it.
//  - otherwise (logs, CI, pipes): plain log lines at most 4 times a second, always the last
//    count ("extracting features: 7/11 images").
// A listener (SetProgressListener) hears every Advance as well, whatever the log level.
// A Progress made under a ScopedLogPrefix (one piece of a larger job) shows nothing at all.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>
#include <string>

namespace proj {

// Called on every Progress::Advance, from the thread that advanced, with the stage's name and
// its count done and total (counts of one stage never go backwards); not throttled: one call
// per unit of work (an image, a block of pairs). For callers that show progress their own way
// (the Python module's callback). An empty function removes it; set it while no stage runs.
using ProgressListener = std::function<void(const std::string& stage, int done, int total)>;
void SetProgressListener(ProgressListener listener);

class Progress {
 public:
  Progress(std::string stage, int total, std::string unit);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  void Advance(int count = 1);
  int done() const { return done_.load(); }

 private:
  std::string stage_;
  std::string unit_;
  int total_;
  bool terminal_;  // stderr is a terminal: redraw one line in place
  bool hidden_;    // made under a ScopedLogPrefix (core/logging.h): shows nothing
  std::atomic<int> done_{0};
  std::mutex mutex_;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_print_;
  std::string last_line_;  // the bar last drawn, empty when none is on screen
  bool finished_ = false;  // the final count was printed
};

// The pieces of the terminal line, pure functions of their arguments.

// `width` cells between brackets, '#' for the done share (rounded down, so the bar is full
// only when done == total), '.' for the rest: ProgressBar(1, 4, 8) == "[##......]".
std::string ProgressBar(int done, int total, int width);
// A rate with about three significant digits: 1234, 123, 12.3, 1.23, 0.12.
std::string FormatRate(double items_per_second);
// Seconds as M:SS or H:MM:SS (rounded up, so 0:00 only when nothing is left); "?" when the
// duration is unknown (negative, infinite or NaN).
std::string FormatDuration(double seconds);
// The whole line, cut to `columns` - 1 characters (a line as wide as the terminal would wrap
// and break the redraw): stage, bar, done/total unit, rate, and the ETA from the mean rate
// so far, or once done the time taken ("in 0:12").
std::string FormatProgressLine(const std::string& stage, int done, int total,
                               const std::string& unit, double elapsed_seconds, int columns);
// The line logged when stderr is no terminal (a log file, a pipe): "stage: done/total unit",
// then the ETA from the mean rate so far ("ETA 12:05"), or once done the time taken, so a long
// run's log says when it will end too.
std::string FormatProgressLogLine(const std::string& stage, int done, int total,
                                  const std::string& unit, double elapsed_seconds);

}  // namespace proj
