// An outdoor world for synthetic drone flights: rolling terrain (a smooth heightfield) with
// box-shaped buildings, textured with analytic, non-repeating multi-octave noise and random
// discs (no texture memory, so any area can be flown), lit by a fixed sun. World frame: ENU
// metres, z up, terrain around z = 0. Deterministic in the seed.
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <vector>

#include <Eigen/Core>

#include "io/image.h"
#include "io/strecha_camera.h"

namespace proj::synthetic {

struct TerrainWorldOptions {
  double relief_m = 8;                // largest height difference of the terrain, about
  double building_cell_m = 35;        // at most one building per cell of this size ...
  double building_probability = 0.4;  // ... with this probability
  double max_building_height_m = 15;
  void Check() const;
};

class TerrainWorld {
 public:
  // Buildings of the cells within `area_min`..`area_max` (x, y in metres) are laid out once,
  // those elsewhere on every use (same result, slower).
  TerrainWorld(const TerrainWorldOptions& options, uint64_t seed, const Eigen::Vector2d& area_min,
               const Eigen::Vector2d& area_max);

  double Height(double x, double y) const;  // terrain only
  // Distance from `origin` along `direction` (any length) to the first surface, terrain or
  // building; +infinity when the ray meets none (the sky).
  double HitDistance(const Eigen::Vector3d& origin, const Eigen::Vector3d& direction) const;
  // Colour in [0, 255] of the ray C + t d (any d), textures filtered for samples
  // `spacing_rad` apart in angle; the sky colour when nothing is hit.
  std::array<float, 3> Trace(const Eigen::Vector3d& origin, const Eigen::Vector3d& direction,
                             double spacing_rad) const;

 private:
  struct Building {
    Eigen::Vector2d center = Eigen::Vector2d::Zero();
    double cos_yaw = 1, sin_yaw = 0;
    Eigen::Vector3d half_size = Eigen::Vector3d::Ones();
    double base_z = 0;
    uint64_t seed = 0;
  };
  struct Wave {
    Eigen::Vector2d frequency = Eigen::Vector2d::Zero();  // radians per metre
    double amplitude = 0, phase = 0;
  };
  // The first surface along the ray C + t d (d unit): t, and for a building its face axis
  // (0..2, -1 for the terrain), the building and the hit in the building's frame.
  struct Hit {
    double t = std::numeric_limits<double>::infinity();
    int face = -1;
    Building building;
    Eigen::Vector3d local = Eigen::Vector3d::Zero();
  };
  Hit Intersect(const Eigen::Vector3d& origin, const Eigen::Vector3d& d) const;
  // The building of lattice cell (i, j), if any; it lies inside its cell.
  bool BuildingOf(int i, int j, Building* building) const;
  bool LayOutBuilding(int i, int j, Building* building) const;  // derived from the seed
  Eigen::Vector3d TerrainNormal(double x, double y) const;
  // Texture colour of surface coordinates (u, v) in metres, filtered for `footprint_m`.
  std::array<float, 3> Texture(double u, double v, double footprint_m, uint64_t seed,
                               const std::array<float, 3>& tint) const;

  TerrainWorldOptions options_;
  uint64_t seed_;
  std::vector<Wave> waves_;
  double max_height_ = 0;  // bound of |Height|
  double max_slope_ = 0;   // bound of |grad Height|
  int cell_i0_ = 0, cell_j0_ = 0, cells_i_ = 0, cells_j_ = 0;  // laid-out cell range
  std::vector<Building> cell_buildings_;  // cells_i_ x cells_j_, row-major over j
  std::vector<char> cell_has_building_;
  Eigen::Vector3d sun_ = Eigen::Vector3d(0.4, 0.3, 0.87).normalized();
};

// Renders camera.width x camera.height RGB, one ray per pixel centre (textures filtered
// over the pixel), rows in parallel; independent of `num_threads` (<= 0: all).
Image RenderTerrainView(const TerrainWorld& world, const StrechaCamera& camera, int num_threads);

}  // namespace proj::synthetic
