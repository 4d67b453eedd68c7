#include "io/ply.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>

#include <Eigen/LU>

#include "core/check.h"
#include "io/atomic_file.h"
#include "io/file_bytes.h"
#include "io/little_endian.h"

namespace proj {
namespace {

// ---------------------------------------------------------------------------------------
// Writing

// The parts of a mesh a file is written from (non-owning), so that a point cloud is written
// from its own arrays without a copy into a PlyMesh.
struct MeshArrays {
  const std::vector<Eigen::Vector3f>& positions;
  const std::vector<Eigen::Vector3f>& normals;
  const std::vector<Rgb8>& colors;
  const std::vector<std::array<int, 2>>& edges;
  const std::vector<std::vector<int>>& faces;
};

void CheckMesh(const MeshArrays& mesh, const std::string& path) {
  const size_t n = mesh.positions.size();
  PROJ_REQUIRE(n <= static_cast<size_t>(std::numeric_limits<int>::max()),
               "'" << path << "': too many vertices for PLY int indices");
  PROJ_REQUIRE(mesh.colors.empty() || mesh.colors.size() == n,
               "'" << path << "': " << mesh.colors.size() << " colours for " << n << " vertices");
  PROJ_REQUIRE(mesh.normals.empty() || mesh.normals.size() == n,
               "'" << path << "': " << mesh.normals.size() << " normals for " << n << " vertices");
  for (const auto& edge : mesh.edges) {
    for (int index : edge) {
      PROJ_REQUIRE(index >= 0 && static_cast<size_t>(index) < n,
                   "'" << path << "': edge vertex index " << index << " out of range");
    }
  }
  for (const auto& face : mesh.faces) {
    PROJ_REQUIRE(face.size() >= 3 && face.size() <= 255,
                 "'" << path << "': face with " << face.size() << " vertices (need 3..255)");
    for (int index : face) {
      PROJ_REQUIRE(index >= 0 && static_cast<size_t>(index) < n,
                   "'" << path << "': face vertex index " << index << " out of range");
    }
  }
}

// Writes the file to `out` a chunk at a time (a dense cloud's file is hundreds of megabytes).
void EncodePly(const MeshArrays& mesh, std::ostream& out) {
  const bool with_normals = !mesh.normals.empty(), with_colors = !mesh.colors.empty();
  std::ostringstream header;
  header << "ply\nformat binary_little_endian 1.0\ncomment written by gpusfm\n"
         << "element vertex " << mesh.positions.size() << "\n"
         << "property float x\nproperty float y\nproperty float z\n";
  if (with_normals) header << "property float nx\nproperty float ny\nproperty float nz\n";
  if (with_colors) header << "property uchar red\nproperty uchar green\nproperty uchar blue\n";
  if (!mesh.edges.empty()) {
    header << "element edge " << mesh.edges.size() << "\n"
           << "property int vertex1\nproperty int vertex2\n";
  }
  if (!mesh.faces.empty()) {
    header << "element face " << mesh.faces.size() << "\n"
           << "property list uchar int vertex_indices\n";
  }
  header << "end_header\n";
  std::string chunk = header.str();
  constexpr size_t kChunkBytes = size_t{1} << 20;
  auto flush_when_full = [&](bool last) {
    if (!last && chunk.size() < kChunkBytes) return;
    out.write(chunk.data(), static_cast<std::streamsize>(chunk.size()));
    chunk.clear();
  };
  for (size_t i = 0; i < mesh.positions.size(); ++i) {
    for (int k = 0; k < 3; ++k) AppendLittleEndian<float>(mesh.positions[i][k], &chunk);
    if (with_normals) {
      for (int k = 0; k < 3; ++k) AppendLittleEndian<float>(mesh.normals[i][k], &chunk);
    }
    if (with_colors) chunk.append(reinterpret_cast<const char*>(mesh.colors[i].data()), 3);
    flush_when_full(false);
  }
  for (const auto& edge : mesh.edges) {
    AppendLittleEndian<int32_t>(edge[0], &chunk);
    AppendLittleEndian<int32_t>(edge[1], &chunk);
    flush_when_full(false);
  }
  for (const auto& face : mesh.faces) {
    chunk.push_back(static_cast<char>(face.size()));
    for (int index : face) AppendLittleEndian<int32_t>(index, &chunk);
    flush_when_full(false);
  }
  flush_when_full(true);
}

void WriteMesh(const std::string& path, const MeshArrays& mesh) {
  CheckMesh(mesh, path);
  WriteFileAtomically(path, [&](std::ostream& stream) { EncodePly(mesh, stream); }, /*binary=*/true);
}

// ---------------------------------------------------------------------------------------
// Reading

enum class PlyType { kInt8, kUint8, kInt16, kUint16, kInt32, kUint32, kFloat32, kFloat64 };

bool ParseType(const std::string& name, PlyType* type) {
  static const std::pair<const char*, PlyType> kNames[] = {
      {"char", PlyType::kInt8},     {"int8", PlyType::kInt8},       {"uchar", PlyType::kUint8},
      {"uint8", PlyType::kUint8},   {"short", PlyType::kInt16},     {"int16", PlyType::kInt16},
      {"ushort", PlyType::kUint16}, {"uint16", PlyType::kUint16},   {"int", PlyType::kInt32},
      {"int32", PlyType::kInt32},   {"uint", PlyType::kUint32},     {"uint32", PlyType::kUint32},
      {"float", PlyType::kFloat32}, {"float32", PlyType::kFloat32}, {"double", PlyType::kFloat64},
      {"float64", PlyType::kFloat64}};
  for (const auto& [text, value] : kNames) {
    if (name == text) {
      *type = value;
      return true;
    }
  }
  return false;
}

size_t TypeSize(PlyType type) {
  switch (type) {
    case PlyType::kInt8: case PlyType::kUint8: return 1;
    case PlyType::kInt16: case PlyType::kUint16: return 2;
    case PlyType::kInt32: case PlyType::kUint32: case PlyType::kFloat32: return 4;
    case PlyType::kFloat64: return 8;
  }
  return 1;
}

struct PlyProperty {
  std::string name;
  PlyType type = PlyType::kFloat32;
  bool is_list = false;
  PlyType count_type = PlyType::kUint8;
};

struct PlyElement {
  std::string name;
  size_t count = 0;
  std::vector<PlyProperty> properties;
};

enum class PlyFormat { kAscii, kBinaryLittle, kBinaryBig };

// Sequential value reader over the body of a PLY file.
class BodyReader {
 public:
  BodyReader(const std::vector<uint8_t>& bytes, size_t start, PlyFormat format, const std::string& path)
      : bytes_(bytes), position_(start), format_(format), path_(path) {}

  double Read(PlyType type, const std::string& element) {
    if (format_ == PlyFormat::kAscii) return ReadAscii(element);
    const size_t size = TypeSize(type);
    PROJ_REQUIRE(position_ + size <= bytes_.size(),
                 "'" << path_ << "': truncated PLY (data of element '" << element << "' ends early)");
    uint8_t raw[8];
    std::memcpy(raw, &bytes_[position_], size);
    position_ += size;
    const bool little = format_ == PlyFormat::kBinaryLittle;
    if (little != HostIsLittleEndian()) std::reverse(raw, raw + size);
    switch (type) {
      case PlyType::kInt8: { int8_t v; std::memcpy(&v, raw, 1); return v; }
      case PlyType::kUint8: return raw[0];
      case PlyType::kInt16: { int16_t v; std::memcpy(&v, raw, 2); return v; }
      case PlyType::kUint16: { uint16_t v; std::memcpy(&v, raw, 2); return v; }
      case PlyType::kInt32: { int32_t v; std::memcpy(&v, raw, 4); return v; }
      case PlyType::kUint32: { uint32_t v; std::memcpy(&v, raw, 4); return v; }
      case PlyType::kFloat32: { float v; std::memcpy(&v, raw, 4); return v; }
      case PlyType::kFloat64: { double v; std::memcpy(&v, raw, 8); return v; }
    }
    return 0;
  }

  size_t remaining() const { return bytes_.size() - position_; }

 private:
  double ReadAscii(const std::string& element) {
    while (position_ < bytes_.size() && std::isspace(bytes_[position_])) ++position_;
    const size_t start = position_;
    while (position_ < bytes_.size() && !std::isspace(bytes_[position_])) ++position_;
    PROJ_REQUIRE(position_ > start,
                 "'" << path_ << "': truncated PLY (data of element '" << element << "' ends early)");
    const std::string token(reinterpret_cast<const char*>(&bytes_[start]), position_ - start);
    char* end = nullptr;
    const double value = std::strtod(token.c_str(), &end);
    PROJ_REQUIRE(end != nullptr && *end == '\0',
                 "'" << path_ << "': bad number '" << token << "' in element '" << element << "'");
    return value;
  }

  const std::vector<uint8_t>& bytes_;
  size_t position_;
  PlyFormat format_;
  const std::string& path_;
};

int PropertyIndex(const PlyElement& element, std::initializer_list<const char*> names) {
  for (size_t i = 0; i < element.properties.size(); ++i) {
    for (const char* name : names) {
      if (element.properties[i].name == name) return static_cast<int>(i);
    }
  }
  return -1;
}

// A vertex index read as a double (any PLY type) as an int. Out-of-range doubles (a uint32 of
// 4e9, a float of 1e30, NaN) would make the conversion undefined (found by fuzzing).
int VertexIndexValue(double value, const std::string& path) {
  PROJ_REQUIRE(value >= std::numeric_limits<int>::min() && value <= std::numeric_limits<int>::max(),
               "'" << path << "': PLY vertex index " << value << " is out of range");
  return static_cast<int>(value);
}

uint8_t ColorValue(double value, PlyType type) {
  if (type == PlyType::kFloat32 || type == PlyType::kFloat64) value *= 255.0;
  return static_cast<uint8_t>(std::clamp(std::lround(value), 0L, 255L));
}

}  // namespace

void WritePly(const std::string& path, const PlyMesh& mesh) {
  WriteMesh(path, {mesh.positions, mesh.normals, mesh.colors, mesh.edges, mesh.faces});
}

void WritePointCloudPly(const std::string& path, const std::vector<Eigen::Vector3f>& points,
                        const std::vector<Rgb8>& colors, const std::vector<Eigen::Vector3f>& normals) {
  WriteMesh(path, {points, normals, colors, {}, {}});
}

PlyMesh ReadPly(const std::string& path) {
  const std::vector<uint8_t> bytes = ReadFileBytes(path);
  const std::string marker = "end_header";
  const std::string head(reinterpret_cast<const char*>(bytes.data()),
                         std::min<size_t>(bytes.size(), 1 << 16));
  PROJ_REQUIRE(head.rfind("ply", 0) == 0, "'" << path << "': not a PLY file (missing 'ply' magic)");
  const size_t end_header = head.find(marker);
  PROJ_REQUIRE(end_header != std::string::npos, "'" << path << "': PLY header has no end_header");
  size_t body = head.find('\n', end_header);
  PROJ_REQUIRE(body != std::string::npos, "'" << path << "': PLY header has no end_header line end");
  ++body;

  std::istringstream header(head.substr(0, end_header));
  std::string line;
  PlyFormat format = PlyFormat::kAscii;
  bool have_format = false;
  std::vector<PlyElement> elements;
  int line_number = 0;
  while (std::getline(header, line)) {
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::istringstream words(line);
    std::string keyword;
    words >> keyword;
    if (keyword.empty() || keyword == "ply" || keyword == "comment" || keyword == "obj_info") continue;
    if (keyword == "format") {
      std::string name;
      words >> name;
      if (name == "ascii") format = PlyFormat::kAscii;
      else if (name == "binary_little_endian") format = PlyFormat::kBinaryLittle;
      else if (name == "binary_big_endian") format = PlyFormat::kBinaryBig;
      else PROJ_REQUIRE(false, "'" << path << "' line " << line_number << ": unknown PLY format '" << name << "'");
      have_format = true;
    } else if (keyword == "element") {
      PlyElement element;
      long long count = -1;
      words >> element.name >> count;
      PROJ_REQUIRE(!words.fail() && count >= 0,
                   "'" << path << "' line " << line_number << ": bad element line '" << line << "'");
      element.count = static_cast<size_t>(count);
      elements.push_back(element);
    } else if (keyword == "property") {
      PROJ_REQUIRE(!elements.empty(),
                   "'" << path << "' line " << line_number << ": property before any element");
      PlyProperty property;
      std::string type;
      words >> type;
      if (type == "list") {
        std::string count_type, item_type;
        words >> count_type >> item_type >> property.name;
        property.is_list = true;
        PROJ_REQUIRE(!words.fail() && ParseType(count_type, &property.count_type) &&
                         ParseType(item_type, &property.type),
                     "'" << path << "' line " << line_number << ": bad list property '" << line << "'");
      } else {
        words >> property.name;
        PROJ_REQUIRE(!words.fail() && ParseType(type, &property.type),
                     "'" << path << "' line " << line_number << ": bad property '" << line << "'");
      }
      elements.back().properties.push_back(property);
    } else {
      PROJ_REQUIRE(false, "'" << path << "' line " << line_number << ": unexpected PLY header line '"
                              << line << "'");
    }
  }
  PROJ_REQUIRE(have_format, "'" << path << "': PLY header has no format line");

  // Colours are per vertex of the one vertex element: a second one (with or without colours)
  // would leave PlyMesh::colors out of step with positions (found by fuzzing).
  PROJ_REQUIRE(std::count_if(elements.begin(), elements.end(),
                             [](const PlyElement& e) { return e.name == "vertex"; }) <= 1,
               "'" << path << "': PLY file has more than one vertex element");
  PlyMesh mesh;
  BodyReader reader(bytes, body, format, path);
  for (const PlyElement& element : elements) {
    const int x = PropertyIndex(element, {"x"}), y = PropertyIndex(element, {"y"}),
              z = PropertyIndex(element, {"z"});
    const int red = PropertyIndex(element, {"red"}), green = PropertyIndex(element, {"green"}),
              blue = PropertyIndex(element, {"blue"});
    const int nx = PropertyIndex(element, {"nx"}), ny = PropertyIndex(element, {"ny"}),
              nz = PropertyIndex(element, {"nz"});
    const int vertex1 = PropertyIndex(element, {"vertex1"}), vertex2 = PropertyIndex(element, {"vertex2"});
    const int indices = PropertyIndex(element, {"vertex_indices", "vertex_index"});
    const bool is_vertex = element.name == "vertex";
    const bool is_edge = element.name == "edge";
    const bool is_face = element.name == "face";
    if (is_vertex) {
      PROJ_REQUIRE(x >= 0 && y >= 0 && z >= 0, "'" << path << "': PLY vertex element lacks x, y or z");
      PROJ_REQUIRE(!element.properties[x].is_list && !element.properties[y].is_list &&
                       !element.properties[z].is_list,
                   "'" << path << "': PLY vertex coordinates must be scalars");
    }
    PROJ_REQUIRE(!is_edge || (vertex1 >= 0 && vertex2 >= 0),
                 "'" << path << "': PLY edge element lacks vertex1 or vertex2");
    PROJ_REQUIRE(!is_face || (indices >= 0 && element.properties[indices].is_list),
                 "'" << path << "': PLY face element lacks a vertex_indices list");
    // Every item of an element with properties takes at least one byte (binary) or character
    // (ASCII): a larger count is a corrupt header, and would otherwise loop 2^64 times over
    // an element of nothing (found by fuzzing). Items of no properties hold nothing to read.
    if (element.properties.empty()) continue;
    PROJ_REQUIRE(element.count <= reader.remaining(),
                 "'" << path << "': PLY element '" << element.name << "' claims " << element.count
                     << " items, more than the " << reader.remaining() << " bytes left");
    const bool with_colors = is_vertex && red >= 0 && green >= 0 && blue >= 0;
    const bool with_normals = is_vertex && nx >= 0 && ny >= 0 && nz >= 0;
    std::vector<double> values(element.properties.size());
    std::vector<int> face;
    for (size_t item = 0; item < element.count; ++item) {
      face.clear();
      for (size_t p = 0; p < element.properties.size(); ++p) {
        const PlyProperty& property = element.properties[p];
        if (!property.is_list) {
          values[p] = reader.Read(property.type, element.name);
          continue;
        }
        const double count = reader.Read(property.count_type, element.name);
        PROJ_REQUIRE(count >= 0 && count <= static_cast<double>(reader.remaining()),
                     "'" << path << "': bad list length " << count << " in element '" << element.name << "'");
        for (int k = 0; k < static_cast<int>(count); ++k) {
          const double value = reader.Read(property.type, element.name);
          if (is_face && static_cast<int>(p) == indices) face.push_back(VertexIndexValue(value, path));
        }
      }
      if (is_vertex) {
        mesh.positions.emplace_back(values[x], values[y], values[z]);
        if (with_normals) mesh.normals.emplace_back(values[nx], values[ny], values[nz]);
        if (with_colors) {
          mesh.colors.push_back({ColorValue(values[red], element.properties[red].type),
                                 ColorValue(values[green], element.properties[green].type),
                                 ColorValue(values[blue], element.properties[blue].type)});
        }
      } else if (is_edge) {
        mesh.edges.push_back({VertexIndexValue(values[vertex1], path), VertexIndexValue(values[vertex2], path)});
      } else if (is_face) {
        mesh.faces.push_back(face);
      }
    }
  }
  const int num_vertices = static_cast<int>(mesh.positions.size());
  for (const auto& edge : mesh.edges) {
    PROJ_REQUIRE(edge[0] >= 0 && edge[0] < num_vertices && edge[1] >= 0 && edge[1] < num_vertices,
                 "'" << path << "': PLY edge refers to a missing vertex");
  }
  for (const auto& f : mesh.faces) {
    for (int index : f) {
      PROJ_REQUIRE(index >= 0 && index < num_vertices, "'" << path << "': PLY face refers to a missing vertex");
    }
  }
  return mesh;
}

void CameraPlyOptions::Check() const {
  PROJ_REQUIRE(std::isfinite(frustum_depth), "CameraPlyOptions.frustum_depth must be finite");
}

PlyMesh MakeCameraMesh(const std::vector<PlyCamera>& cameras, const CameraPlyOptions& options) {
  options.Check();
  PlyMesh mesh;
  double depth = options.frustum_depth;
  if (depth <= 0) {
    depth = 1.0;
    if (cameras.size() > 1) {
      Eigen::Vector3d low = cameras[0].center, high = cameras[0].center;
      for (const auto& camera : cameras) {
        low = low.cwiseMin(camera.center);
        high = high.cwiseMax(camera.center);
      }
      const double extent = (high - low).norm();
      if (extent > 0) depth = 0.05 * extent;
    }
  }
  for (const PlyCamera& camera : cameras) {
    PROJ_REQUIRE(camera.center.allFinite() && camera.world_from_cam.allFinite() && camera.K.allFinite(),
                 "camera glyph: non-finite camera");
    const int base = static_cast<int>(mesh.positions.size());
    mesh.positions.push_back(camera.center.cast<float>());
    mesh.colors.push_back(camera.color);
    if (options.glyph == CameraGlyph::kCentres) continue;
    PROJ_REQUIRE(camera.width > 0 && camera.height > 0, "camera glyph: image size must be positive");
    const Eigen::Matrix3d K_inverse = camera.K.inverse();
    const double corners[4][2] = {{0, 0}, {1.0 * camera.width, 0},
                                  {1.0 * camera.width, 1.0 * camera.height}, {0, 1.0 * camera.height}};
    for (const auto& corner : corners) {
      const Eigen::Vector3d ray = K_inverse * Eigen::Vector3d(corner[0], corner[1], 1.0);
      const Eigen::Vector3d point = camera.center + camera.world_from_cam * (ray / ray.z() * depth);
      mesh.positions.push_back(point.cast<float>());
      mesh.colors.push_back(camera.color);
    }
    if (options.glyph == CameraGlyph::kFrustumEdges) {
      for (int k = 0; k < 4; ++k) {
        mesh.edges.push_back({base, base + 1 + k});
        mesh.edges.push_back({base + 1 + k, base + 1 + (k + 1) % 4});
      }
    } else {
      for (int k = 0; k < 4; ++k) mesh.faces.push_back({base, base + 1 + k, base + 1 + (k + 1) % 4});
      mesh.faces.push_back({base + 1, base + 2, base + 3, base + 4});
    }
  }
  return mesh;
}

void WriteCamerasPly(const std::string& path, const std::vector<PlyCamera>& cameras,
                     const CameraPlyOptions& options) {
  WritePly(path, MakeCameraMesh(cameras, options));
}

}  // namespace proj
