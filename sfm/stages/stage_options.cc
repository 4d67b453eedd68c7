#include "sfm/stages/stage_options.h"

#include "core/check.h"
#include "core/logging.h"
#include "sfm/database/scene_database.h"

namespace proj {

StageOptions& StageOptions::Add(const StageOptions& other) {
  entries_.insert(entries_.end(), other.entries_.begin(), other.entries_.end());
  return *this;
}

std::optional<std::string> StageOptions::Value(const std::string& name) const {
  for (const auto& entry : entries_) {
    if (entry.first == name) return entry.second;
  }
  return std::nullopt;
}

StageOptions StageOptions::Without(const std::string& name) const {
  StageOptions options;
  for (const auto& entry : entries_) {
    if (entry.first != name) options.entries_.push_back(entry);
  }
  return options;
}

std::string StageOptions::ToText() const {
  std::string text;
  for (const auto& [name, value] : entries_) text += name + "=" + value + "\n";
  return text;
}

StageOptions StageOptions::FromText(const std::string& text) {
  StageOptions options;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    const size_t equals = line.find('=');
    if (equals == std::string::npos) continue;
    options.entries_.emplace_back(line.substr(0, equals), line.substr(equals + 1));
  }
  return options;
}

std::optional<std::string> StageOptions::DifferenceFrom(const StageOptions& stored) const {
  for (const auto& [name, value] : entries_) {
    const std::optional<std::string> old = stored.Value(name);
    if (!old) return name + " is " + value + " in this run and was not recorded before";
    if (*old != value) return name + " was " + *old + ", this run asks for " + value;
  }
  for (const auto& [name, value] : stored.entries_) {
    if (!Value(name)) return name + " was " + value + " and is not set now";
  }
  return std::nullopt;
}

StoredStageOptions CompareStageOptions(const SceneDatabase& database, const std::string& stage,
                                       const StageOptions& wanted, OptionChangePolicy policy) {
  const std::optional<std::string> stored = database.ReadStageOptions(stage);
  if (!stored) return StoredStageOptions::kNone;
  const std::optional<std::string> difference = wanted.DifferenceFrom(StageOptions::FromText(*stored));
  if (!difference) return StoredStageOptions::kSame;
  PROJ_REQUIRE(policy == OptionChangePolicy::kRedo,
               "the scene database '" << database.path() << "' holds " << stage
                                      << " results computed with other options (" << *difference
                                      << "). Run with the options it was made with, give another "
                                         "--database, or add --on-option-change redo to compute "
                                         "the "
                                      << stage << " again");
  PROJ_LOG(kWarning, stage << ": options changed (" << *difference << "); computing it again");
  return StoredStageOptions::kChanged;
}

bool ReconcileStageOptions(SceneDatabase* database, const std::string& stage,
                           const StageOptions& wanted, OptionChangePolicy policy) {
  const StoredStageOptions stored = CompareStageOptions(*database, stage, wanted, policy);
  if (stored != StoredStageOptions::kSame) database->WriteStageOptions(stage, wanted.ToText());
  return stored != StoredStageOptions::kChanged;
}

}  // namespace proj
