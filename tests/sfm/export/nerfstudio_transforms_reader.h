// Reads the transforms.json written by sfm export (sfm/export/nerfstudio_transforms.h) for
// the tests: every key of nerfstudio's format that the writer may put there, and nothing else
// (an unknown key fails the read, so a change to the format shows up in the tests).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <Eigen/Core>

namespace proj::testing {

struct NerfstudioIntrinsics {
  int w = 0, h = 0;
  double fl_x = 0, fl_y = 0, cx = 0, cy = 0;
  double k1 = 0, k2 = 0, p1 = 0, p2 = 0;
  std::string camera_model;
};

struct NerfstudioFrame {
  std::string file_path;
  Eigen::Matrix4d transform_matrix = Eigen::Matrix4d::Zero();
  int colmap_im_id = -1;
  std::optional<NerfstudioIntrinsics> intrinsics;  // per-frame intrinsics
};

struct NerfstudioTransforms {
  std::optional<NerfstudioIntrinsics> intrinsics;  // shared intrinsics
  std::vector<NerfstudioFrame> frames;
  Eigen::Matrix<double, 3, 4> applied_transform = Eigen::Matrix<double, 3, 4>::Zero();
  std::string ply_file_path;
};

// Throws InputError naming the file on anything else than the form above.
NerfstudioTransforms ReadNerfstudioTransforms(const std::string& path);

}  // namespace proj::testing
