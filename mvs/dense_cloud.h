// The dense point cloud that fusion (mvs/fusion.h) makes of the depth maps: points of the
// model's world frame with unit normals, colours and the number of views behind each.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "io/image.h"

namespace proj::mvs {

struct DenseCloud {
  std::vector<Eigen::Vector3f> positions;  // world frame of the model
  std::vector<Eigen::Vector3f> normals;    // unit, world frame, pointing towards the cameras
  std::vector<Rgb8> colors;
  std::vector<uint16_t> num_views;         // views fused into the point (voxel: their sum)

  size_t size() const { return positions.size(); }
};

// points.ply: binary PLY with x, y, z, nx, ny, nz and red, green, blue per vertex
// (io/ply.h; MeshLab and CloudCompare read the normals). Atomic; InputError naming the path
// when it cannot be written.
void WriteDenseCloudPly(const std::string& path, const DenseCloud& cloud);

// Reads such a file back (any PLY with positions; normals and colours when present, else
// empty). num_views is not stored: it comes back empty. InputError as io/ply.h's ReadPly.
DenseCloud ReadDenseCloudPly(const std::string& path);

}  // namespace proj::mvs
