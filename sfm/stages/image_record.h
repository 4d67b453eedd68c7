// What the pipeline knows about one input image after feature extraction.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "features/feature_types.h"
#include "io/exif.h"
#include "io/image.h"
#include "sfm/database/scene_database.h"

namespace proj {

struct ImageRecord {
  std::string name;            // file name inside the images folder
  std::string path;            // full path
  int width = 0;               // original size, after EXIF orientation
  int height = 0;
  std::optional<double> exif_focal_px;  // focal length prior from EXIF, in original pixels
  std::string camera_label;    // EXIF make/model, for grouping cameras ("" when unknown)
  std::optional<GpsPosition> gps;  // EXIF GPS fix, when the file has one
  ImageCapture capture;            // capture time, datum of the GPS altitude
  FeatureSet features;         // keypoints in original-image pixels
};

// A record for the decoded `image` of file `path`: name, size, EXIF focal prior and camera
// label (make and model), GPS fix, capture time and altitude datum, no features yet.
ImageRecord MakeImageRecord(const std::string& path, const Image& image);

struct SkippedImage {
  std::string name;
  std::string reason;
};

// Warns that the file `path` is skipped for `reason` and records it in *skipped.
void SkipImage(const std::string& path, const std::string& reason,
               std::vector<SkippedImage>* skipped);

}  // namespace proj
