// The reconstruction: cameras (intrinsics), images (poses, keypoints) and 3D points with
// their tracks. Plain data; algorithms are free functions over a Scene& (STYLE P12).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "geometry/camera/camera.h"
#include "geometry/rigid3.h"
#include "sfm/scene/position_prior.h"

namespace proj {

constexpr int kInvalidId = -1;

struct TrackElement {
  int image_id = kInvalidId;
  int keypoint_index = kInvalidId;
};

struct Point3D {
  Eigen::Vector3d position = Eigen::Vector3d::Zero();  // world frame
  Eigen::Matrix<uint8_t, 3, 1> color = Eigen::Matrix<uint8_t, 3, 1>::Zero();  // RGB
  double mean_error_px = 0;  // mean reprojection error over the track
  std::vector<TrackElement> track;
};

struct SceneImage {
  std::string name;          // file name relative to the images folder
  int camera_id = kInvalidId;
  bool registered = false;
  // False for frames of an ordered sequence that add no baseline (sfm/mapper/keyframes.h):
  // the incremental mapper neither starts the model from them nor triangulates points from
  // their observations, and registers them after the keyframes.
  bool keyframe = true;
  Rigid3d cam_from_world;    // valid when registered
  // Keypoints in original-image pixels (centre of the top-left pixel at (0.5, 0.5)).
  std::vector<Eigen::Vector2d> keypoints;
  // For each keypoint, the id of the 3D point it observes, or kInvalidId.
  std::vector<int> point3d_ids;
};

struct Scene {
  std::vector<Camera> cameras;             // indexed by camera_id
  std::vector<SceneImage> images;          // indexed by image_id
  std::map<int, Point3D> points;           // by point id (ids are never reused)
  // GPS priors by image id, in the georeferencing frame (not the model's frame until the
  // model is aligned to them: sfm/mapper/prior_alignment.h). Images without GPS have none.
  std::map<int, PositionPrior> position_priors;
  // Focal lengths (pixels) known from EXIF, by camera id; the mapper keeps refined focal
  // lengths near them when the model is georeferenced (prior_alignment.h).
  std::map<int, double> focal_priors_px;
  int next_point_id = 0;

  int NumRegisteredImages() const;
  // Adds a point observed by `track` and links the observations; returns its id.
  int AddPoint(const Eigen::Vector3d& position, const std::vector<TrackElement>& track);
  void AddObservation(int point_id, const TrackElement& element);
  void DeletePoint(int point_id);
  void DeleteObservation(int image_id, int keypoint_index);
};

}  // namespace proj
