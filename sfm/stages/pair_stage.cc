#include "sfm/stages/pair_stage.h"

#include "core/logging.h"
#include "core/timer.h"
#include "sfm/stages/gps_priors.h"
#include "sfm/stages/matching_stage.h"
#include "sfm/stages/verification_stage.h"

namespace proj {

PairStageSummary RunMatchingStages(const ReconstructionOptions& options, const std::vector<int>& image_ids,
                                   SceneDatabase* database, bool verify) {
  PairStageSummary summary;
  if (database->ReadStageOptions("klt")) {
    PROJ_LOG(kInfo, "matching: the database holds KLT tracks, already verified");
    summary.tracked_by_klt = true;
    return summary;
  }
  const std::optional<std::string> extraction = database->ReadStageOptions("extraction");
  const StageOptions features =
      extraction ? StageOptions::FromText(*extraction) : StageOptions().Add("features", "foreign");
  Timer timer;
  const PairSelectionReport selection =
      SelectImagePairs(options.pair_selection, PriorPositionsEnu(*database, image_ids));
  if (!selection.note.empty()) PROJ_LOG(kInfo, "pair selection: " << selection.note);
  PROJ_LOG(kInfo, "pair selection: " << PairSelectionName(selection.mode) << ", "
                                     << selection.pairs.size() << " pairs");
  std::vector<ImagePair> pairs;
  for (const ImagePair& pair : selection.pairs) pairs.push_back({image_ids[pair.image1], image_ids[pair.image2]});
  std::vector<ImagePair> loop_pairs;
  if (selection.mode == PairSelection::kSequential && options.loop_closure.enabled) {
    loop_pairs = SelectLoopClosurePairs(options.loop_closure, *database, image_ids,
                                        options.pair_selection.overlap);
    pairs.insert(pairs.end(), loop_pairs.begin(), loop_pairs.end());
    PROJ_LOG(kInfo, "loop closure: " << loop_pairs.size()
                                     << " pairs of images far apart in name order that look alike");
  }
  const MatchingSummary matching = MatchImagePairs(options.matching, options.max_chunk_images, features,
                                                   options.on_option_change, pairs, database);
  summary.times.Add("matching", timer.ElapsedSeconds());
  summary.matcher = matching.matcher_description;
  summary.counts.num_pairs_matched = matching.num_pairs;
  summary.counts.num_putative_matches = matching.num_putative_matches;
  summary.counts.num_pairs_matched_now = matching.num_matched;
  summary.counts.num_pairs_match_reused = matching.num_reused;
  if (!verify) return summary;

  timer.Restart();
  StageOptions upstream = MatchingFingerprint(options.matching);
  upstream.Add(features).Add(options.cameras.Fingerprint());
  const VerificationSummary verification =
      VerifyImagePairs(options.two_view, options.run.num_threads, options.max_chunk_images, upstream,
                       options.on_option_change, pairs, database);
  summary.times.Add("geometric_verification", timer.ElapsedSeconds());
  summary.counts.num_pairs_verified_now = verification.num_verified;
  summary.counts.num_pairs_verify_reused = verification.num_reused;
  summary.counts.num_loop_pairs = static_cast<int>(loop_pairs.size());
  for (const ImagePair& pair : loop_pairs) {
    const auto geometry = database->ReadTwoViewGeometry(pair.image1, pair.image2);
    if (geometry && geometry->configuration != TwoViewConfiguration::kDegenerate) {
      ++summary.counts.num_loop_pairs_verified;
    }
  }
  if (!loop_pairs.empty()) {
    PROJ_LOG(kInfo, "loop closure: " << summary.counts.num_loop_pairs_verified << "/"
                                     << loop_pairs.size() << " loop pairs verified");
  }
  return summary;
}

}  // namespace proj
