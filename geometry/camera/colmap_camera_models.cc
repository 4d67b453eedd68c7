#include "geometry/camera/colmap_camera_models.h"

#include <algorithm>
#include <cctype>

#include "core/check.h"

namespace proj {
namespace {

constexpr std::array<int, 5> kSameOrder = {0, 1, 2, 3, 4};
constexpr std::array<int, 5> kNone = {};

// COLMAP 3.x, ids 0..10 in order.
constexpr ColmapCameraModel kColmapCameraModels[] = {
    {0, "SIMPLE_PINHOLE", 3, CameraModelId::kPinhole, {0, 0, 1, 2}},  // fx = fy = f
    {1, "PINHOLE", 4, CameraModelId::kPinhole, kSameOrder},
    {2, "SIMPLE_RADIAL", 4, CameraModelId::kSimpleRadial, kSameOrder},
    {3, "RADIAL", 5, CameraModelId::kRadial, kSameOrder},
    {4, "OPENCV", 8, std::nullopt, kNone},
    {5, "OPENCV_FISHEYE", 8, std::nullopt, kNone},
    {6, "FULL_OPENCV", 12, std::nullopt, kNone},
    {7, "FOV", 5, std::nullopt, kNone},
    {8, "SIMPLE_RADIAL_FISHEYE", 4, std::nullopt, kNone},
    {9, "RADIAL_FISHEYE", 5, std::nullopt, kNone},
    {10, "THIN_PRISM_FISHEYE", 12, std::nullopt, kNone},
};

}  // namespace

const ColmapCameraModel* FindColmapCameraModel(int id) {
  for (const ColmapCameraModel& model : kColmapCameraModels) {
    if (model.id == id) return &model;
  }
  return nullptr;
}

const ColmapCameraModel* FindColmapCameraModel(const std::string& name) {
  std::string upper = name;
  std::transform(upper.begin(), upper.end(), upper.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  for (const ColmapCameraModel& model : kColmapCameraModels) {
    if (upper == model.name) return &model;
  }
  return nullptr;
}

int ColmapCameraModelId(CameraModelId model) {
  // Our model's own COLMAP entry (same name), not one read as it (SIMPLE_PINHOLE).
  const ColmapCameraModel* colmap = nullptr;
  VisitCameraModel(model, [&](auto m) { colmap = FindColmapCameraModel(decltype(m)::kName); });
  PROJ_CHECK(colmap != nullptr && colmap->ours == model,
             "camera model without a COLMAP id: " << static_cast<int>(model));
  return colmap->id;
}

std::vector<double> ParamsFromColmap(const ColmapCameraModel& model, const double* colmap_params) {
  PROJ_CHECK(model.ours.has_value(), "unsupported COLMAP camera model " << model.name);
  int num_params = 0;
  VisitCameraModel(*model.ours, [&](auto m) { num_params = decltype(m)::kNumParams; });
  std::vector<double> params(num_params);
  for (int i = 0; i < num_params; ++i) params[i] = colmap_params[model.ours_from_colmap[i]];
  return params;
}

std::string SupportedColmapCameraModels() {
  std::string names;
  for (const ColmapCameraModel& model : kColmapCameraModels) {
    if (!model.ours) continue;
    if (!names.empty()) names += ", ";
    names += model.name;
  }
  return names;
}

}  // namespace proj
