// CPU KLT tracker on OpenCV (goodFeaturesToTrack, buildOpticalFlowPyramid,
// calcOpticalFlowPyrLK), with the same options, checks and sequence logic as the GPU tracker;
// the drift correction of sequences is our own (klt_affine_refiner.h, on the float frame).
// Differences: OpenCV tracks 8-bit images (frames are rounded to 8 bits), and its failures
// (window lost, weak gradients) are both reported as KltStatus::kLost.
#pragma once

#include <memory>

#include "features/klt/klt_tracker.h"

namespace proj {

std::unique_ptr<KltTracker> CreateKltCpuTracker(const KltOptions& options);

}  // namespace proj
