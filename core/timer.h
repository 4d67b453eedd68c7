// Wall-clock timing of pipeline stages, for report.json and the closing summary.
#pragma once

#include <chrono>
#include <ctime>
#include <string>
#include <utility>
#include <vector>

namespace proj {

class Timer {
 public:
  Timer() : start_(std::chrono::steady_clock::now()) {}
  void Restart() { start_ = std::chrono::steady_clock::now(); }
  double ElapsedSeconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

 private:
  std::chrono::steady_clock::time_point start_;
};

// CPU seconds used by the whole process (all threads) since it started: beside wall time on a
// machine shared with other jobs, where wall time measures the load as much as the work.
inline double ProcessCpuSeconds() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }

// Ordered list of (stage name, seconds); each Add is also logged at debug level ("stage
// matching: 1.2 s", shown by --verbose) so long runs show where the time goes as it passes.
// Adding a stage again adds to its seconds. Not thread-safe: the driver times stages.
class StageTimes {
 public:
  void Add(const std::string& stage, double seconds);
  // Adds every entry of `other`, in its order, without logging them again.
  void Merge(const StageTimes& other);
  double Get(const std::string& stage) const;  // 0 if absent
  const std::vector<std::pair<std::string, double>>& entries() const { return entries_; }

 private:
  void Accumulate(const std::string& stage, double seconds);
  std::vector<std::pair<std::string, double>> entries_;
};

}  // namespace proj
