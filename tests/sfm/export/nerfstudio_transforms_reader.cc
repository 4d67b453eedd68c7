#include "tests/sfm/export/nerfstudio_transforms_reader.h"

#include "io/json_cursor.h"

namespace proj::testing {
namespace {

// Calls `member(key)` for each key of an object; `member` reads the value.
template <typename Member>
void ReadObject(JsonCursor& json, Member member) {
  json.Expect('{');
  if (json.Accept('}')) return;
  do {
    const std::string key = json.String();
    json.Expect(':');
    member(key);
  } while (json.Accept(','));
  json.Expect('}');
}

template <typename Matrix>
Matrix ReadMatrix(JsonCursor& json) {
  Matrix m;
  json.Expect('[');
  for (int r = 0; r < m.rows(); ++r) {
    if (r > 0) json.Expect(',');
    json.Expect('[');
    for (int c = 0; c < m.cols(); ++c) {
      if (c > 0) json.Expect(',');
      m(r, c) = json.Number();
    }
    json.Expect(']');
  }
  json.Expect(']');
  return m;
}

// One intrinsics key into `*intrinsics` (created on the first); false when `key` is not one.
bool ReadIntrinsic(JsonCursor& json, const std::string& key, std::optional<NerfstudioIntrinsics>* intrinsics) {
  NerfstudioIntrinsics& in = intrinsics->has_value() ? **intrinsics : intrinsics->emplace();
  if (key == "camera_model") {
    in.camera_model = json.String();
    return true;
  }
  const std::pair<const char*, double*> numbers[] = {{"fl_x", &in.fl_x}, {"fl_y", &in.fl_y}, {"cx", &in.cx},
                                                     {"cy", &in.cy},     {"k1", &in.k1},     {"k2", &in.k2},
                                                     {"p1", &in.p1},     {"p2", &in.p2}};
  for (const auto& [name, value] : numbers) {
    if (key == name) {
      *value = json.Number();
      return true;
    }
  }
  if (key == "w" || key == "h") {
    (key == "w" ? in.w : in.h) = static_cast<int>(json.Number());
    return true;
  }
  return false;
}

}  // namespace

NerfstudioTransforms ReadNerfstudioTransforms(const std::string& path) {
  JsonCursor json = JsonCursor::FromFile(path, "a nerfstudio transforms.json");
  NerfstudioTransforms out;
  std::optional<NerfstudioIntrinsics> shared;
  ReadObject(json, [&](const std::string& key) {
    if (key == "frames") {
      json.Expect('[');
      if (json.Accept(']')) return;
      do {
        NerfstudioFrame& frame = out.frames.emplace_back();
        std::optional<NerfstudioIntrinsics> own;
        ReadObject(json, [&](const std::string& frame_key) {
          if (frame_key == "file_path") {
            frame.file_path = json.String();
          } else if (frame_key == "transform_matrix") {
            frame.transform_matrix = ReadMatrix<Eigen::Matrix4d>(json);
          } else if (frame_key == "colmap_im_id") {
            frame.colmap_im_id = static_cast<int>(json.Number());
          } else if (!ReadIntrinsic(json, frame_key, &own)) {
            json.Fail("unexpected frame key '" + frame_key + "'");
          }
        });
        frame.intrinsics = own;
      } while (json.Accept(','));
      json.Expect(']');
    } else if (key == "applied_transform") {
      out.applied_transform = ReadMatrix<Eigen::Matrix<double, 3, 4>>(json);
    } else if (key == "ply_file_path") {
      out.ply_file_path = json.String();
    } else if (!ReadIntrinsic(json, key, &shared)) {
      json.Fail("unexpected key '" + key + "'");
    }
  });
  json.ExpectEnd();
  out.intrinsics = shared;
  return out;
}

}  // namespace proj::testing
