// PLY (Stanford polygon format) for point clouds and camera glyphs, readable by MeshLab and
// CloudCompare. Files are written binary little-endian and atomically:
//   element vertex N: float x, y, z [+ float nx, ny, nz] [+ uchar red, green, blue]
//   element edge M:   int vertex1, vertex2          (only when edges are present)
//   element face K:   list uchar int vertex_indices (only when faces are present)
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "io/image.h"

namespace proj {

struct PlyMesh {
  std::vector<Eigen::Vector3f> positions;
  std::vector<Rgb8> colors;                // empty, or one per position
  std::vector<Eigen::Vector3f> normals;    // empty, or one per position (unit, any frame)
  std::vector<std::array<int, 2>> edges;   // vertex index pairs
  std::vector<std::vector<int>> faces;     // polygons of >= 3 vertex indices

  bool has_colors() const { return !colors.empty(); }
  bool has_normals() const { return !normals.empty(); }
};

// Throws InputError if the mesh is inconsistent (colour or normal count, index out of range,
// face with fewer than 3 or more than 255 vertices) or the file cannot be written.
void WritePly(const std::string& path, const PlyMesh& mesh);

// A coloured point cloud (vertices only), written from the arrays without copying them.
// `colors` and `normals` empty or one per point.
void WritePointCloudPly(const std::string& path, const std::vector<Eigen::Vector3f>& points,
                        const std::vector<Rgb8>& colors,
                        const std::vector<Eigen::Vector3f>& normals = {});

// Reads PLY files with format binary_little_endian, binary_big_endian or ascii: vertex
// x, y, z (any numeric type) and optional nx, ny, nz and red, green, blue; edge vertex1,
// vertex2; face vertex_indices (or vertex_index) lists. Other elements and properties are
// skipped.
// Throws InputError naming the file and reason for malformed files.
PlyMesh ReadPly(const std::string& path);

// One camera to draw: pinhole intrinsics K (pixels, centre of the top-left pixel at
// (0.5, 0.5)), rotation world_from_cam (its columns are the camera x right, y down and
// z forward axes in world coordinates) and centre in world coordinates.
struct PlyCamera {
  Eigen::Matrix3d K = Eigen::Matrix3d::Identity();
  Eigen::Matrix3d world_from_cam = Eigen::Matrix3d::Identity();
  Eigen::Vector3d center = Eigen::Vector3d::Zero();
  int width = 0;
  int height = 0;
  Rgb8 color = {255, 0, 0};
};

enum class CameraGlyph {
  kCentres,       // one vertex per camera
  kFrustumEdges,  // centre + 4 image corners, 8 edges (wireframe pyramid)
  kFrustumFaces,  // centre + 4 image corners, 4 side triangles + the image rectangle
};

struct CameraPlyOptions {
  CameraGlyph glyph = CameraGlyph::kFrustumFaces;
  // Distance from the centre to the image rectangle, in world units; <= 0 picks 5% of the
  // extent of the camera centres (or 1 for a single camera).
  double frustum_depth = 0;
  void Check() const;
};

// The glyphs as a mesh (5 vertices per camera for frusta: centre, then the image corners
// top-left, top-right, bottom-right, bottom-left).
PlyMesh MakeCameraMesh(const std::vector<PlyCamera>& cameras, const CameraPlyOptions& options);

// Writes MakeCameraMesh(cameras, options), e.g. as `cameras.ply`.
void WriteCamerasPly(const std::string& path, const std::vector<PlyCamera>& cameras,
                     const CameraPlyOptions& options = CameraPlyOptions());

}  // namespace proj
