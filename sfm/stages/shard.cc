#include "sfm/stages/shard.h"

#include <cstdint>
#include <cstdlib>

#include "core/check.h"

namespace proj {
namespace {

std::string RecordStage(ShardKind kind) { return std::string(ShardKindName(kind)) + " shard"; }
std::string DoneStage(ShardKind kind) { return RecordStage(kind) + " done"; }

StageOptions RecordOptions(const Shard& shard, const StageOptions& options) {
  StageOptions record;
  record.Add("--shard", shard.Name()).Add(options);
  return record;
}

// Parses a non-negative decimal integer; nullopt for anything else.
std::optional<int> ParseCount(const std::string& text) {
  if (text.empty() || text.size() > 9 || text.find_first_not_of("0123456789") != std::string::npos) {
    return std::nullopt;
  }
  return std::atoi(text.c_str());
}

}  // namespace

std::string Shard::Name() const { return std::to_string(index) + "/" + std::to_string(count); }

Shard ParseShard(const std::string& text) {
  const size_t slash = text.find('/');
  const std::optional<int> index = slash == std::string::npos ? std::nullopt : ParseCount(text.substr(0, slash));
  const std::optional<int> count = slash == std::string::npos ? std::nullopt : ParseCount(text.substr(slash + 1));
  PROJ_REQUIRE(index && count && *count >= 1 && *index < *count,
               "--shard '" << text << "' is not i/N with 0 <= i < N (task i of N, counted from 0: "
                              "--shard $SLURM_ARRAY_TASK_ID/N with --array=0-(N-1))");
  return Shard{*index, *count};
}

bool ImageInShard(const std::string& name, const Shard& shard) {
  uint64_t hash = 14695981039346656037ull;  // FNV-1a 64
  for (const unsigned char c : name) {
    hash ^= c;
    hash *= 1099511628211ull;
  }
  return static_cast<int>(hash % static_cast<uint64_t>(shard.count)) == shard.index;
}

std::pair<size_t, size_t> ShardBlock(size_t count, const Shard& shard) {
  const auto boundary = [&](int index) {
    return static_cast<size_t>(static_cast<unsigned long long>(count) * index / shard.count);
  };
  return {boundary(shard.index), boundary(shard.index + 1)};
}

bool SameCamera(const Camera& a, const Camera& b) {
  return a.model == b.model && a.width == b.width && a.height == b.height && a.params == b.params;
}

const char* ShardKindName(ShardKind kind) {
  return kind == ShardKind::kExtraction ? "extraction" : "matching";
}

bool BeginShard(SceneDatabase* database, ShardKind kind, const Shard& shard,
                const StageOptions& options, OptionChangePolicy policy) {
  SceneDatabase::Transaction transaction(database);
  const bool kept = ReconcileStageOptions(database, RecordStage(kind), RecordOptions(shard, options), policy);
  database->DeleteStageOptions(DoneStage(kind));
  transaction.Commit();
  return kept;
}

void FinishShard(SceneDatabase* database, ShardKind kind) {
  const std::optional<std::string> record = database->ReadStageOptions(RecordStage(kind));
  PROJ_CHECK(record.has_value(), "FinishShard without BeginShard");
  database->WriteStageOptions(DoneStage(kind), *record);
}

std::optional<ShardRecord> ReadShardRecord(const SceneDatabase& database) {
  for (const ShardKind kind : {ShardKind::kExtraction, ShardKind::kMatching}) {
    const std::optional<std::string> text = database.ReadStageOptions(RecordStage(kind));
    if (!text) continue;
    const StageOptions options = StageOptions::FromText(*text);
    ShardRecord record;
    record.kind = kind;
    record.shard = ParseShard(options.Value("--shard").value_or(""));
    record.options = options.Without("--shard");
    record.complete = database.ReadStageOptions(DoneStage(kind)) == text;
    return record;
  }
  return std::nullopt;
}

}  // namespace proj
