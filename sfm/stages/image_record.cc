#include "sfm/stages/image_record.h"

#include <filesystem>

#include "core/logging.h"
#include "io/exif.h"
#include "sfm/stages/gps_priors.h"

namespace proj {

ImageRecord MakeImageRecord(const std::string& path, const Image& image) {
  ImageRecord record;
  record.name = std::filesystem::path(path).filename().string();
  record.path = path;
  record.width = image.width;
  record.height = image.height;
  const ExifData exif = ReadExif(path);
  record.exif_focal_px = FocalLengthPixelsFromExif(exif, image.width, image.height);
  const std::string ignored = IgnoredFocalLengthReason(exif, image.width, image.height);
  if (!ignored.empty()) {
    PROJ_LOG(kWarning, "'" << record.name << "': EXIF focal length ignored (" << ignored
                           << "); the default focal length prior is used");
  }
  record.gps = exif.gps;
  record.capture.time_s = exif.capture_time_s;
  record.capture.altitude_datum = AltitudeDatumOf(exif);
  record.camera_label = exif.make;
  if (!exif.model.empty()) record.camera_label += (record.camera_label.empty() ? "" : " ") + exif.model;
  return record;
}

void SkipImage(const std::string& path, const std::string& reason,
               std::vector<SkippedImage>* skipped) {
  const std::string name = std::filesystem::path(path).filename().string();
  PROJ_LOG(kWarning, "skipping '" << name << "': " << reason);
  skipped->push_back({name, reason});
}

}  // namespace proj
