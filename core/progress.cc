#include "core/progress.h"

#include "core/logging.h"

namespace proj {

Progress::Progress(std::string stage, int total, std::string unit)
    : stage_(std::move(stage)), unit_(std::move(unit)), total_(total) {}

void Progress::Advance(int count) {
  const int done = done_ += count;
  if (GetLogLevel() > LogLevel::kInfo) return;
  const auto now = std::chrono::steady_clock::now();
  std::lock_guard<std::mutex> lock(mutex_);
  // Throttle to 4 lines a second, but always print the final count.
  if (done < total_ && now - last_print_ < std::chrono::milliseconds(250)) return;
  last_print_ = now;
  LogMessage(LogLevel::kInfo, stage_ + ": " + std::to_string(done) + "/" +
                                  std::to_string(total_) + " " + unit_);
}

}  // namespace proj
