// Splitting extraction and matching over the tasks of a cluster job (README "Cluster"): task
// i of N (`--shard i/N`) extracts or matches its share into a database of its own, and
// `sfm merge-databases` (database_merge.h) joins the shards keyed by image name.
//
// Extraction shards take images by a hash of the file name, so an image stays in its shard
// when files are added to the folder or leave it (a re-run redoes nothing that was done).
// Matching shards take a contiguous block of the run's pair list (pairs of the same images
// sit together in it, so each task loads fewer features).
//
// A shard's database records which shard it holds and with which options ("extraction
// shard" / "matching shard" rows of proj_stage_options), and a second row once the task has
// finished; the merge refuses shards without it (a task killed mid-way: run it again, it
// resumes from its database).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <utility>

#include "geometry/camera/camera.h"
#include "sfm/database/scene_database.h"
#include "sfm/stages/stage_options.h"

namespace proj {

struct Shard {
  int index = 0;  // 0 .. count-1
  int count = 1;
  std::string Name() const;  // "i/N"
};

// Parses "i/N" (0 <= i < N); throws InputError naming `text` otherwise.
Shard ParseShard(const std::string& text);

// Whether the image file named `name` belongs to `shard` (FNV-1a hash of the name, mod count).
bool ImageInShard(const std::string& name, const Shard& shard);

// The block [begin, end) of `count` items in order that `shard` takes; blocks differ in size
// by at most one and cover all items.
std::pair<size_t, size_t> ShardBlock(size_t count, const Shard& shard);

// Whether two cameras are the same intrinsics block (model, size and parameters), as the
// shards of one run assign them.
bool SameCamera(const Camera& a, const Camera& b);

enum class ShardKind { kExtraction, kMatching };
const char* ShardKindName(ShardKind kind);  // "extraction", "matching"

struct ShardRecord {
  ShardKind kind = ShardKind::kExtraction;
  Shard shard;
  StageOptions options;   // what all shards of a run must share (without --shard)
  bool complete = false;  // the task finished
};

// Records that `database` holds `shard` of a `kind` run made with `options`, not complete.
// Compared with a record already there as stage options are (stage_options.h): under kStop
// another shard or other options are an InputError. Returns false when the stored results
// belong to another shard or options and must be discarded (kRedo).
bool BeginShard(SceneDatabase* database, ShardKind kind, const Shard& shard,
                const StageOptions& options, OptionChangePolicy policy);
// Marks the shard begun in `database` complete.
void FinishShard(SceneDatabase* database, ShardKind kind);
// The shard `database` holds; nullopt for a database that is no shard (a whole run, a merge).
std::optional<ShardRecord> ReadShardRecord(const SceneDatabase& database);

}  // namespace proj
