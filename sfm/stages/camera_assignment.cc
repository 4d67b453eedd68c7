#include "sfm/stages/camera_assignment.h"

#include <algorithm>
#include <cmath>

#include "core/check.h"

namespace proj {

void CameraOptions::Check() const {
  PROJ_REQUIRE(default_focal_factor > 0, "the default focal factor must be > 0");
}

StageOptions CameraOptions::Fingerprint() const {
  StageOptions options;
  options.Add("--camera-model", model ? CameraModelName(*model) : "auto")
      .Add("--single-camera", single_camera ? "on" : "off")
      .Add("default focal factor", default_focal_factor);
  return options;
}

CameraModelId AutoCameraModel(const ImageFileInfo& info) {
  const bool wide = info.exif_focal_px &&
                    *info.exif_focal_px < kWideAngleFocalFactor * std::max(info.width, info.height);
  return wide ? CameraModelId::kRadial : CameraModelId::kSimpleRadial;
}

Camera PriorCamera(const CameraOptions& options, const ImageFileInfo& info) {
  const double focal =
      info.exif_focal_px.value_or(options.default_focal_factor * std::max(info.width, info.height));
  return Camera::FromFocal(options.model.value_or(AutoCameraModel(info)), info.width, info.height, focal);
}

CameraAssigner::Key CameraAssigner::KeyOf(const ImageFileInfo& info) const {
  if (options_.single_camera) return Key(0, 0, 0LL, std::string());
  const Camera prior = PriorCamera(options_, info);
  return Key(info.width, info.height, std::llround(prior.MeanFocal() * 10), info.camera_label);
}

CameraAssigner::CameraAssigner(const CameraOptions& options, SceneDatabase* database)
    : options_(options), database_(database) {
  options_.Check();
  std::map<int, Camera> cameras;
  for (const DatabaseCamera& camera : database->ReadCameras()) cameras[camera.camera_id] = camera.camera;
  for (const DatabaseImage& image : database->ReadImages()) {
    const std::optional<ImageFileInfo> info = database->ReadImageFileInfo(image.image_id);
    if (!info) continue;
    auto camera = cameras.find(image.camera_id);
    if (camera == cameras.end()) continue;
    const Camera wanted = PriorCamera(options_, *info);
    if (camera->second.model == wanted.model && camera->second.width == wanted.width &&
        camera->second.height == wanted.height && camera->second.params == wanted.params) {
      camera_of_key_.emplace(KeyOf(*info), image.camera_id);
      if (first_name_.empty()) {
        first_name_ = image.name;
        first_info_ = *info;
      }
    }
  }
}

int CameraAssigner::CameraFor(const std::string& name, const ImageFileInfo& info) {
  if (first_name_.empty()) {
    first_name_ = name;
    first_info_ = info;
  }
  PROJ_REQUIRE(!options_.single_camera ||
                   (info.width == first_info_.width && info.height == first_info_.height),
               "--single-camera needs images of one size, but '"
                   << first_name_ << "' is " << first_info_.width << "x" << first_info_.height
                   << " and '" << name << "' is " << info.width << "x" << info.height);
  const Key key = KeyOf(info);
  auto found = camera_of_key_.find(key);
  if (found != camera_of_key_.end()) return found->second;
  const int id = database_->AddCamera(PriorCamera(options_, info), info.exif_focal_px.has_value());
  camera_of_key_.emplace(key, id);
  return id;
}

std::vector<Camera> ImageCameras(const CameraOptions& options, const std::vector<ImageRecord>& records) {
  std::vector<Camera> cameras;
  for (const ImageRecord& record : records) {
    PROJ_REQUIRE(!options.single_camera || (record.width == records[0].width && record.height == records[0].height),
                 "--single-camera needs images of one size, but '"
                     << records[0].name << "' is " << records[0].width << "x" << records[0].height
                     << " and '" << record.name << "' is " << record.width << "x" << record.height);
    ImageFileInfo info;
    info.width = record.width;
    info.height = record.height;
    info.exif_focal_px = options.single_camera ? records[0].exif_focal_px : record.exif_focal_px;
    cameras.push_back(PriorCamera(options, info));
  }
  return cameras;
}

}  // namespace proj
