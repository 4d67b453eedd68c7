#include "sfm/pipeline/extraction_stage.h"

#include <algorithm>
#include <filesystem>
#include <mutex>
#include <optional>

#include "core/check.h"
#include "core/logging.h"
#include "core/parallel_for.h"
#include "core/progress.h"
#include "features/image_preprocessing.h"
#include "io/image_decode.h"
#include "sfm/pipeline/keypoint_colors.h"

namespace proj {
void ExtractionOptions::Check() const {
  features.Check();
  PROJ_REQUIRE(max_image_size == 0 || max_image_size >= 64,
               "--max-image-size must be 0 (no limit) or at least 64 (got " << max_image_size << ")");
}

ExtractionResult ExtractFeatures(const ExtractionOptions& options,
                                 const std::vector<std::string>& paths) {
  options.Check();
  auto extractor = CreateFeatureExtractor(options.features);
  ExtractionResult result;
  result.extractor_description = extractor->Description();
  PROJ_LOG(kInfo, "extracting features with " << result.extractor_description);

  const int count = static_cast<int>(paths.size());
  std::vector<std::optional<ImageRecord>> records(count);
  std::vector<std::string> errors(count);
  // Decoding runs on every worker; extraction is limited to what the extractor allows at
  // once, so with a GPU extractor the other workers decode the next images meanwhile.
  std::mutex extractor_mutex;
  const bool serialize = extractor->ConcurrentCalls() <= 1;
  Progress progress("extracting features", count, "images");
  ParallelFor(0, count, options.num_threads, [&](int i, int) {
    const std::string name = std::filesystem::path(paths[i]).filename().string();
    try {
      Image image = ReadImageFile(paths[i]);
      ImageRecord record = MakeImageRecord(paths[i], image);
      double scale = 1.0;
      const GrayImage grey = LimitImageSize(ToGrayImage(image), options.max_image_size, &scale);
      if (serialize) {
        std::lock_guard<std::mutex> lock(extractor_mutex);
        record.features = extractor->Extract(grey);
      } else {
        record.features = extractor->Extract(grey);
      }
      ScaleKeypoints(scale, &record.features);
      record.colors = SampleColors(image, record.features);
      records[i] = std::move(record);
    } catch (const InputError& error) {
      errors[i] = error.what();
    }
    progress.Advance();
  });

  for (int i = 0; i < count; ++i) {
    if (records[i]) {
      if (records[i]->features.size() == 0) {
        PROJ_LOG(kWarning, "'" << records[i]->name << "': no features found");
      }
      result.images.push_back(std::move(*records[i]));
    } else {
      SkipImage(paths[i], errors[i], &result.skipped);
    }
  }
  return result;
}

}  // namespace proj
