#include "sfm/stages/pair_stage.h"

#include "core/logging.h"
#include "core/timer.h"
#include "sfm/stages/gps_priors.h"
#include "sfm/stages/matching_stage.h"
#include "sfm/stages/verification_stage.h"

namespace proj {

RunPairs SelectRunPairs(const ReconstructionOptions& options, const std::vector<int>& image_ids,
                        const SceneDatabase& database) {
  const PairSelectionReport selection =
      SelectImagePairs(options.pair_selection, PriorPositionsEnu(database, image_ids));
  if (!selection.note.empty()) PROJ_LOG(kInfo, "pair selection: " << selection.note);
  PROJ_LOG(kInfo, "pair selection: " << PairSelectionName(selection.mode) << ", "
                                     << selection.pairs.size() << " pairs");
  RunPairs run;
  for (const ImagePair& pair : selection.pairs) run.pairs.push_back({image_ids[pair.image1], image_ids[pair.image2]});
  if (selection.mode == PairSelection::kSequential && options.loop_closure.enabled) {
    run.loop_pairs = SelectLoopClosurePairs(options.loop_closure, database, image_ids,
                                            options.pair_selection.overlap);
    run.pairs.insert(run.pairs.end(), run.loop_pairs.begin(), run.loop_pairs.end());
    PROJ_LOG(kInfo, "loop closure: " << run.loop_pairs.size()
                                     << " pairs of images far apart in name order that look alike");
  }
  return run;
}

PairStageSummary MatchAndVerifyPairs(const ReconstructionOptions& options, const RunPairs& pairs,
                                     const SceneDatabase& features, SceneDatabase* results,
                                     bool verify) {
  PairStageSummary summary;
  const std::optional<std::string> extraction = features.ReadStageOptions("extraction");
  const StageOptions feature_options =
      extraction ? StageOptions::FromText(*extraction) : StageOptions().Add("features", "foreign");
  Timer timer;
  const MatchingSummary matching =
      MatchImagePairs(options.matching, options.max_chunk_images, feature_options, options.on_option_change,
                      pairs.pairs, features, results);
  summary.times.Add("matching", timer.ElapsedSeconds());
  summary.matcher = matching.matcher_description;
  summary.counts.num_pairs_matched = matching.num_pairs;
  summary.counts.num_putative_matches = matching.num_putative_matches;
  summary.counts.num_pairs_matched_now = matching.num_matched;
  summary.counts.num_pairs_match_reused = matching.num_reused;
  if (!verify) return summary;

  timer.Restart();
  StageOptions upstream = MatchingFingerprint(options.matching);
  upstream.Add(feature_options).Add(options.cameras.Fingerprint());
  const VerificationSummary verification =
      VerifyImagePairs(options.two_view, options.run.num_threads, options.max_chunk_images, upstream,
                       options.on_option_change, pairs.pairs, features, results);
  summary.times.Add("geometric_verification", timer.ElapsedSeconds());
  summary.counts.num_pairs_verified_now = verification.num_verified;
  summary.counts.num_pairs_verify_reused = verification.num_reused;
  summary.counts.num_loop_pairs = static_cast<int>(pairs.loop_pairs.size());
  for (const ImagePair& pair : pairs.loop_pairs) {
    const auto geometry = results->ReadTwoViewGeometry(pair.image1, pair.image2);
    if (geometry && geometry->configuration != TwoViewConfiguration::kDegenerate) {
      ++summary.counts.num_loop_pairs_verified;
    }
  }
  if (!pairs.loop_pairs.empty()) {
    PROJ_LOG(kInfo, "loop closure: " << summary.counts.num_loop_pairs_verified << "/"
                                     << pairs.loop_pairs.size() << " loop pairs verified");
  }
  return summary;
}

PairStageSummary RunMatchingStages(const ReconstructionOptions& options, const std::vector<int>& image_ids,
                                   SceneDatabase* database, bool verify) {
  if (database->ReadStageOptions("klt")) {
    PROJ_LOG(kInfo, "matching: the database holds KLT tracks, already verified");
    PairStageSummary summary;
    summary.tracked_by_klt = true;
    return summary;
  }
  Timer timer;
  const RunPairs pairs = SelectRunPairs(options, image_ids, *database);
  const double selection_seconds = timer.ElapsedSeconds();
  PairStageSummary summary = MatchAndVerifyPairs(options, pairs, *database, database, verify);
  summary.times.Add("matching", selection_seconds);  // selection counts as matching time
  return summary;
}

}  // namespace proj
