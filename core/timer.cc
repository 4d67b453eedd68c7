#include "core/timer.h"

#include "core/logging.h"

namespace proj {

void StageTimes::Add(const std::string& stage, double seconds) {
  PROJ_LOG(kDebug, "stage " << stage << ": " << seconds << " s");
  Accumulate(stage, seconds);
}

void StageTimes::Merge(const StageTimes& other) {
  for (const auto& [stage, seconds] : other.entries_) Accumulate(stage, seconds);
}

void StageTimes::Accumulate(const std::string& stage, double seconds) {
  for (auto& entry : entries_) {
    if (entry.first == stage) {
      entry.second += seconds;
      return;
    }
  }
  entries_.emplace_back(stage, seconds);
}

double StageTimes::Get(const std::string& stage) const {
  for (const auto& entry : entries_) {
    if (entry.first == stage) return entry.second;
  }
  return 0.0;
}

}  // namespace proj
