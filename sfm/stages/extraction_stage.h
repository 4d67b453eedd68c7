// Stage 1 of the pipeline: brings the scene database in line with a folder of photos.
// Images already in the database with an unchanged file (size and modification time) and
// features extracted with the same options keep their ids and features; new and changed
// files are decoded and their features extracted (in parallel; on the GPUs when there are
// some, each image on whichever GPU is free); images whose file left the folder are removed
// with their pairs. Unreadable files are recorded with their reason and skipped, and not
// tried again while they stay unchanged.
//
// Image ids follow name order among the images that are new in a run: results are written
// in name order (an image finished early waits in a reorder buffer for its predecessors),
// so the database is the same whatever the number of GPUs and the order images finish in.
// Writes go in transactions committed every half second, so a run killed at any moment
// keeps every image written before, and re-running assigns the ids an uninterrupted run
// would have. Colours are not sampled here (see output_writer.h); descriptors are not kept
// in memory after writing.
#pragma once

#include <mutex>
#include <string>
#include <vector>

#include "features/feature_extractor.h"
#include "io/file_stamp.h"
#include "io/image_decode.h"
#include "sfm/database/scene_database.h"
#include "sfm/stages/camera_assignment.h"
#include "sfm/stages/gps_priors.h"
#include "sfm/stages/image_record.h"
#include "sfm/stages/stage_options.h"

namespace proj {

struct ExtractionOptions {
  FeatureOptions features;
  int max_image_size = 3200;  // longer side for extraction, px; <= 0 keeps full size
  int num_threads = 0;        // decoding threads; 0 = all
  DecodeOptions decode;       // larger images are skipped (--max-image-pixels)
  GpsPriorOptions gps;        // pose priors from the files' GPS fixes
  void Check() const;
  // What the features depend on (not the device: GPU and CPU SIFT compute the same thing).
  StageOptions Fingerprint() const;
};

struct ExtractionSummary {
  int num_files = 0;        // image files in the folder
  int num_extracted = 0;    // decoded and extracted in this run
  int num_reused = 0;       // unchanged images whose features were in the database
  int num_removed = 0;      // database images whose file is no longer in the folder
  std::vector<SkippedFile> skipped;  // unusable files of the folder, with their reason
  std::vector<int> image_ids;        // the folder's usable images in name order
  long long num_features = 0;        // over image_ids
  std::string extractor_description;
};

// `paths`: the folder's image files in name order (ListImageFiles). `extractor`: null for
// CreateFeatureExtractor(options.features) (tests give their own). Images are decoded on
// options.num_threads threads; an extractor with ConcurrentCalls() > 1 (one per GPU of
// several) extracts that many at once, else one at a time.
ExtractionSummary ExtractFolder(const ExtractionOptions& options, const CameraOptions& cameras,
                                OptionChangePolicy policy, const std::vector<std::string>& paths,
                                SceneDatabase* database, FeatureExtractor* extractor = nullptr);

// Decodes `path` and extracts its features at options.max_image_size (keypoints in original
// pixels). `extractor_mutex` (null for extractors that take concurrent calls) is held around
// the extraction, so other threads decode meanwhile. Throws InputError for an unreadable image.
ImageRecord DecodeAndExtract(const ExtractionOptions& options, FeatureExtractor* extractor,
                             std::mutex* extractor_mutex, const std::string& path);

// The database's file information of a record.
ImageFileInfo FileInfoOf(const ImageRecord& record, const FileStamp& stamp);

}  // namespace proj

namespace proj {

// In memory, for a few images (the keyframes of --klt-keyframe-sift): the records of the
// readable `paths` in their order, with features; unreadable ones in `skipped`.
struct ExtractionResult {
  std::vector<ImageRecord> images;
  std::vector<SkippedImage> skipped;
  std::string extractor_description;
};
ExtractionResult ExtractFeatures(const ExtractionOptions& options,
                                 const std::vector<std::string>& paths);

}  // namespace proj
