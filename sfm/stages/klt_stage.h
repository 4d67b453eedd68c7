// Stages 1+2 of the pipeline for ordered sequences (--matcher klt): decode the images in name
// order into 8-bit grey frames, then track KLT features through them and verify each pair of
// frames a track spans as soon as both frames are tracked (matching/klt_sequence_verification.h:
// the CPU threads verify while the tracker, on the GPU when there is one, goes on). The
// verified pairs then go to the same mapper as verified descriptor matches. Unreadable files
// are skipped (the sequence continues over the readable ones).
#pragma once

#include <string>
#include <vector>

#include "features/feature_extractor.h"
#include "geometry/camera/camera.h"
#include "io/image.h"
#include "io/image_decode.h"
#include "matching/klt_sequence_matcher.h"
#include "matching/two_view_geometry.h"
#include "sfm/stages/image_record.h"

namespace proj {

struct KltStageOptions {
  KltOptions klt;
  KltSequenceOptions sequence;
  int max_image_size = 3200;  // frames are tracked at this longer side, px (<= 0: full size)
  int num_threads = 0;        // decoding and pair verification
  DecodeOptions decode;       // larger images are skipped (--max-image-pixels)
  bool overlap_verification = true;  // verify pairs while later frames are tracked
  void Check() const;
};

// A frame as the stage keeps it: 8-bit grey at tracking size (a quarter of float's memory).
struct KltStoredFrame {
  int width = 0, height = 0;
  double scale = 1.0;  // original pixels per tracking pixel
  std::vector<uint8_t> grey;
};

// The frame of a decoded image: grey (features/image_preprocessing.h), limited to
// max_image_size, rounded to 8 bits.
KltStoredFrame MakeKltStoredFrame(const Image& image, int max_image_size);

struct DecodedSequence {
  std::vector<ImageRecord> images;     // readable images in name order (no features yet)
  std::vector<KltStoredFrame> frames;  // frames[i] of images[i], all of one size
  std::vector<SkippedImage> skipped;
  double decode_seconds = 0;
};

// Decodes the files in parallel. Throws InputError when the readable frames differ in size.
DecodedSequence DecodeImageSequence(const KltStageOptions& options,
                                    const std::vector<std::string>& paths);

struct KltStageResult {
  std::vector<ImageRecord> images;          // the sequence's images with their keypoints
  std::vector<PairMatches> putative_pairs;  // indices into `images`
  std::vector<TwoViewGeometry> geometries;  // geometries[p] verifies putative_pairs[p]
  std::string tracker_description;
  double tracking_seconds = 0;      // until the last frame is tracked (pairs verified meanwhile)
  double verification_seconds = 0;  // from then until the last pair is verified
};

// Tracks the decoded frames and verifies the pairs with `two_view`; cameras[i] is the camera
// (focal prior) of sequence.images[i]. Uses `tracker` when given (it is Reset), else makes one
// (options.sequence.device). Colours are sampled when the outputs are written.
KltStageResult TrackAndVerifyDecodedSequence(const KltStageOptions& options,
                                             const TwoViewGeometryOptions& two_view,
                                             const DecodedSequence& sequence,
                                             const std::vector<Camera>& cameras,
                                             KltTracker* tracker = nullptr);

}  // namespace proj
