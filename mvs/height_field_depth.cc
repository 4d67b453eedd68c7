#include "mvs/height_field_depth.h"

#include <algorithm>
#include <cmath>

namespace proj::mvs {

float DepthBuffer::NearestAround(const Eigen::Vector2d& pixel) const {
  const int x0 = static_cast<int>(std::floor(pixel.x() - 0.5));
  const int y0 = static_cast<int>(std::floor(pixel.y() - 0.5));
  float nearest = kEmpty;
  for (int y = std::max(y0, 0); y <= std::min(y0 + 1, camera.height - 1); ++y) {
    for (int x = std::max(x0, 0); x <= std::min(x0 + 1, camera.width - 1); ++x) {
      nearest = std::min(nearest, depth[static_cast<size_t>(y) * camera.width + x]);
    }
  }
  return nearest;
}

void DrawDepthTriangle(const Eigen::Vector3d& a, const Eigen::Vector3d& b, const Eigen::Vector3d& c,
                       DepthBuffer* buffer) {
  const PinholeCamera& camera = buffer->camera;
  const Eigen::Vector2d pa = camera.Project(a), pb = camera.Project(b), pc = camera.Project(c);
  const double area = (pb - pa).x() * (pc - pa).y() - (pb - pa).y() * (pc - pa).x();
  if (!(std::abs(area) > 1e-12)) return;
  // Pixels whose centres (x + 0.5, y + 0.5) lie in the triangle's bounding box.
  const double min_x = std::min({pa.x(), pb.x(), pc.x()}), max_x = std::max({pa.x(), pb.x(), pc.x()});
  const double min_y = std::min({pa.y(), pb.y(), pc.y()}), max_y = std::max({pa.y(), pb.y(), pc.y()});
  const int x_begin = std::max(0, static_cast<int>(std::ceil(min_x - 0.5)));
  const int x_end = std::min(camera.width - 1, static_cast<int>(std::floor(max_x - 0.5)));
  const int y_begin = std::max(0, static_cast<int>(std::ceil(min_y - 0.5)));
  const int y_end = std::min(camera.height - 1, static_cast<int>(std::floor(max_y - 0.5)));
  const double inverse_area = 1.0 / area;
  const double wa = 1.0 / a.z(), wb = 1.0 / b.z(), wc = 1.0 / c.z();
  // Shared edges are drawn by both triangles (a small tolerance): a surface must not leak.
  constexpr double kInside = -1e-9;
  for (int y = y_begin; y <= y_end; ++y) {
    const double py = y + 0.5;
    for (int x = x_begin; x <= x_end; ++x) {
      const double px = x + 0.5;
      const double la = ((pb.x() - px) * (pc.y() - py) - (pb.y() - py) * (pc.x() - px)) * inverse_area;
      const double lb = ((pc.x() - px) * (pa.y() - py) - (pc.y() - py) * (pa.x() - px)) * inverse_area;
      const double lc = 1 - la - lb;
      if (la < kInside || lb < kInside || lc < kInside) continue;
      const float depth = static_cast<float>(1.0 / (la * wa + lb * wb + lc * wc));
      float& stored = buffer->depth[static_cast<size_t>(y) * camera.width + x];
      stored = std::min(stored, depth);
    }
  }
}

void DrawHeightField(const SurfaceModel& dsm, const GridEnuField& enu, const ViewGeometry& cam_from_world,
                     int col_begin, int col_end, int row_begin, int row_end, DepthBuffer* buffer) {
  const GroundGrid& grid = dsm.grid;
  col_end = std::min(col_end, grid.width - 1);
  row_end = std::min(row_end, grid.height - 1);
  if (col_begin >= col_end || row_begin >= row_end) return;
  // Camera-frame points of two rows of cell centres, slid down the rows.
  const int count = col_end + 1 - col_begin;
  std::vector<Eigen::Vector3d> upper(count), lower(count);
  std::vector<char> upper_ok(count), lower_ok(count);
  const auto fill_row = [&](int row, std::vector<Eigen::Vector3d>* points, std::vector<char>* ok) {
    for (int i = 0; i < count; ++i) {
      const int col = col_begin + i;
      (*ok)[i] = dsm.Known(col, row);
      if (!(*ok)[i]) continue;
      (*points)[i] = cam_from_world.CamFromWorld(enu.CellEnu(col, row, dsm.At(col, row)));
      (*ok)[i] = (*points)[i].z() > 1e-6;
    }
  };
  fill_row(row_begin, &upper, &upper_ok);
  for (int row = row_begin; row < row_end; ++row) {
    fill_row(row + 1, &lower, &lower_ok);
    for (int i = 0; i + 1 < count; ++i) {
      if (!(upper_ok[i] && upper_ok[i + 1] && lower_ok[i] && lower_ok[i + 1])) continue;
      DrawDepthTriangle(upper[i], upper[i + 1], lower[i + 1], buffer);
      DrawDepthTriangle(upper[i], lower[i + 1], lower[i], buffer);
    }
    std::swap(upper, lower);
    std::swap(upper_ok, lower_ok);
  }
}

}  // namespace proj::mvs
