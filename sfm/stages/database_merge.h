// sfm merge-databases: joins scene databases into one, keyed by image name: the extraction
// shards of a cluster run (shard.h), or a merged extraction database with the matching shards
// made from it. Images are renumbered 1..n in name order and cameras 1..k in order of first
// use, as a single run on a fresh database numbers them, so a merge of shards holds what one
// run over the whole folder would (same pair ids, so the same RANSAC seeds downstream).
//
// Refused, with an InputError naming the files and the reason: a shard whose task did not
// finish, a missing or repeated shard, shards of one run made with other options (naming the
// option), stage results computed with other options, an image (or pair) in two inputs with
// different content, a KLT database. GPS priors of extraction shards are reviewed here over
// the whole flight (gps_priors.h), which chooses the ENU frame; otherwise the inputs' ENU
// frames must agree.
//
// The output is written to OUTPUT.merging beside it and renamed over OUTPUT once complete,
// so a merge killed at any moment leaves OUTPUT as it was; inputs are only read.
#pragma once

#include <string>
#include <vector>

namespace proj {

struct MergeSummary {
  int num_images = 0;
  int num_cameras = 0;
  int num_matched_pairs = 0;
  int num_verified_pairs = 0;
  int num_shards = 0;          // inputs that are shards
  bool gps_reviewed = false;   // extraction shards' priors were reviewed
};

// `inputs`: at least one scene database (opened read-only); `output` must not be one of them.
MergeSummary MergeSceneDatabases(const std::vector<std::string>& inputs, const std::string& output);

}  // namespace proj
