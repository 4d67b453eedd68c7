// Correspondences for an ordered image sequence from KLT tracks: each frame's keypoints are
// the tracks alive in it, and every pair of frames (i, j) with j - i in the chosen gaps gets
// the matches of the tracks alive in both. The pairs go to the same geometric verification and
// mapper as descriptor matches.
//
// Consistency: keypoint k of frame f is track track_ids[f][k]; a track has exactly one
// keypoint per frame it is alive in, and is alive in a contiguous run of frames, so the
// indices of all pairs agree (a track seen in frames i < j < l links (i, j), (j, l) and
// (i, l) through the same keypoints).
#pragma once

#include <functional>
#include <vector>

#include "features/feature_extractor.h"
#include "features/feature_types.h"
#include "features/klt/klt_tracker.h"
#include "matching/matching_types.h"

namespace proj {

struct KltSequenceOptions {
  ComputeDevice device = ComputeDevice::kAuto;  // tracker implementation (see CreateKltTracker)
  // Pairs (i, i + g) for g = 1, 2, 4, ... <= max_frame_gap (powers of two), or for every
  // g = 1 .. max_frame_gap when all_gaps is set.
  int max_frame_gap = 8;
  bool all_gaps = false;
  int min_pair_matches = 16;  // pairs with fewer shared tracks are left out
  void Check() const;
};

struct SequenceCorrespondences {
  // keypoints[f][k]: pixel position (centre of the top-left pixel at (0.5, 0.5)); scale 1,
  // orientation 0, response 0, octave 0 (KLT features carry no scale).
  std::vector<std::vector<Keypoint>> keypoints;
  std::vector<std::vector<int>> track_ids;  // track_ids[f][k], increasing in k
  std::vector<PairMatches> pairs;           // image1 < image2 (frame indices), by image2 then gap
  int num_tracks = 0;                       // track ids are 0 .. num_tracks - 1
};

// Writes frame `index` (0 .. num_frames - 1) into *frame, whose storage is reused from one
// frame to the next; called once per frame in increasing order, so frames need not all be in
// memory.
using FrameProvider = std::function<void(int index, GrayImage* frame)>;
// The same for 8-bit frames: returns a view of frame `index`, valid until the next call.
using Frame8Provider = std::function<KltFrame8(int index)>;

// Called on the tracking thread after frame `frame` is tracked, with the correspondences so
// far: the keypoints and track ids of frames 0 .. frame and the pairs ending at or before
// `frame` are final. Pair storage is reserved for the whole sequence before the first frame,
// so no pair or keypoint list moves while tracking: an observer may hand references to them to
// other threads, valid while the result lives.
using SequenceObserver = std::function<void(int frame, const SequenceCorrespondences& so_far)>;

SequenceCorrespondences TrackSequence(int num_frames, const FrameProvider& frames,
                                      const KltOptions& options,
                                      const KltSequenceOptions& sequence_options = {});
// Frames already in memory (not copied).
SequenceCorrespondences TrackSequence(const std::vector<GrayImage>& frames, const KltOptions& options,
                                      const KltSequenceOptions& sequence_options = {});

// The same, with a tracker the caller made (and may reuse; it is Reset first).
SequenceCorrespondences TrackSequence(int num_frames, const FrameProvider& frames,
                                      KltTracker* tracker,
                                      const KltSequenceOptions& sequence_options = {});
SequenceCorrespondences TrackSequence(const std::vector<GrayImage>& frames, KltTracker* tracker,
                                      const KltSequenceOptions& sequence_options = {});
// 8-bit frames (the pipeline's form) into *result, with an optional observer of each
// finished frame. The caller owns the result, so when tracking throws, the frames so far stay
// alive until the threads the observer fed are stopped.
void TrackSequence(int num_frames, const Frame8Provider& frames, KltTracker* tracker,
                   const KltSequenceOptions& sequence_options, const SequenceObserver& observer,
                   SequenceCorrespondences* result);

}  // namespace proj
