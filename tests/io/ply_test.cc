#include "io/ply.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include "core/check.h"
#include "tests/support/test_data.h"

namespace proj {
namespace {

using ::testing::HasSubstr;

TEST(Ply, PointCloudRoundTrip) {
  const std::string dir = testing::MakeTempDir("ply_points");
  std::vector<Eigen::Vector3f> points;
  std::vector<Rgb8> colors;
  for (int i = 0; i < 1000; ++i) {
    points.emplace_back(0.5f * i, -1.25f * i, 1e-3f * i * i);
    colors.push_back({static_cast<uint8_t>(i % 256), static_cast<uint8_t>((3 * i) % 256), 7});
  }
  const std::string path = dir + "/points.ply";
  WritePointCloudPly(path, points, colors);

  // The header is what MeshLab and CloudCompare expect.
  std::ifstream stream(path, std::ios::binary);
  std::string header(300, '\0');
  stream.read(&header[0], 300);
  EXPECT_THAT(header, HasSubstr("ply\nformat binary_little_endian 1.0\n"));
  EXPECT_THAT(header, HasSubstr("element vertex 1000\nproperty float x\nproperty float y\nproperty float z\n"
                                "property uchar red\nproperty uchar green\nproperty uchar blue\nend_header\n"));

  const PlyMesh mesh = ReadPly(path);
  ASSERT_EQ(mesh.positions.size(), points.size());
  ASSERT_EQ(mesh.colors.size(), colors.size());
  for (size_t i = 0; i < points.size(); ++i) {
    EXPECT_EQ(mesh.positions[i], points[i]);
    EXPECT_EQ(mesh.colors[i], colors[i]);
  }
  EXPECT_TRUE(mesh.edges.empty());
  EXPECT_TRUE(mesh.faces.empty());
}

std::vector<PlyCamera> TwoCameras() {
  PlyCamera a;
  a.K << 100, 0, 50, 0, 100, 40, 0, 0, 1;
  a.width = 100;
  a.height = 80;
  PlyCamera b = a;
  b.center = Eigen::Vector3d(2, 0, 0);
  b.color = {0, 255, 0};
  return {a, b};
}

TEST(Ply, CameraFrustaRoundTrip) {
  const std::string dir = testing::MakeTempDir("ply_cameras");
  const std::vector<PlyCamera> cameras = TwoCameras();
  CameraPlyOptions options;
  options.frustum_depth = 0.5;
  const std::string path = dir + "/cameras.ply";
  WriteCamerasPly(path, cameras, options);
  const PlyMesh mesh = ReadPly(path);
  ASSERT_EQ(mesh.positions.size(), 10u);
  ASSERT_EQ(mesh.faces.size(), 10u);
  EXPECT_TRUE(mesh.edges.empty());
  // Camera 0 at the origin, identity rotation: the top-left image corner (0, 0) is at
  // depth 0.5 along the ray K^-1 (0, 0, 1) = (-0.5, -0.4, 1).
  EXPECT_TRUE(mesh.positions[0].isApprox(Eigen::Vector3f(0, 0, 0)));
  EXPECT_TRUE(mesh.positions[1].isApprox(Eigen::Vector3f(-0.25f, -0.2f, 0.5f)));
  EXPECT_TRUE(mesh.positions[3].isApprox(Eigen::Vector3f(0.25f, 0.2f, 0.5f)));
  EXPECT_TRUE(mesh.positions[5].isApprox(Eigen::Vector3f(2, 0, 0)));
  EXPECT_EQ(mesh.colors[6], (Rgb8{0, 255, 0}));
  EXPECT_EQ(mesh.faces[0], (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(mesh.faces[4], (std::vector<int>{1, 2, 3, 4}));
  EXPECT_EQ(mesh.faces[5], (std::vector<int>{5, 6, 7}));

  options.glyph = CameraGlyph::kFrustumEdges;
  WriteCamerasPly(path, cameras, options);
  const PlyMesh wire = ReadPly(path);
  EXPECT_EQ(wire.positions.size(), 10u);
  EXPECT_EQ(wire.edges.size(), 16u);
  EXPECT_TRUE(wire.faces.empty());
  EXPECT_EQ(wire.edges[0], (std::array<int, 2>{0, 1}));

  options.glyph = CameraGlyph::kCentres;
  WriteCamerasPly(path, cameras, options);
  EXPECT_EQ(ReadPly(path).positions.size(), 2u);
}

TEST(Ply, ReadsAsciiWithOtherElements) {
  const std::string dir = testing::MakeTempDir("ply_ascii");
  const std::string path = dir + "/ascii.ply";
  std::ofstream(path) << "ply\nformat ascii 1.0\ncomment hand written\nelement vertex 3\n"
                         "property double x\nproperty double y\nproperty double z\n"
                         "property float nx\nproperty uchar red\nproperty uchar green\nproperty uchar blue\n"
                         "element material 1\nproperty int id\n"
                         "element face 1\nproperty list uchar uint vertex_index\nend_header\n"
                         "0 0 0 1 255 0 0\n1 0 0 1 0 255 0\n0 1 0 1 0 0 255\n7\n3 0 1 2\n";
  const PlyMesh mesh = ReadPly(path);
  ASSERT_EQ(mesh.positions.size(), 3u);
  EXPECT_EQ(mesh.positions[1], Eigen::Vector3f(1, 0, 0));
  EXPECT_EQ(mesh.colors[2], (Rgb8{0, 0, 255}));
  ASSERT_EQ(mesh.faces.size(), 1u);
  EXPECT_EQ(mesh.faces[0], (std::vector<int>{0, 1, 2}));
  EXPECT_TRUE(mesh.normals.empty());  // nx without ny and nz is just another property
}

// Normals (a dense cloud's points.ply) after the position, before the colour, as MeshLab and
// CloudCompare expect; files larger than the writer's 1 MiB chunks; a mesh without normals
// is written as before.
TEST(Ply, NormalsRoundTrip) {
  const std::string dir = testing::MakeTempDir("ply_normals");
  std::vector<Eigen::Vector3f> points, normals;
  std::vector<Rgb8> colors;
  for (int i = 0; i < 100000; ++i) {
    points.emplace_back(0.5f * i, -1.25f * i, 1e-3f * i);
    normals.push_back(Eigen::Vector3f(std::sin(1e-3f * i), std::cos(1e-3f * i), 0.1f).normalized());
    colors.push_back({static_cast<uint8_t>(i % 256), 9, static_cast<uint8_t>(i / 256 % 256)});
  }
  const std::string path = dir + "/dense.ply";
  WritePointCloudPly(path, points, colors, normals);
  std::ifstream stream(path, std::ios::binary);
  std::string header(400, '\0');
  stream.read(&header[0], 400);
  EXPECT_THAT(header, HasSubstr("element vertex 100000\nproperty float x\nproperty float y\nproperty float z\n"
                                "property float nx\nproperty float ny\nproperty float nz\n"
                                "property uchar red\nproperty uchar green\nproperty uchar blue\nend_header\n"));
  const PlyMesh mesh = ReadPly(path);
  EXPECT_EQ(mesh.positions, points);
  EXPECT_EQ(mesh.normals, normals);
  EXPECT_EQ(mesh.colors, colors);

  // Without colours, through WritePly; ASCII files with normals are read too.
  PlyMesh without_colors;
  without_colors.positions = {points[0], points[1]};
  without_colors.normals = {normals[0], normals[1]};
  WritePly(dir + "/no_colors.ply", without_colors);
  const PlyMesh read = ReadPly(dir + "/no_colors.ply");
  EXPECT_EQ(read.normals, without_colors.normals);
  EXPECT_TRUE(read.colors.empty());
  std::ofstream(dir + "/ascii.ply") << "ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\n"
                                       "property float y\nproperty float z\nproperty float nx\n"
                                       "property float ny\nproperty float nz\nend_header\n1 2 3 0 0.6 0.8\n";
  EXPECT_EQ(ReadPly(dir + "/ascii.ply").normals, (std::vector<Eigen::Vector3f>{{0, 0.6f, 0.8f}}));
  WritePointCloudPly(dir + "/plain.ply", points, colors);
  EXPECT_TRUE(ReadPly(dir + "/plain.ply").normals.empty());
  EXPECT_THROW(WritePointCloudPly(dir + "/bad.ply", points, colors, {normals[0]}), InputError);
}

TEST(Ply, BadInputs) {
  const std::string dir = testing::MakeTempDir("ply_bad");
  PlyMesh mesh;
  mesh.positions = {Eigen::Vector3f(0, 0, 0)};
  mesh.faces = {{0, 0, 5}};
  EXPECT_THROW(WritePly(dir + "/bad_index.ply", mesh), InputError);
  mesh.faces.clear();
  mesh.colors = {{1, 2, 3}, {4, 5, 6}};
  EXPECT_THROW(WritePly(dir + "/bad_colors.ply", mesh), InputError);

  // A binary file cut short.
  mesh.colors.clear();
  mesh.positions.assign(100, Eigen::Vector3f(1, 2, 3));
  WritePly(dir + "/full.ply", mesh);
  std::ifstream in(dir + "/full.ply", std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::ofstream(dir + "/cut.ply", std::ios::binary) << bytes.substr(0, bytes.size() - 10);
  try {
    ReadPly(dir + "/cut.ply");
    FAIL() << "expected InputError";
  } catch (const InputError& error) {
    EXPECT_THAT(error.what(), HasSubstr("cut.ply"));
    EXPECT_THAT(error.what(), HasSubstr("truncated"));
  }
  std::ofstream(dir + "/text.ply") << "hello\n";
  EXPECT_THROW(ReadPly(dir + "/text.ply"), InputError);
  EXPECT_THROW(ReadPly(dir + "/missing.ply"), InputError);
}

// Expects ReadPly of a file holding `text` to throw InputError naming it and `reason`.
void ExpectPlyError(const std::string& name, const std::string& text, const std::string& reason) {
  const std::string path = testing::MakeTempDir("ply_fuzz_found") + "/" + name;
  std::ofstream(path, std::ios::binary) << text;
  try {
    ReadPly(path);
    FAIL() << "expected InputError for " << name;
  } catch (const InputError& error) {
    EXPECT_THAT(error.what(), HasSubstr(name));
    EXPECT_THAT(error.what(), HasSubstr(reason));
  }
}

// Found by fuzzing (tests/fuzz/ply_fuzzer.cc): a second vertex element without colours left
// PlyMesh::colors shorter than positions; an element count of 2^64 - 1 hung the reader; and
// (by reading the code) indices outside int (a uint of 4e9, a float of 1e30) were converted
// to int, which is undefined.
TEST(Ply, FuzzFoundInputsAreInputErrors) {
  const std::string vertices =
      "element vertex 1\nproperty float x\nproperty float y\nproperty float z\n";
  ExpectPlyError("two_vertex_elements.ply",
                 "ply\nformat ascii 1.0\n" + vertices +
                     "property uchar red\nproperty uchar green\nproperty uchar blue\n" + vertices +
                     "end_header\n0 0 0 1 2 3\n1 1 1\n",
                 "more than one vertex element");
  ExpectPlyError("huge_face_index.ply",
                 "ply\nformat ascii 1.0\n" + vertices +
                     "element face 1\nproperty list uchar uint vertex_indices\nend_header\n"
                     "0 0 0\n3 0 0 4000000000\n",
                 "vertex index 4e+09 is out of range");
  ExpectPlyError("huge_edge_index.ply",
                 "ply\nformat ascii 1.0\n" + vertices +
                     "element edge 1\nproperty float vertex1\nproperty float vertex2\nend_header\n"
                     "0 0 0\n0 1e30\n",
                 "vertex index 1e+30 is out of range");
  ExpectPlyError("huge_element_count.ply",
                 "ply\nformat binary_little_endian 1.0\n" + vertices +
                     "element extra 9000000000000000000\nproperty uchar a\nend_header\n" +
                     std::string(12, '\0') + "xyz",
                 "claims 9000000000000000000 items");
  // An element without properties holds nothing, whatever its count.
  const std::string path = testing::MakeTempDir("ply_empty_element") + "/empty.ply";
  std::ofstream(path) << "ply\nformat ascii 1.0\n" << vertices
                      << "element nothing 9000000000000000000\nend_header\n1 2 3\n";
  EXPECT_EQ(ReadPly(path).positions.size(), 1u);
}

}  // namespace
}  // namespace proj
