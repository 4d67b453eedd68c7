// sfm merge-databases: the scene databases of a cluster run's shards joined into one
// (sfm/stages/database_merge.h).
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "sfm/app/commands.h"
#include "sfm/stages/database_merge.h"

namespace proj::app {

CommandRunner AddMergeDatabasesCommand(CLI::App& app) {
  auto inputs = std::make_shared<std::vector<std::string>>();
  auto output = std::make_shared<std::string>();
  app.add_option("DATABASES", *inputs,
                 "Scene databases to join, keyed by image name: the N extraction shards of a run "
                 "(sfm extract --shard i/N), or the merged extraction database and the N matching "
                 "shards made from it (sfm match --shard i/N). Refused: a shard whose task did not "
                 "finish, a missing shard, shards made with other options, an image in two "
                 "databases with different content")
      ->required()
      ->check(CLI::ExistingFile);
  app.add_option("-o,--output", *output,
                 "Merged database, written whole and then renamed into place (replaces a file "
                 "there); images numbered 1..n in name order, as a single run numbers them")
      ->required();
  return [=]() {
    const MergeSummary summary = MergeSceneDatabases(*inputs, *output);
    std::cout << "merged " << inputs->size() << " databases (" << summary.num_shards << " shards) into "
              << *output << ": " << summary.num_images << " images, " << summary.num_cameras
              << " cameras, " << summary.num_matched_pairs << " matched pairs, "
              << summary.num_verified_pairs << " verified"
              << (summary.gps_reviewed ? "; GPS priors reviewed over all images" : "") << "\n";
    return kExitSuccess;
  };
}

}  // namespace proj::app
