// Stage 1 of the pipeline: decode every image of a folder (in parallel), convert and
// downscale it, extract features and sample keypoint colours. Unreadable images are skipped
// with their reason; they never stop the run.
#pragma once

#include <string>
#include <vector>

#include "features/feature_extractor.h"
#include "sfm/pipeline/image_record.h"

namespace proj {

struct ExtractionOptions {
  FeatureOptions features;
  int max_image_size = 3200;  // longer side for extraction, px; <= 0 keeps full size
  int num_threads = 0;        // decoding threads; 0 = all
  void Check() const;
};

struct ExtractionResult {
  std::vector<ImageRecord> images;     // usable images, in the order of `paths`
  std::vector<SkippedImage> skipped;   // unreadable files with their reason
  std::string extractor_description;
};

ExtractionResult ExtractFeatures(const ExtractionOptions& options,
                                 const std::vector<std::string>& paths);

}  // namespace proj
