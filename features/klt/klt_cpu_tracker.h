// CPU KLT tracker on OpenCV (goodFeaturesToTrack, buildOpticalFlowPyramid,
// calcOpticalFlowPyrLK), with the same options, checks and sequence logic as the GPU tracker.
// Differences: OpenCV tracks 8-bit images (frames are rounded to 8 bits), and its failures
// (window lost, weak gradients) are both reported as KltStatus::kLost.
#pragma once

#include <memory>

#include "features/klt/klt_tracker.h"

namespace proj {

std::unique_ptr<KltTracker> CreateKltCpuTracker(const KltOptions& options);

}  // namespace proj
