// One image as dense stereo sees it: an undistorted (PINHOLE) image with its pose. Pixel
// coordinates follow geometry/camera/camera_models.h: the centre of pixel (x, y) is at
// (x + 0.5, y + 0.5). A depth map's value at (x, y) is the camera-frame z of the surface seen
// through that pixel's centre (as `sfm synth` writes true depth).
#pragma once

#include <string>
#include <vector>

#include <Eigen/Core>

#include "io/image.h"

namespace proj::mvs {

struct PinholeCamera {
  int width = 0;
  int height = 0;
  double fx = 0, fy = 0, cx = 0, cy = 0;

  Eigen::Matrix3d K() const;
  // Camera-frame point -> pixel coordinates (no check of z > 0).
  Eigen::Vector2d Project(const Eigen::Vector3d& point_cam) const;
  // The camera-frame point at depth z (camera-frame z) on pixel (x, y)'s centre ray.
  Eigen::Vector3d PointAtPixel(int x, int y, double depth) const;
  // Scaled to a new size (focal lengths and principal point scale with it).
  PinholeCamera Scaled(int new_width, int new_height) const;
};

// Geometry only: what fusion, filtering and view selection need.
struct ViewGeometry {
  PinholeCamera camera;
  Eigen::Matrix3d rotation = Eigen::Matrix3d::Identity();  // cam_from_world
  Eigen::Vector3d translation = Eigen::Vector3d::Zero();

  Eigen::Vector3d Center() const { return -rotation.transpose() * translation; }
  Eigen::Vector3d CamFromWorld(const Eigen::Vector3d& world) const { return rotation * world + translation; }
  Eigen::Vector3d WorldFromCam(const Eigen::Vector3d& cam) const { return rotation.transpose() * (cam - translation); }
};

// An image loaded for stereo: grey in [0, 1] (what PatchMatch matches) and the colour image
// (what fusion paints points with), both of the camera's size.
struct DenseView {
  std::string name;  // SceneImage::name
  ViewGeometry geometry;
  std::vector<float> grey;  // width * height, row-major
  Image colour;             // RGB, or empty when only geometry is needed

  int width() const { return geometry.camera.width; }
  int height() const { return geometry.camera.height; }
};

}  // namespace proj::mvs
