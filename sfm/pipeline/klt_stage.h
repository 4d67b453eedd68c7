// Stage 1+2 of the pipeline for ordered sequences (--matcher klt): decode the images in name
// order, track KLT features through them, and return per-image keypoints (with colours) and
// putative matches between frames a track spans. The matches then go through the same
// geometric verification and mapper as descriptor matches. Unreadable files are skipped (the
// sequence continues over the readable ones).
#pragma once

#include <string>
#include <vector>

#include "features/feature_extractor.h"
#include "matching/klt_sequence_matcher.h"
#include "sfm/pipeline/image_record.h"

namespace proj {

struct KltStageOptions {
  KltOptions klt;
  KltSequenceOptions sequence;
  int max_image_size = 3200;  // frames are tracked at this longer side, px (<= 0: full size)
  int num_threads = 0;
  void Check() const;
};

struct KltStageResult {
  std::vector<ImageRecord> images;        // readable images in name order (no descriptors)
  std::vector<SkippedImage> skipped;
  std::vector<PairMatches> putative_pairs;  // indices into `images`
  std::string tracker_description;
  double decode_seconds = 0;
  double tracking_seconds = 0;
};

KltStageResult TrackImageSequence(const KltStageOptions& options,
                                  const std::vector<std::string>& paths);

}  // namespace proj
