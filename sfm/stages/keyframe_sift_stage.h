// Optional stage of `--matcher klt` (--klt-keyframe-sift): SIFT matches between keyframes, for
// the wide-baseline and loop-closing pairs that KLT tracks cannot give (a track is lost once
// its point leaves the view, and KLT pairs link frames at most the KLT max gap apart).
//
// Keyframes are every keyframe_interval-th image of the sequence in name order, plus the last.
// The configured feature extractor (extraction_stage.h) runs on the keyframes; pairs of
// keyframes more than the KLT max gap apart are matched by the descriptor matcher and verified
// by the same two-view verification as all pairs (pair_verification.h): with loop closure
// (loop_closure.h, the default) each keyframe with the keyframes most alike by their SIFT
// words (a number linear in the keyframes, wherever in the sequence they are), else every such
// pair. Closer keyframes are left to the KLT tracks, which already link them with denser,
// sub-pixel correspondences.
//
// Each keyframe's feature list becomes its KLT points followed by its SIFT keypoints; the
// SIFT matches index that merged list (offset by the keyframe's KLT point count), so the
// track builder and the mapper see one consistent list per image. SIFT and KLT features of
// one keyframe stay separate tracks.
#pragma once

#include <string>
#include <vector>

#include "geometry/camera/camera.h"
#include "matching/descriptor_matcher.h"
#include "matching/matching_types.h"
#include "matching/two_view_geometry.h"
#include "sfm/stages/extraction_stage.h"
#include "sfm/stages/image_record.h"
#include "sfm/stages/loop_closure.h"

namespace proj {

struct KeyframeSiftOptions {
  bool enabled = false;        // off: --matcher klt uses KLT tracks only
  int keyframe_interval = 10;  // frames 0, N, 2N, ... (name order) and the last are keyframes
  void Check() const;
};

// Keyframe indices into a sequence of num_frames images: 0, interval, 2 * interval, ... and
// num_frames - 1, increasing.
std::vector<int> SelectKeyframes(int num_frames, int keyframe_interval);

// Every pair of `keyframes` (increasing frame indices) more than max_klt_gap frames apart.
std::vector<ImagePair> SelectKeyframePairs(const std::vector<int>& keyframes, int max_klt_gap);

struct KeyframeSiftResult {
  std::vector<int> keyframes;               // image indices
  long long num_sift_features = 0;          // on all keyframes
  std::vector<PairMatches> putative_pairs;  // image indices; keypoints of the merged lists
  std::vector<TwoViewGeometry> geometries;  // geometries[p] verifies putative_pairs[p]
  int num_verified_pairs = 0;               // geometries that are not degenerate
  int max_verified_gap = 0;                 // widest verified pair, frames (0: none)
  std::string extractor_description;
  std::string matcher_description;
  double extraction_seconds = 0, matching_seconds = 0, verification_seconds = 0;
};

// Everything that the stage borrows from the rest of the pipeline's options.
struct KeyframeSiftSettings {
  KeyframeSiftOptions keyframes;
  ExtractionOptions extraction;      // extractor, --max-image-size, --max-features, threads
  DescriptorMatchOptions matching;   // matcher and its threads
  TwoViewGeometryOptions two_view;   // the verification of every pair
  int max_klt_gap = 8;               // KltSequenceOptions::max_frame_gap
  // Pair p of the result is seeded with two_view.seed + first_pair_index + p (the KLT pairs
  // before it have seeds up to their count).
  size_t first_pair_index = 0;
  // Enabled: each keyframe is paired with its loop_closure.pairs.num_candidates most similar
  // keyframes beyond the KLT gap (every keyframe queries); disabled: all pairs beyond it.
  LoopClosureOptions loop_closure;
};

// Pairs (frame indices) of `keyframes` more than max_klt_gap frames apart whose images look
// alike: each keyframe with its num_candidates most similar such keyframes (`descriptors[k]`:
// SIFT descriptors of keyframe k).
std::vector<ImagePair> SelectSimilarKeyframePairs(const std::vector<int>& keyframes,
                                                  const std::vector<DescriptorList>& descriptors,
                                                  int max_klt_gap, const LoopClosureOptions& options);

// `records`: the sequence's readable images in name order, each holding its KLT points as
// features; cameras[i]: the camera (focal prior) of records[i]. Reads the keyframes' files
// again, extracts, matches and verifies, then appends each keyframe's SIFT keypoints to its
// record's features. Descriptors are not kept (the records' features are keypoints only) and
// colours are sampled when the outputs are written. A keyframe that cannot be read again keeps
// its KLT points only and is left out of the keyframes.
KeyframeSiftResult AddKeyframeSift(const KeyframeSiftSettings& settings,
                                   const std::vector<Camera>& cameras,
                                   std::vector<ImageRecord>* records);

}  // namespace proj
