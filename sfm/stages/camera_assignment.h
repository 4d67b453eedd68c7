// Which camera (intrinsics block) each image of the database uses: one per image size, focal
// prior and camera label (EXIF make and model), or one for all with single_camera. Cameras
// start at their priors (focal from EXIF or default_focal_factor x the longer side, principal
// point at the centre, no distortion); bundle adjustment refines them. The model is the
// option's, or with none chosen, AutoCameraModel's.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "geometry/camera/camera.h"
#include "sfm/database/scene_database.h"
#include "sfm/stages/image_record.h"
#include "sfm/stages/stage_options.h"

namespace proj {

// Focal lengths below this factor x the longer side (wider than a 28 mm lens on 35 mm film:
// drones, action cameras, phones) get RADIAL (k1, k2) from AutoCameraModel. A wide lens's
// distortion needs the second term: with k1 alone, Brighton Beach's nadir survey bends
// into a bowl 1.2 m deep at 50 m from its centre, and its dense cloud misses the reference
// by 0.19 m (median, after a rigid fit) instead of 0.036 m with RADIAL (bench/RESULTS-dense.md).
constexpr double kWideAngleFocalFactor = 28.0 / 36.0;

// RADIAL for an image whose EXIF focal length says the lens is wide (kWideAngleFocalFactor),
// SIMPLE_RADIAL otherwise and without an EXIF focal length (COLMAP's default).
CameraModelId AutoCameraModel(const ImageFileInfo& info);

struct CameraOptions {
  std::optional<CameraModelId> model;  // nullopt: AutoCameraModel per image
  bool single_camera = false;         // all images share one intrinsics block
  double default_focal_factor = 1.2;  // focal prior without EXIF: factor x longer side
  void Check() const;
  StageOptions Fingerprint() const;
};

// The camera an image with `info` starts from.
Camera PriorCamera(const CameraOptions& options, const ImageFileInfo& info);

// Finds or adds the database camera of each image. Cameras already in the database are
// reused when they equal the wanted prior, so a re-run keeps every camera id.
class CameraAssigner {
 public:
  // Reads the database's cameras and the images that have file information.
  CameraAssigner(const CameraOptions& options, SceneDatabase* database);
  // The camera id for an image named `name` with `info` (adds the camera when new). Throws
  // InputError for single_camera with images of different sizes.
  int CameraFor(const std::string& name, const ImageFileInfo& info);

 private:
  using Key = std::tuple<int, int, long long, std::string>;
  Key KeyOf(const ImageFileInfo& info) const;

  CameraOptions options_;
  SceneDatabase* database_;
  std::map<Key, int> camera_of_key_;
  std::string first_name_;  // single_camera: the image that fixed the size
  ImageFileInfo first_info_;
};

// Each record's camera, as the extraction stage assigns them (for the KLT stage and tests).
std::vector<Camera> ImageCameras(const CameraOptions& options, const std::vector<ImageRecord>& records);

}  // namespace proj
