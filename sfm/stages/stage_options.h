// The options a stage's stored results depend on, kept in the scene database beside them so
// that a later run never silently mixes results computed with different options (features
// extracted with --max-features 4096 matched against features of 8192, say). Options are
// (command-line name, value) pairs in a fixed order, stored as "name=value" lines.
#pragma once

#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace proj {

class SceneDatabase;

class StageOptions {
 public:
  template <typename T>
  StageOptions& Add(const std::string& name, const T& value) {
    std::ostringstream text;
    text.precision(17);
    text << value;
    entries_.emplace_back(name, text.str());
    return *this;
  }
  // Appends every entry of `other` (the options of the stages this one builds on).
  StageOptions& Add(const StageOptions& other);

  // The value of option `name`; nullopt when it is not set.
  std::optional<std::string> Value(const std::string& name) const;
  // These options without `name`.
  StageOptions Without(const std::string& name) const;

  std::string ToText() const;
  static StageOptions FromText(const std::string& text);

  // A sentence naming the first option whose stored value differs from this one's, or
  // nullopt when they agree.
  std::optional<std::string> DifferenceFrom(const StageOptions& stored) const;

 private:
  std::vector<std::pair<std::string, std::string>> entries_;
};

// What to do when a stage's stored results were computed with other options.
enum class OptionChangePolicy {
  kStop,  // InputError naming the option (the default: nothing is thrown away silently)
  kRedo,  // the stage's stored results are discarded and computed again
};

// What the database holds for a stage, compared with the options of this run.
enum class StoredStageOptions { kNone, kSame, kChanged };

// Compares `wanted` with the options stored for `stage`, writing nothing. kChanged is
// returned under kRedo (with a warning naming the option); under kStop a difference is an
// InputError naming the database, the stage and the option.
StoredStageOptions CompareStageOptions(const SceneDatabase& database, const std::string& stage,
                                       const StageOptions& wanted, OptionChangePolicy policy);

// Compares `wanted` with the options stored for `stage` in `database`. Returns true when the
// stored results can be reused (same options, or none stored yet: `wanted` is then recorded),
// false when they must be redone (kRedo; `wanted` is recorded, the caller discards the old
// results in the same transaction). kStop throws InputError naming the database, the stage
// and the option.
bool ReconcileStageOptions(SceneDatabase* database, const std::string& stage,
                           const StageOptions& wanted, OptionChangePolicy policy);

}  // namespace proj
