#include "sfm/stages/klt_stage.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>

#include "core/check.h"
#include "core/logging.h"
#include "core/parallel_for.h"
#include "core/progress.h"
#include "core/timer.h"
#include "cuda/device_selection.h"
#include "cuda/gpu_fallback.h"
#include "features/image_preprocessing.h"
#include "features/klt/klt_tracker.h"
#include "io/image_decode.h"
#include "matching/klt_sequence_verification.h"

namespace proj {

void KltStageOptions::Check() const {
  klt.Check();
  sequence.Check();
  PROJ_REQUIRE(max_image_size == 0 || max_image_size >= 64,
               "--max-image-size must be 0 (no limit) or at least 64");
}

KltStoredFrame MakeKltStoredFrame(const Image& image, int max_image_size) {
  KltStoredFrame frame;
  const GrayImage grey = LimitImageSize(ToGrayImage(image), max_image_size, &frame.scale);
  frame.width = grey.width;
  frame.height = grey.height;
  frame.grey.resize(grey.pixels.size());
  for (size_t p = 0; p < grey.pixels.size(); ++p) {
    frame.grey[p] = static_cast<uint8_t>(std::lround(std::clamp(grey.pixels[p], 0.0f, 1.0f) * 255));
  }
  return frame;
}

DecodedSequence DecodeImageSequence(const KltStageOptions& options,
                                    const std::vector<std::string>& paths) {
  options.Check();
  DecodedSequence result;
  const int count = static_cast<int>(paths.size());
  std::vector<std::optional<ImageRecord>> records(count);
  std::vector<KltStoredFrame> frames(count);
  std::vector<std::string> errors(count);

  Timer timer;
  {
    Progress progress("decoding", count, "images");
    ParallelFor(0, count, options.num_threads, [&](int i, int) {
      try {
        const Image image = ReadImageFile(paths[i], nullptr, options.decode);
        ImageRecord record = MakeImageRecord(paths[i], image);
        frames[i] = MakeKltStoredFrame(image, options.max_image_size);
        records[i] = std::move(record);
      } catch (const InputError& error) {
        errors[i] = error.what();
      }
      progress.Advance();
    });
  }
  for (int i = 0; i < count; ++i) {
    if (records[i]) {
      result.images.push_back(std::move(*records[i]));
      result.frames.push_back(std::move(frames[i]));
    } else {
      SkipImage(paths[i], errors[i], &result.skipped);
    }
  }
  result.decode_seconds = timer.ElapsedSeconds();
  for (size_t i = 1; i < result.frames.size(); ++i) {
    PROJ_REQUIRE(result.frames[i].width == result.frames[0].width &&
                     result.frames[i].height == result.frames[0].height,
                 "--matcher klt needs frames of one size, but '"
                     << result.images[i].name << "' differs from '" << result.images[0].name << "'");
  }
  return result;
}

KltStageResult TrackAndVerifyDecodedSequence(const KltStageOptions& options,
                                             const TwoViewGeometryOptions& two_view,
                                             const DecodedSequence& sequence,
                                             const std::vector<Camera>& cameras,
                                             KltTracker* tracker) {
  options.Check();
  const int count = static_cast<int>(sequence.frames.size());
  PROJ_REQUIRE(sequence.images.size() == sequence.frames.size() && cameras.size() == sequence.frames.size(),
               "KLT stage: " << sequence.images.size() << " images, " << count << " frames and "
                             << cameras.size() << " cameras");
  KltStageResult result;
  std::vector<double> scales;
  for (const KltStoredFrame& frame : sequence.frames) scales.push_back(frame.scale);
  SequenceVerificationOptions verification;
  verification.two_view = two_view;
  verification.num_threads = options.num_threads;
  verification.overlap = options.overlap_verification;
  auto track = [&](KltTracker* with) {
    result.tracker_description = with->Description();
    PROJ_LOG(kInfo, "tracking with " << result.tracker_description << ", verifying pairs "
                                     << (options.overlap_verification ? "meanwhile" : "afterwards"));
    Progress progress("tracking", count, "frames");
    const Frame8Provider provider = [&](int f) {
      const KltStoredFrame& frame = sequence.frames[f];
      progress.Advance();
      return KltFrame8{frame.grey.data(), frame.width, frame.height};
    };
    return TrackAndVerifySequence(count, provider, cameras, scales, with, options.sequence, verification);
  };
  // A tracker carries the sequence's state, so after a GPU failure the whole sequence is
  // tracked again on the CPU (the unit of the fallback is the stage).
  auto track_on = [&](ComputeDevice device) {
    return track(CreateKltTracker(options.klt, device).get());
  };
  const bool gpu = tracker == nullptr && UseGpu(options.sequence.device, "the GPU KLT tracker");
  cuda::GpuFallback fallback("KLT tracking", gpu);
  VerifiedSequence verified = tracker != nullptr
                                  ? track(tracker)
                                  : fallback.Run([&] { return track_on(ComputeDevice::kGpu); },
                                                 [&] { return track_on(ComputeDevice::kCpu); });
  result.tracking_seconds = verified.tracking_seconds;
  result.verification_seconds = verified.verification_seconds;

  result.images = sequence.images;
  for (int f = 0; f < count; ++f) {
    result.images[f].features.keypoints = std::move(verified.correspondences.keypoints[f]);
  }
  result.putative_pairs = std::move(verified.correspondences.pairs);
  result.geometries = std::move(verified.geometries);
  return result;
}

}  // namespace proj
