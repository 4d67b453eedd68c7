// Where dense reconstruction keeps its files, under OUT_DIR/dense (COLMAP's layout, so
// COLMAP's stereo_fusion and meshers read our maps and we could read theirs):
//   images/NAME                               undistorted images (sfm undistort)
//   sparse/                                   the PINHOLE model (COLMAP text)
//   stereo/depth_maps/NAME.photometric.bin    PatchMatch's depth (written as each completes,
//   stereo/normal_maps/NAME.photometric.bin   so a killed run resumes where it stopped)
//   stereo/cost_maps/NAME.photometric.bin     PatchMatch's cost in [0, 2] of each pixel's depth
//                                             (ours: COLMAP writes none), for the filter
//   resume.txt                                what each image and map was computed from
//                                             (mvs/dense_resume.h)
//   report.json                               `sfm dense`'s summary (mvs/dense_report.h)
//   stereo/depth_maps/NAME.geometric.bin      after the geometric-consistency filter
//   stereo/normal_maps/NAME.geometric.bin
//   points.ply                                the fused cloud (normals and colours)
//   points.las                                the same, georeferenced, when the model is
#pragma once

#include <string>

namespace proj::mvs {

enum class MapKind { kPhotometric, kGeometric };

class DenseWorkspace {
 public:
  explicit DenseWorkspace(std::string root) : root_(std::move(root)) {}
  const std::string& root() const { return root_; }
  std::string ImagesDir() const { return root_ + "/images"; }
  std::string SparseDir() const { return root_ + "/sparse"; }
  std::string DepthMapPath(const std::string& image_name, MapKind kind) const {
    return root_ + "/stereo/depth_maps/" + image_name + Suffix(kind);
  }
  std::string NormalMapPath(const std::string& image_name, MapKind kind) const {
    return root_ + "/stereo/normal_maps/" + image_name + Suffix(kind);
  }
  std::string CostMapPath(const std::string& image_name, MapKind kind) const {
    return root_ + "/stereo/cost_maps/" + image_name + Suffix(kind);
  }
  std::string ResumePath() const { return root_ + "/resume.txt"; }
  std::string ReportPath() const { return root_ + "/report.json"; }
  std::string PointsPlyPath() const { return root_ + "/points.ply"; }
  std::string PointsLasPath() const { return root_ + "/points.las"; }

 private:
  static const char* Suffix(MapKind kind) {
    return kind == MapKind::kPhotometric ? ".photometric.bin" : ".geometric.bin";
  }
  std::string root_;
};

}  // namespace proj::mvs
