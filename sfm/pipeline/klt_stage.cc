#include "sfm/pipeline/klt_stage.h"

#include <algorithm>
#include <filesystem>
#include <optional>

#include "core/check.h"
#include "core/logging.h"
#include "core/parallel_for.h"
#include "core/progress.h"
#include "core/timer.h"
#include "features/image_preprocessing.h"
#include "features/klt/klt_tracker.h"
#include "io/image_decode.h"
#include "sfm/pipeline/keypoint_colors.h"

namespace proj {

void KltStageOptions::Check() const {
  klt.Check();
  sequence.Check();
  PROJ_REQUIRE(max_image_size == 0 || max_image_size >= 64,
               "--max-image-size must be 0 (no limit) or at least 64");
}

namespace {

// A decoded frame kept as 8-bit grey at tracking size (a quarter of float's memory).
struct StoredFrame {
  int width = 0, height = 0;
  double scale = 1.0;  // original pixels per tracking pixel
  std::vector<uint8_t> grey;
};

}  // namespace

KltStageResult TrackImageSequence(const KltStageOptions& options,
                                  const std::vector<std::string>& paths) {
  options.Check();
  KltStageResult result;
  const int count = static_cast<int>(paths.size());
  std::vector<std::optional<ImageRecord>> records(count);
  std::vector<StoredFrame> frames(count);
  std::vector<std::string> errors(count);

  Timer timer;
  {
    Progress progress("decoding", count, "images");
    ParallelFor(0, count, options.num_threads, [&](int i, int) {
      try {
        const Image image = ReadImageFile(paths[i]);
        ImageRecord record = MakeImageRecord(paths[i], image);
        StoredFrame& frame = frames[i];
        const GrayImage grey = LimitImageSize(ToGrayImage(image), options.max_image_size, &frame.scale);
        frame.width = grey.width;
        frame.height = grey.height;
        frame.grey.resize(grey.pixels.size());
        for (size_t p = 0; p < grey.pixels.size(); ++p) {
          frame.grey[p] = static_cast<uint8_t>(std::lround(std::clamp(grey.pixels[p], 0.0f, 1.0f) * 255));
        }
        records[i] = std::move(record);
      } catch (const InputError& error) {
        errors[i] = error.what();
      }
      progress.Advance();
    });
  }
  std::vector<int> usable;
  for (int i = 0; i < count; ++i) {
    if (records[i]) {
      usable.push_back(i);
    } else {
      const std::string name = std::filesystem::path(paths[i]).filename().string();
      PROJ_LOG(kWarning, "skipping '" << name << "': " << errors[i]);
      result.skipped.push_back({name, errors[i]});
    }
  }
  result.decode_seconds = timer.ElapsedSeconds();
  if (usable.size() < 2) return result;
  for (int i : usable) {
    PROJ_REQUIRE(frames[i].width == frames[usable[0]].width &&
                     frames[i].height == frames[usable[0]].height,
                 "--matcher klt needs frames of one size, but '"
                     << records[i]->name << "' differs from '" << records[usable[0]]->name << "'");
  }

  timer.Restart();
  auto tracker = CreateKltTracker(options.klt, options.sequence.device);
  result.tracker_description = tracker->Description();
  PROJ_LOG(kInfo, "tracking with " << result.tracker_description);
  Progress progress("tracking", static_cast<int>(usable.size()), "frames");
  const FrameProvider provider = [&](int index, GrayImage* frame) {
    const StoredFrame& stored = frames[usable[index]];
    frame->width = stored.width;
    frame->height = stored.height;
    frame->pixels.resize(stored.grey.size());
    for (size_t p = 0; p < stored.grey.size(); ++p) frame->pixels[p] = stored.grey[p] / 255.0f;
    progress.Advance();
  };
  SequenceCorrespondences correspondences =
      TrackSequence(static_cast<int>(usable.size()), provider, tracker.get(), options.sequence);
  result.tracking_seconds = timer.ElapsedSeconds();

  for (size_t f = 0; f < usable.size(); ++f) {
    ImageRecord record = std::move(*records[usable[f]]);
    record.features.keypoints = std::move(correspondences.keypoints[f]);
    ScaleKeypoints(frames[usable[f]].scale, &record.features);
    result.images.push_back(std::move(record));
  }
  result.putative_pairs = std::move(correspondences.pairs);
  SampleKeypointColors(options.num_threads, &result.images);
  return result;
}

}  // namespace proj
