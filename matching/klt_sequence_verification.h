// KLT tracking of an ordered sequence with geometric verification of its pairs, overlapped:
// each pair of frames (klt_sequence_matcher.h) is verified (two_view_geometry.h) on a pool of
// CPU threads as soon as both frames are tracked, while the tracker (GPU or CPU) goes on with
// the next frames. This is what `sfm reconstruct --matcher klt` runs after decoding
// (sfm/stages/klt_stage.h) and what bench/klt_bench times.
//
// Results do not depend on the schedule: pair p is verified with the RANSAC seed
// two_view.seed + p (EstimateListedPairGeometry) whichever thread takes it and whenever, so
// overlap on and off give identical geometries.
#pragma once

#include <vector>

#include "geometry/camera/camera.h"
#include "matching/klt_sequence_matcher.h"
#include "matching/two_view_geometry.h"

namespace proj {

struct SequenceVerificationOptions {
  TwoViewGeometryOptions two_view;  // pair p of the sequence is seeded with two_view.seed + p
  // Threads (<= 0: all hardware threads). While tracking overlaps, the tracking thread is one
  // of them and num_threads - 1 verify; all num_threads verify once the last frame is tracked.
  int num_threads = 0;
  // Verify while tracking; false: start verifying after the last frame is tracked.
  bool overlap = true;
  void Check() const;
};

struct VerifiedSequence {
  // Keypoints in the pixels of the original images (tracked pixels x keypoint_scales[f], as
  // ScaleKeypoints), the pixels verification saw.
  SequenceCorrespondences correspondences;
  std::vector<TwoViewGeometry> geometries;  // geometries[p] verifies correspondences.pairs[p]
  double tracking_seconds = 0;      // until the last frame is tracked
  double verification_seconds = 0;  // from then until the last pair is verified
};

// frames(f): frame f, 8-bit. cameras[f]: its camera (focal prior, in original pixels).
// keypoint_scales[f]: original pixels per tracked pixel (empty: 1 for every frame).
// The tracker is Reset first. Throws InputError for bad options or sizes.
VerifiedSequence TrackAndVerifySequence(int num_frames, const Frame8Provider& frames,
                                        const std::vector<Camera>& cameras,
                                        const std::vector<double>& keypoint_scales,
                                        KltTracker* tracker,
                                        const KltSequenceOptions& sequence_options,
                                        const SequenceVerificationOptions& options);

}  // namespace proj
