#include "sfm/stages/matching_shard.h"

#include <algorithm>
#include <string>
#include <vector>

#include "core/check.h"
#include "core/logging.h"
#include "core/timer.h"
#include "sfm/stages/pair_stage.h"

namespace proj {
namespace {

// What every matching shard of a run must share beyond the matching and verification options
// (recorded by those stages): what the pair list and so the blocks depend on.
StageOptions PairListOptions(const ReconstructionOptions& options, int num_images) {
  const PairSelectionOptions& selection = options.pair_selection;
  const LoopClosureOptions& loops = options.loop_closure;
  StageOptions list;
  list.Add("images", num_images)
      .Add("--matcher", PairSelectionName(selection.mode))
      .Add("--overlap", selection.overlap)
      .Add("--spatial-neighbors", selection.spatial_neighbors)
      .Add("--spatial-max-distance-m", selection.spatial_max_distance_m)
      .Add("--spatial-overlap", selection.spatial_sequential_overlap)
      .Add("--loop-closure", loops.enabled ? "on" : "off")
      .Add("--loop-candidates", loops.pairs.num_candidates)
      .Add("--loop-query-period", loops.pairs.query_period);
  return list;
}

bool SameImageTables(const SceneDatabase& a, const SceneDatabase& b) {
  const std::vector<DatabaseImage> images_a = a.ReadImages(), images_b = b.ReadImages();
  const std::vector<DatabaseCamera> cameras_a = a.ReadCameras(), cameras_b = b.ReadCameras();
  if (images_a.size() != images_b.size() || cameras_a.size() != cameras_b.size()) return false;
  for (size_t i = 0; i < images_a.size(); ++i) {
    if (images_a[i].image_id != images_b[i].image_id || images_a[i].name != images_b[i].name ||
        images_a[i].camera_id != images_b[i].camera_id) {
      return false;
    }
  }
  for (size_t i = 0; i < cameras_a.size(); ++i) {
    if (cameras_a[i].camera_id != cameras_b[i].camera_id ||
        !SameCamera(cameras_a[i].camera, cameras_b[i].camera) ||
        cameras_a[i].prior_focal_length != cameras_b[i].prior_focal_length) {
      return false;
    }
  }
  return true;
}

// Copies the cameras, images (without features) and extraction options of `extraction` into
// the empty shard database under the same ids.
void CopyImageTables(const SceneDatabase& extraction, SceneDatabase* database) {
  const auto require_same_id = [&](int copied, int original, const char* what) {
    PROJ_REQUIRE(copied == original,
                 extraction.path() << "'s " << what << " ids are not 1, 2, 3, ... without gaps; "
                                   "renumber them with sfm merge-databases "
                                   << extraction.path() << " -o MERGED.db and match MERGED.db");
  };
  SceneDatabase::Transaction transaction(database);
  for (const DatabaseCamera& camera : extraction.ReadCameras()) {
    require_same_id(database->AddCamera(camera.camera, camera.prior_focal_length), camera.camera_id, "camera");
  }
  for (const DatabaseImage& image : extraction.ReadImages()) {
    require_same_id(database->AddImage(image.name, image.camera_id), image.image_id, "image");
  }
  if (const std::optional<std::string> options = extraction.ReadStageOptions("extraction")) {
    database->WriteStageOptions("extraction", *options);
  }
  transaction.Commit();
}

}  // namespace

PairStageSummary RunMatchingShard(const ReconstructionOptions& options, const SceneDatabase& extraction,
                                  const Shard& shard, SceneDatabase* database) {
  const std::optional<ShardRecord> source = ReadShardRecord(extraction);
  PROJ_REQUIRE(!source, "'" << extraction.path() << "' is " << ShardKindName(source->kind) << " shard "
                            << source->shard.Name()
                            << "; merge the extraction shards first (sfm merge-databases "
                               "DB_0 ... DB_n-1 -o MERGED.db) and match MERGED.db");
  PROJ_REQUIRE(!extraction.ReadStageOptions("klt"),
               "'" << extraction.path() << "' holds KLT tracks, verified when they were tracked: "
                                           "there is nothing to match");
  const std::vector<int> image_ids = ImageIdsInNameOrder(extraction);
  const bool kept = BeginShard(database, ShardKind::kMatching, shard,
                               PairListOptions(options, static_cast<int>(image_ids.size())),
                               options.on_option_change);
  if (!kept) {
    SceneDatabase::Transaction transaction(database);
    database->DeleteAllMatches();
    transaction.Commit();
  }
  if (database->NumImages() == 0) CopyImageTables(extraction, database);
  PROJ_REQUIRE(SameImageTables(extraction, *database),
               "the matching shard database '" << database->path() << "' holds the images of another "
               "extraction database than '" << extraction.path()
                                               << "'; delete it (or give another --database) and run "
                                                  "the shard again");
  Timer timer;
  const RunPairs all = SelectRunPairs(options, image_ids, extraction);
  const double selection_seconds = timer.ElapsedSeconds();
  const auto [begin, end] = ShardBlock(all.pairs.size(), shard);
  RunPairs block;
  block.pairs.assign(all.pairs.begin() + begin, all.pairs.begin() + end);
  const size_t first_loop_pair = all.pairs.size() - all.loop_pairs.size();
  for (size_t k = std::max(begin, first_loop_pair); k < end; ++k) block.loop_pairs.push_back(all.pairs[k]);
  PROJ_LOG(kInfo, "matching shard " << shard.Name() << ": pairs " << begin << " to " << end << " of "
                                    << all.pairs.size());
  PairStageSummary summary = MatchAndVerifyPairs(options, block, extraction, database, /*verify=*/true);
  summary.times.Add("matching", selection_seconds);
  FinishShard(database, ShardKind::kMatching);
  return summary;
}

}  // namespace proj
