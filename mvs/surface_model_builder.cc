#include "mvs/surface_model_builder.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <deque>
#include <memory>
#include <utility>

#include "core/check.h"
#include "core/parallel_for.h"
#include "core/progress.h"
#include "geometry/geodesy/map_projection.h"

namespace proj::mvs {
namespace {

// The value at `share` of the sorted values (nearest rank), from a copy.
double QuantileOf(std::vector<double> values, double share) {
  const size_t rank = static_cast<size_t>(std::lround(share * static_cast<double>(values.size() - 1)));
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(rank), values.end());
  return values[rank];
}

constexpr int kOffsets4[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};

// Chessboard distance (in cells) of every cell to the nearest known cell, by a breadth-first
// search from all known cells at once; -1 when there is no known cell.
std::vector<int> DistanceToKnown(const SurfaceModel& model) {
  const GroundGrid& grid = model.grid;
  std::vector<int> distance(grid.NumCells(), -1);
  std::deque<std::pair<int, int>> queue;
  for (int row = 0; row < grid.height; ++row) {
    for (int col = 0; col < grid.width; ++col) {
      if (!model.Known(col, row)) continue;
      distance[grid.Index(col, row)] = 0;
      queue.emplace_back(col, row);
    }
  }
  while (!queue.empty()) {
    const auto [col, row] = queue.front();
    queue.pop_front();
    const int next = distance[grid.Index(col, row)] + 1;
    for (int dr = -1; dr <= 1; ++dr) {
      for (int dc = -1; dc <= 1; ++dc) {
        const int c = col + dc, r = row + dr;
        if (c < 0 || c >= grid.width || r < 0 || r >= grid.height || distance[grid.Index(c, r)] >= 0) continue;
        distance[grid.Index(c, r)] = next;
        queue.emplace_back(c, r);
      }
    }
  }
  return distance;
}

// The holes that FillHoles fills: 4-connected components of nodata cells that do not reach
// the grid's edge and lie within `limit` cells of known ones. Their cells, and the largest
// side of their bounding boxes.
std::vector<size_t> FillableHoleCells(const SurfaceModel& model, double limit, int* largest_side) {
  const GroundGrid& grid = model.grid;
  const std::vector<int> distance = DistanceToKnown(model);
  std::vector<char> visited(grid.NumCells(), 0);
  std::vector<size_t> fillable;
  *largest_side = 0;
  for (int start_row = 0; start_row < grid.height; ++start_row) {
    for (int start_col = 0; start_col < grid.width; ++start_col) {
      const size_t start = grid.Index(start_col, start_row);
      if (model.Known(start_col, start_row) || visited[start]) continue;
      std::vector<std::pair<int, int>> component = {{start_col, start_row}};
      visited[start] = 1;
      bool reaches_edge = false, too_far = false;
      int min_col = start_col, max_col = start_col, min_row = start_row, max_row = start_row;
      for (size_t i = 0; i < component.size(); ++i) {
        const auto [col, row] = component[i];
        const int d = distance[grid.Index(col, row)];
        too_far = too_far || d < 0 || d > limit;
        min_col = std::min(min_col, col), max_col = std::max(max_col, col);
        min_row = std::min(min_row, row), max_row = std::max(max_row, row);
        for (const auto& offset : kOffsets4) {
          const int c = col + offset[0], r = row + offset[1];
          if (c < 0 || c >= grid.width || r < 0 || r >= grid.height) {
            reaches_edge = true;
            continue;
          }
          if (model.Known(c, r) || visited[grid.Index(c, r)]) continue;
          visited[grid.Index(c, r)] = 1;
          component.emplace_back(c, r);
        }
      }
      if (reaches_edge || too_far) continue;
      *largest_side = std::max({*largest_side, max_col - min_col + 1, max_row - min_row + 1});
      for (const auto& [col, row] : component) fillable.push_back(grid.Index(col, row));
    }
  }
  return fillable;
}

}  // namespace

void SurfaceModelOptions::Check() const {
  PROJ_REQUIRE(cell_m > 0 && std::isfinite(cell_m), "the surface model's cell size must be > 0 m, not " << cell_m);
  PROJ_REQUIRE(cell_percentile >= 0 && cell_percentile <= 100,
               "the surface model's cell percentile must be in [0, 100], not " << cell_percentile);
  PROJ_REQUIRE(fill_limit_m >= 0 && std::isfinite(fill_limit_m),
               "the surface model's hole-filling limit must be >= 0 m, not " << fill_limit_m);
  PROJ_REQUIRE(extent_trim_share >= 0 && extent_trim_share < 0.5,
               "SurfaceModelOptions.extent_trim_share must be in [0, 0.5)");
}

std::vector<Eigen::Vector3d> MapPositionsOf(const std::vector<Eigen::Vector3f>& positions_enu, const EnuFrame& frame,
                                            int num_threads) {
  const int threads = ResolveNumThreads(num_threads);
  std::vector<std::unique_ptr<MapProjection>> projections(threads);
  projections[0] = std::make_unique<MapProjection>(frame);  // warns once about a missing geoid grid
  std::vector<Eigen::Vector3d> positions_map(positions_enu.size());
  constexpr int kBlock = 4096;
  const int num_blocks = static_cast<int>((positions_enu.size() + kBlock - 1) / kBlock);
  Progress progress("map coordinates", num_blocks, "blocks of 4096 points");
  ParallelFor(0, num_blocks, threads, [&](int block, int worker) {
    if (!projections[worker]) projections[worker] = std::make_unique<MapProjection>(frame, /*warn=*/false);
    const size_t end = std::min(positions_enu.size(), static_cast<size_t>(block + 1) * kBlock);
    for (size_t i = static_cast<size_t>(block) * kBlock; i < end; ++i) {
      positions_map[i] = projections[worker]->MapFromEnu(positions_enu[i].cast<double>());
    }
    progress.Advance();
  });
  return positions_map;
}

GroundGrid GridCovering(const std::vector<Eigen::Vector3d>& positions_map, double cell_m, double trim_share) {
  PROJ_REQUIRE(!positions_map.empty(), "no points to make a surface model of");
  std::vector<double> eastings, northings;
  eastings.reserve(positions_map.size());
  northings.reserve(positions_map.size());
  for (const Eigen::Vector3d& p : positions_map) {
    eastings.push_back(p.x());
    northings.push_back(p.y());
  }
  // Cell edges on multiples of cell_m: column floor(e / cell_m), and the row's north edge at
  // ceil(n / cell_m) (GroundGrid::CellOf's convention).
  const double west_cells = std::floor(QuantileOf(eastings, trim_share) / cell_m);
  const double east_cells = std::floor(QuantileOf(eastings, 1 - trim_share) / cell_m);
  const double north_cells = std::ceil(QuantileOf(northings, 1 - trim_share) / cell_m);
  const double south_cells = std::ceil(QuantileOf(northings, trim_share) / cell_m);
  const double width = east_cells - west_cells + 1, height = north_cells - south_cells + 1;
  PROJ_REQUIRE(width * height <= static_cast<double>(kMaxSurfaceModelCells),
               "a surface model of " << width * cell_m << " x " << height * cell_m << " m at " << cell_m
                                     << " m cells would have " << width * height
                                     << " cells, more than the limit of " << kMaxSurfaceModelCells
                                     << ": choose larger cells");
  GroundGrid grid;
  grid.cell_m = cell_m;
  grid.west_m = west_cells * cell_m;
  grid.north_m = north_cells * cell_m;
  grid.width = static_cast<int>(width);
  grid.height = static_cast<int>(height);
  return grid;
}

SurfaceModel RasterizeHeights(const std::vector<Eigen::Vector3d>& positions_map, const GroundGrid& grid,
                              double percentile) {
  std::vector<std::pair<uint64_t, float>> cell_heights;
  cell_heights.reserve(positions_map.size());
  for (const Eigen::Vector3d& p : positions_map) {
    int col = 0, row = 0;
    if (grid.CellOf(p.head<2>(), &col, &row)) cell_heights.emplace_back(grid.Index(col, row), static_cast<float>(p.z()));
  }
  std::sort(cell_heights.begin(), cell_heights.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  SurfaceModel model;
  model.grid = grid;
  model.height_m.assign(grid.NumCells(), SurfaceModel::kNoData);
  std::vector<float> heights;
  for (size_t begin = 0; begin < cell_heights.size();) {
    size_t end = begin;
    heights.clear();
    while (end < cell_heights.size() && cell_heights[end].first == cell_heights[begin].first) {
      heights.push_back(cell_heights[end++].second);
    }
    const size_t rank = static_cast<size_t>(std::lround(percentile / 100 * static_cast<double>(heights.size() - 1)));
    std::nth_element(heights.begin(), heights.begin() + static_cast<std::ptrdiff_t>(rank), heights.end());
    model.height_m[cell_heights[begin].first] = heights[rank];
    begin = end;
  }
  return model;
}

size_t FillHoles(double fill_limit_cells, SurfaceModel* model) {
  if (fill_limit_cells < 1 || model->grid.NumCells() == 0) return 0;
  const GroundGrid& grid = model->grid;
  int largest_side = 0;
  const std::vector<size_t> holes = FillableHoleCells(*model, fill_limit_cells, &largest_side);
  if (holes.empty()) return 0;
  // Laplace's equation over the hole cells, their rim fixed, by successive over-relaxation
  // with the factor that is optimal for a square of the largest hole's side. Holes do not
  // reach the edge, so every hole cell has its four neighbours.
  std::vector<double> height(model->height_m.begin(), model->height_m.end());
  const auto neighbours = [&](size_t index) {
    const size_t width = static_cast<size_t>(grid.width);
    return std::array<size_t, 4>{index - 1, index + 1, index - width, index + width};
  };
  // Start from the mean of the known neighbours of each cell, spread inwards.
  std::vector<char> is_hole(grid.NumCells(), 0);
  for (const size_t index : holes) is_hole[index] = 1;
  double rim_sum = 0;
  int rim_count = 0;
  for (const size_t index : holes) {
    for (const size_t n : neighbours(index)) {
      if (!is_hole[n]) rim_sum += height[n], ++rim_count;
    }
  }
  for (const size_t index : holes) height[index] = rim_sum / rim_count;
  const double omega = 2 / (1 + std::sin(M_PI / (largest_side + 1)));
  const int max_sweeps = 100 * (largest_side + 10);
  for (int sweep = 0; sweep < max_sweeps; ++sweep) {
    double largest_change = 0;
    for (const size_t index : holes) {
      double sum = 0;
      for (const size_t n : neighbours(index)) sum += height[n];
      const double change = omega * (sum / 4 - height[index]);
      height[index] += change;
      largest_change = std::max(largest_change, std::abs(change));
    }
    if (largest_change < 1e-7) break;
  }
  for (const size_t index : holes) model->height_m[index] = static_cast<float>(height[index]);
  return holes.size();
}

SurfaceModel BuildSurfaceModel(const std::vector<Eigen::Vector3d>& positions_map, const SurfaceModelOptions& options) {
  options.Check();
  const GroundGrid grid = GridCovering(positions_map, options.cell_m, options.extent_trim_share);
  SurfaceModel model = RasterizeHeights(positions_map, grid, options.cell_percentile);
  FillHoles(options.fill_limit_m / options.cell_m, &model);
  return model;
}

}  // namespace proj::mvs
