#include "mvs/dense_cloud.h"

#include <utility>

#include "io/ply.h"

namespace proj::mvs {

void WriteDenseCloudPly(const std::string& path, const DenseCloud& cloud) {
  WritePointCloudPly(path, cloud.positions, cloud.colors, cloud.normals);
}

DenseCloud ReadDenseCloudPly(const std::string& path) {
  PlyMesh mesh = ReadPly(path);
  DenseCloud cloud;
  cloud.positions = std::move(mesh.positions);
  cloud.normals = std::move(mesh.normals);
  cloud.colors = std::move(mesh.colors);
  return cloud;
}

}  // namespace proj::mvs
