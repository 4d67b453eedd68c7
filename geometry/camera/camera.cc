#include "geometry/camera/camera.h"

#include <algorithm>
#include <cctype>
#include <optional>

namespace proj {
namespace {
template <size_t N>
std::vector<int> ToVector(const std::array<int, N>& indices) {
  return std::vector<int>(indices.begin(), indices.end());
}
}  // namespace

Camera Camera::FromFocal(CameraModelId model, int width, int height, double focal_px) {
  Camera camera;
  camera.model = model;
  camera.width = width;
  camera.height = height;
  camera.params.assign(CameraModelNumParams(model), 0.0);
  camera.SetFocal(focal_px);
  const auto pp = camera.PrincipalPointIndices();
  camera.params[pp[0]] = width / 2.0;
  camera.params[pp[1]] = height / 2.0;
  return camera;
}

double Camera::MeanFocal() const {
  const auto indices = FocalIndices();
  double sum = 0;
  for (int index : indices) sum += params[index];
  return sum / indices.size();
}

void Camera::SetFocal(double focal_px) {
  for (int index : FocalIndices()) params[index] = focal_px;
}

Eigen::Vector2d Camera::PrincipalPoint() const {
  const auto pp = PrincipalPointIndices();
  return {params[pp[0]], params[pp[1]]};
}

Eigen::Matrix3d Camera::CalibrationMatrix() const {
  const auto focal = FocalIndices();
  const Eigen::Vector2d pp = PrincipalPoint();
  Eigen::Matrix3d k = Eigen::Matrix3d::Identity();
  k(0, 0) = params[focal.front()];
  k(1, 1) = params[focal.back()];
  k(0, 2) = pp.x();
  k(1, 2) = pp.y();
  return k;
}

Eigen::Vector2d Camera::PixelToNormalized(const Eigen::Vector2d& uv) const {
  Eigen::Vector2d xy;
  VisitCameraModel(model, [&](auto m) {
    UnprojectPixel<decltype(m)>(params.data(), uv.data(), xy.data());
  });
  return xy;
}

bool Camera::Project(const Eigen::Vector3d& point_cam, Eigen::Vector2d* uv) const {
  bool ok = false;
  VisitCameraModel(model, [&](auto m) {
    ok = ProjectPoint<decltype(m)>(params.data(), point_cam.data(), uv->data());
  });
  return ok;
}

std::vector<int> Camera::FocalIndices() const {
  std::vector<int> out;
  VisitCameraModel(model, [&](auto m) { out = ToVector(decltype(m)::kFocalIndices); });
  return out;
}
std::vector<int> Camera::PrincipalPointIndices() const {
  std::vector<int> out;
  VisitCameraModel(model, [&](auto m) { out = ToVector(decltype(m)::kPrincipalPointIndices); });
  return out;
}
std::vector<int> Camera::ExtraIndices() const {
  std::vector<int> out;
  VisitCameraModel(model, [&](auto m) { out = ToVector(decltype(m)::kExtraIndices); });
  return out;
}

int CameraModelNumParams(CameraModelId model) {
  int n = 0;
  VisitCameraModel(model, [&](auto m) { n = decltype(m)::kNumParams; });
  return n;
}

std::string CameraModelName(CameraModelId model) {
  std::string name;
  VisitCameraModel(model, [&](auto m) { name = decltype(m)::kName; });
  return name;
}

CameraModelId CameraModelFromName(const std::string& name) {
  std::string upper = name;
  std::transform(upper.begin(), upper.end(), upper.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  std::optional<CameraModelId> found;
  std::apply([&](auto... m) { ((upper == decltype(m)::kName ? (found = decltype(m)::kId, 0) : 0), ...); },
             CameraModels{});
  PROJ_REQUIRE(found.has_value(), "unknown camera model '" << name
                                      << "' (expected PINHOLE, SIMPLE_RADIAL or RADIAL)");
  return *found;
}

}  // namespace proj
