// The stages of reconstruct as sub-commands of their own, working on one scene database:
// extract (folder -> features), match (features -> verified pairs), map (verified pairs ->
// model). A database written by COLMAP's feature_extractor and matcher can be mapped too.
#include <memory>
#include <sstream>

#include "core/logging.h"
#include "cuda/device_selection.h"
#include "io/atomic_file.h"
#include "sfm/app/pipeline_commands.h"
#include "sfm/app/pipeline_options.h"
#include "sfm/pipeline/reconstruction_pipeline.h"
#include "sfm/stages/input_stage.h"
#include "sfm/stages/mapping_stage.h"
#include "sfm/stages/matching_shard.h"
#include "sfm/stages/pair_stage.h"

namespace proj::app {
namespace {

struct StageArgs {
  std::string images_dir;
  std::string out_dir;
  PipelineArgs pipeline;
  bool no_verify = false;
  std::string shard;  // --shard i/N ("" without)
  std::string extraction_database;
};

CLI::Option* AddShardOption(CLI::App& app, StageArgs* args, const char* what) {
  return app.add_option("--shard", args->shard,
                        std::string("Run task i of N (counted from 0) of a job split over a cluster: ") + what +
                            " into --database, a file of its own; sfm merge-databases joins the N "
                            "files. A task stopped mid-way resumes from its file (README \"Cluster\")")
      ->type_name("i/N");
}

std::optional<Shard> ParsedShard(const StageArgs& args) {
  if (args.shard.empty()) return std::nullopt;
  return ParseShard(args.shard);
}

}  // namespace

PipelineRunner AddExtractPipeline(CLI::App& app) {
  auto args = std::make_shared<StageArgs>();
  app.add_option("IMAGES_DIR", args->images_dir,
                 "Folder of photos (.jpg, .jpeg, .png) and videos (.mp4, .mov, .mkv, ...), or one video")
      ->required();
  AddDatabaseOption(app, &args->pipeline, /*required=*/true);
  AddRunOptions(app, &args->pipeline);
  AddGpusOption(app, &args->pipeline);
  AddExtractionOptions(app, &args->pipeline);
  AddShardOption(app, args.get(),
                 "extracts the images whose file name hashes to shard i (the same files whatever "
                 "is added to the folder)");
  return [args]() {
    const ReconstructionOptions options = args->pipeline.Finalize();
    const std::optional<Shard> shard = ParsedShard(*args);
    PROJ_LOG(kInfo, "device: " << ComputeDeviceSummary(options.run.device, options.run.gpus));
    SceneDatabase database(args->pipeline.database_path, SceneDatabase::Mode::kReadWrite);
    const ExtractionStageSummary summary = RunExtractionStage(options, args->images_dir, &database, shard);
    const InputCounts& s = summary.counts;
    std::ostringstream report;
    report << "extracted " << s.num_images_extracted << " images, reused " << s.num_images_reused
           << ", removed " << s.num_images_removed << ", skipped " << summary.skipped.size()
           << "; the database holds " << summary.image_ids.size() << " images and " << s.num_features
           << " features";
    PipelineOutcome outcome;
    outcome.report = report.str();
    outcome.database_path = database.path();
    return outcome;
  };
}

PipelineRunner AddMatchPipeline(CLI::App& app) {
  auto args = std::make_shared<StageArgs>();
  AddDatabaseOption(app, &args->pipeline, /*required=*/true);
  AddRunOptions(app, &args->pipeline);
  AddGpusOption(app, &args->pipeline);
  AddMatchingOptions(app, &args->pipeline, /*with_klt=*/false);
  auto* no_verify = app.add_flag("--no-verify", args->no_verify,
                                 "Match descriptors only, without geometric verification; a later "
                                 "sfm match or sfm reconstruct on this database verifies the "
                                 "pairs, reusing the matches [off]");
  auto* shard = AddShardOption(app, args.get(),
                               "matches and verifies block i of the N blocks of the run's pair "
                               "list, reading images and features from --extraction-database,");
  auto* extraction = app.add_option("--extraction-database", args->extraction_database,
                                    "With --shard: the merged extraction database the pairs are "
                                    "selected from and the features read from (read-only, shared "
                                    "by all tasks)")
                         ->check(CLI::ExistingFile);
  shard->needs(extraction)->excludes(no_verify);
  extraction->needs(shard);
  return [args]() {
    const ReconstructionOptions options = args->pipeline.Finalize();
    const std::optional<Shard> shard = ParsedShard(*args);
    PROJ_LOG(kInfo, "device: " << ComputeDeviceSummary(options.run.device, options.run.gpus));
    SceneDatabase database(args->pipeline.database_path, SceneDatabase::Mode::kReadWrite);
    PairStageSummary summary;
    if (shard) {
      const SceneDatabase features(args->extraction_database, SceneDatabase::Mode::kReadOnly);
      summary = RunMatchingShard(options, features, *shard, &database);
    } else {
      summary = RunMatchingStages(options, ImageIdsInNameOrder(database), &database, !args->no_verify);
    }
    const PairCounts& s = summary.counts;
    std::ostringstream report;
    report << "matched " << s.num_pairs_matched_now << " pairs (" << s.num_pairs_match_reused
           << " reused), ";
    if (!args->no_verify) {
      report << "verified " << s.num_pairs_verified_now << " (" << s.num_pairs_verify_reused
             << " reused)";
    } else {
      report << "not verified (--no-verify)";
    }
    PipelineOutcome outcome;
    outcome.report = report.str();
    outcome.database_path = database.path();
    return outcome;
  };
}

PipelineRunner AddMapPipeline(CLI::App& app) {
  auto args = std::make_shared<StageArgs>();
  AddDatabaseOption(app, &args->pipeline, /*required=*/true);
  app.add_option("-o,--output", args->out_dir, "Output folder (created if missing)")->required();
  app.add_option("--image-path", args->images_dir,
                 "Folder of the photos, to colour the points (grey without it)");
  AddRunOptions(app, &args->pipeline);
  AddMapperOptions(app, &args->pipeline);
  return [args]() {
    const ReconstructionOptions options = args->pipeline.Finalize();
    EnsureWritableDirectory(args->out_dir);
    const SceneDatabase database(args->pipeline.database_path, SceneDatabase::Mode::kReadOnly);
    ReconstructionResult result;
    result.database_path = database.path();
    Timer total;
    AddStageSummary(RunMappingStage(options, {}, database), &result);
    result.times.Add("total", total.ElapsedSeconds());
    RunDescription run{args->images_dir, "cpu", "sfm map --database " + database.path()};
    FinishReconstruction(run, args->out_dir, options.run.num_threads, &result);
    return OutcomeOfRun(std::move(result), args->out_dir, args->pipeline.accept_suspect_model);
  };
}

}  // namespace proj::app
