#include "mvs/surface_model_preview.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "core/check.h"

namespace proj::mvs {
namespace {

// The picture's size and, for each of its pixels, the grid cell at its centre.
struct Sampling {
  int width = 0;
  int height = 0;
  double cells_per_px = 1;
  int Col(int x) const { return static_cast<int>((x + 0.5) * cells_per_px); }
  int Row(int y) const { return static_cast<int>((y + 0.5) * cells_per_px); }
};

Sampling SamplingOf(const GroundGrid& grid, int max_side_px) {
  PROJ_CHECK(max_side_px > 0 && grid.width > 0 && grid.height > 0, "empty grid or picture");
  Sampling sampling;
  sampling.cells_per_px = std::max(1.0, static_cast<double>(std::max(grid.width, grid.height)) / max_side_px);
  sampling.width = std::max(1, static_cast<int>(grid.width / sampling.cells_per_px));
  sampling.height = std::max(1, static_cast<int>(grid.height / sampling.cells_per_px));
  return sampling;
}

// A terrain ramp over t in [0, 1].
std::array<double, 3> Ramp(double t) {
  static constexpr std::array<std::array<double, 3>, 5> kStops = {
      {{40, 120, 140}, {90, 170, 90}, {235, 220, 120}, {170, 110, 60}, {250, 250, 250}}};
  const double at = std::clamp(t, 0.0, 1.0) * (kStops.size() - 1);
  const size_t i = std::min(static_cast<size_t>(at), kStops.size() - 2);
  const double f = at - i;
  std::array<double, 3> color;
  for (int c = 0; c < 3; ++c) color[c] = kStops[i][c] * (1 - f) + kStops[i + 1][c] * f;
  return color;
}

double PercentileOf(std::vector<float> values, double share) {
  const size_t rank = static_cast<size_t>(share * (values.size() - 1));
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(rank), values.end());
  return values[rank];
}

}  // namespace

MapPreview PreviewOfSurfaceModel(const SurfaceModel& model, int max_side_px) {
  const GroundGrid& grid = model.grid;
  const Sampling sampling = SamplingOf(grid, max_side_px);
  MapPreview preview;
  preview.metres_per_px = grid.cell_m * sampling.cells_per_px;
  preview.image = Image{sampling.width, sampling.height, 3,
                        std::vector<uint8_t>(static_cast<size_t>(sampling.width) * sampling.height * 3, 255)};
  std::vector<float> known;
  for (const float h : model.height_m) {
    if (std::isfinite(h)) known.push_back(h);
  }
  if (known.empty()) return preview;
  const double low = PercentileOf(known, 0.02);
  const double high = std::max(PercentileOf(known, 0.98), low + 1e-3);
  // The light: from the north-west (up and left in the picture), 45 degrees above the horizon.
  const Eigen::Vector3d light = Eigen::Vector3d(-1, 1, std::sqrt(2.0)).normalized();
  for (int y = 0; y < sampling.height; ++y) {
    for (int x = 0; x < sampling.width; ++x) {
      const int col = sampling.Col(x), row = sampling.Row(y);
      if (!model.Known(col, row)) continue;
      const double h = model.At(col, row);
      // The slope over one picture pixel each way (a side's own height where it is nodata).
      const auto height_at = [&](int c, int r) {
        c = std::clamp(c, 0, grid.width - 1);
        r = std::clamp(r, 0, grid.height - 1);
        return model.Known(c, r) ? static_cast<double>(model.At(c, r)) : h;
      };
      const int reach = std::max(1, static_cast<int>(sampling.cells_per_px));
      const double dz_east = (height_at(col + reach, row) - height_at(col - reach, row)) / (2 * reach * grid.cell_m);
      const double dz_north = (height_at(col, row - reach) - height_at(col, row + reach)) / (2 * reach * grid.cell_m);
      const Eigen::Vector3d normal = Eigen::Vector3d(-dz_east, -dz_north, 1).normalized();
      const double shade = 0.55 + 0.45 * std::max(0.0, normal.dot(light));
      const std::array<double, 3> color = Ramp((h - low) / (high - low));
      uint8_t* pixel = &preview.image.data[(static_cast<size_t>(y) * sampling.width + x) * 3];
      for (int c = 0; c < 3; ++c) pixel[c] = static_cast<uint8_t>(std::clamp(color[c] * shade, 0.0, 255.0));
    }
  }
  return preview;
}

MapPreview PreviewOfRgba(const GroundGrid& grid, const std::vector<uint8_t>& rgba, int max_side_px) {
  PROJ_CHECK(rgba.size() == grid.NumCells() * 4, "RGBA raster not of the grid's size");
  const Sampling sampling = SamplingOf(grid, max_side_px);
  MapPreview preview;
  preview.metres_per_px = grid.cell_m * sampling.cells_per_px;
  preview.image = Image{sampling.width, sampling.height, 3,
                        std::vector<uint8_t>(static_cast<size_t>(sampling.width) * sampling.height * 3)};
  for (int y = 0; y < sampling.height; ++y) {
    for (int x = 0; x < sampling.width; ++x) {
      const uint8_t* cell = &rgba[grid.Index(sampling.Col(x), sampling.Row(y)) * 4];
      const double alpha = cell[3] / 255.0;
      uint8_t* pixel = &preview.image.data[(static_cast<size_t>(y) * sampling.width + x) * 3];
      for (int c = 0; c < 3; ++c) pixel[c] = static_cast<uint8_t>(std::lround(cell[c] * alpha + 255 * (1 - alpha)));
    }
  }
  return preview;
}

}  // namespace proj::mvs
