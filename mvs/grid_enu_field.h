// The model's ENU positions of a ground grid's points, from map->ENU conversions at coarse
// nodes only: the conversion (a PROJ pipeline, about a microsecond) is smooth over a survey, so
// bilinear interpolation between nodes kNodeStepCells apart is exact to far below a cell
// (Earth's curvature over 16 cells of 10 cm bends by under a micrometre).
#pragma once

#include <functional>
#include <vector>

#include <Eigen/Core>

#include "mvs/ground_grid.h"

namespace proj::mvs {

class GridEnuField {
 public:
  static constexpr int kNodeStepCells = 16;

  // Calls enu_from_map at every node at heights `reference_height_m` and 100 m above it.
  GridEnuField(const GroundGrid& grid, double reference_height_m,
               const std::function<Eigen::Vector3d(const Eigen::Vector3d&)>& enu_from_map);

  // The ENU position of grid coordinates (x, y) (cell (col, row) spans [col, col + 1] x
  // [row, row + 1]; its centre is (col + 0.5, row + 0.5)) at map height `height_m`; (x, y)
  // within the grid's extent.
  Eigen::Vector3d EnuAt(double x, double y, double height_m) const;
  Eigen::Vector3d CellEnu(int col, int row, double height_m) const { return EnuAt(col + 0.5, row + 0.5, height_m); }

 private:
  int nodes_x_ = 0, nodes_y_ = 0;
  double reference_height_m_ = 0;
  std::vector<Eigen::Vector3d> base_;        // ENU at the reference height, node-major over y
  std::vector<Eigen::Vector3d> per_metre_;   // d ENU / d height
};

}  // namespace proj::mvs
