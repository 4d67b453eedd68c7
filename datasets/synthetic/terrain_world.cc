#include "datasets/synthetic/terrain_world.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/check.h"
#include "core/parallel_for.h"
#include "datasets/synthetic/random.h"
#include "datasets/synthetic/synthetic_renderer.h"

namespace proj::synthetic {
namespace {

constexpr double kPi = 3.14159265358979323846;

double Smooth(double t) { return t * t * (3 - 2 * t); }

// Value noise in [0, 1] at (x, y) in lattice units.
double ValueNoise(double x, double y, uint64_t seed) {
  const double fx = std::floor(x), fy = std::floor(y);
  const int32_t ix = static_cast<int32_t>(fx), iy = static_cast<int32_t>(fy);
  const double tx = Smooth(x - fx), ty = Smooth(y - fy);
  const auto at = [&](int32_t dx, int32_t dy) {
    return HashLattice(ix + dx, iy + dy, seed) * (1.0 / 4294967296.0);
  };
  const double top = at(0, 0) + (at(1, 0) - at(0, 0)) * tx;
  const double bottom = at(0, 1) + (at(1, 1) - at(0, 1)) * tx;
  return top + (bottom - top) * ty;
}

double Unit(uint32_t hash) { return hash * (1.0 / 4294967296.0); }

}  // namespace

void TerrainWorldOptions::Check() const {
  PROJ_REQUIRE(relief_m >= 0 && relief_m <= 100, "TerrainWorldOptions.relief_m must be in [0, 100]");
  PROJ_REQUIRE(building_cell_m >= 10, "TerrainWorldOptions.building_cell_m must be >= 10");
  PROJ_REQUIRE(building_probability >= 0 && building_probability <= 1,
               "TerrainWorldOptions.building_probability must be in [0, 1]");
  PROJ_REQUIRE(max_building_height_m >= 3, "TerrainWorldOptions.max_building_height_m must be >= 3");
}

TerrainWorld::TerrainWorld(const TerrainWorldOptions& options, uint64_t seed,
                           const Eigen::Vector2d& area_min, const Eigen::Vector2d& area_max)
    : options_(options), seed_(seed) {
  options.Check();
  Rng rng(SubSeed(seed, 1));
  // Rolling hills: a few plane waves per scale, wavelengths 300 m down to 30 m.
  const double wavelengths_m[] = {300, 160, 80, 40};
  const double shares[] = {0.5, 0.25, 0.15, 0.1};
  for (int scale = 0; scale < 4; ++scale) {
    for (int k = 0; k < 2; ++k) {
      const double angle = rng.Uniform(0, 2 * kPi);
      Wave wave;
      wave.frequency = 2 * kPi / wavelengths_m[scale] * Eigen::Vector2d(std::cos(angle), std::sin(angle));
      wave.amplitude = 0.25 * options.relief_m * shares[scale];
      wave.phase = rng.Uniform(0, 2 * kPi);
      waves_.push_back(wave);
      max_height_ += wave.amplitude;
      max_slope_ += wave.amplitude * wave.frequency.norm();
    }
  }
  const double cell = options.building_cell_m;
  cell_i0_ = static_cast<int>(std::floor(area_min.x() / cell));
  cell_j0_ = static_cast<int>(std::floor(area_min.y() / cell));
  cells_i_ = std::max(0, static_cast<int>(std::floor(area_max.x() / cell)) - cell_i0_ + 1);
  cells_j_ = std::max(0, static_cast<int>(std::floor(area_max.y() / cell)) - cell_j0_ + 1);
  cell_buildings_.resize(static_cast<size_t>(cells_i_) * cells_j_);
  cell_has_building_.resize(cell_buildings_.size());
  for (int j = 0; j < cells_j_; ++j) {
    for (int i = 0; i < cells_i_; ++i) {
      const size_t index = static_cast<size_t>(j) * cells_i_ + i;
      cell_has_building_[index] = LayOutBuilding(cell_i0_ + i, cell_j0_ + j, &cell_buildings_[index]);
    }
  }
}

bool TerrainWorld::BuildingOf(int i, int j, Building* building) const {
  const int li = i - cell_i0_, lj = j - cell_j0_;
  if (li < 0 || lj < 0 || li >= cells_i_ || lj >= cells_j_) return LayOutBuilding(i, j, building);
  const size_t index = static_cast<size_t>(lj) * cells_i_ + li;
  if (!cell_has_building_[index]) return false;
  *building = cell_buildings_[index];
  return true;
}

double TerrainWorld::Height(double x, double y) const {
  double h = 0;
  for (const Wave& w : waves_) h += w.amplitude * std::sin(w.frequency.x() * x + w.frequency.y() * y + w.phase);
  return h;
}

Eigen::Vector3d TerrainWorld::TerrainNormal(double x, double y) const {
  Eigen::Vector2d gradient = Eigen::Vector2d::Zero();
  for (const Wave& w : waves_) {
    gradient += w.amplitude * std::cos(w.frequency.x() * x + w.frequency.y() * y + w.phase) * w.frequency;
  }
  return Eigen::Vector3d(-gradient.x(), -gradient.y(), 1).normalized();
}

bool TerrainWorld::LayOutBuilding(int i, int j, Building* b) const {
  const uint64_t cell_seed = SubSeed(seed_, 1000 + HashLattice(i, j, seed_));
  Rng rng(cell_seed);
  if (rng.Uniform() >= options_.building_probability) return false;
  const double cell = options_.building_cell_m;
  b->half_size = Eigen::Vector3d(rng.Uniform(0.1, 0.25) * cell, rng.Uniform(0.1, 0.25) * cell,
                                 0.5 * rng.Uniform(3, options_.max_building_height_m));
  // The footprint (any yaw) stays inside the cell, so a ray only visits the cells it crosses.
  const double margin = 0.5 * cell - b->half_size.head<2>().norm();
  b->center = Eigen::Vector2d((i + 0.5) * cell + rng.Uniform(-margin, margin),
                              (j + 0.5) * cell + rng.Uniform(-margin, margin));
  const double yaw = rng.Uniform(0, kPi);
  b->cos_yaw = std::cos(yaw);
  b->sin_yaw = std::sin(yaw);
  // Sunk into the slope so no gap shows under the lowest wall.
  const double ground = Height(b->center.x(), b->center.y());
  b->base_z = ground - 0.3 * options_.relief_m - 0.5;
  b->half_size.z() += 0.5 * (ground - b->base_z);
  b->seed = cell_seed;
  return true;
}

std::array<float, 3> TerrainWorld::Texture(double u, double v, double footprint_m, uint64_t seed,
                                           const std::array<float, 3>& tint) const {
  // Octaves from 40 m down to 5 cm, each faded out as it nears the sample footprint.
  double value = 0, weight = 0;
  double wavelength = 40;
  for (int octave = 0; octave < 10; ++octave, wavelength *= 0.5) {
    const double fade = std::clamp(wavelength / (2 * footprint_m) - 1, 0.0, 1.0);
    if (fade <= 0) break;
    static const std::array<double, 10> kAmplitudes = [] {
      std::array<double, 10> amplitudes{};
      for (int k = 0; k < 10; ++k) amplitudes[k] = std::pow(40.0 * std::pow(0.5, k), 0.35);
      return amplitudes;
    }();
    const double amplitude = kAmplitudes[octave];
    value += fade * amplitude * (ValueNoise(u / wavelength, v / wavelength, seed + octave) - 0.5);
    weight += amplitude;
  }
  double shade = 0.75 + 2.5 * (weight > 0 ? value / weight : 0);
  std::array<float, 3> colour = tint;
  // Random discs (stones, bushes, markings) on a 3 m lattice: sharp, distinctive corners.
  const double cell = 2.0;
  const int32_t ci = static_cast<int32_t>(std::floor(u / cell)), cj = static_cast<int32_t>(std::floor(v / cell));
  {
    const uint32_t h = HashLattice(ci, cj, seed ^ 0x5bd1e995u);
    const double radius = 0.25 + 1.0 * Unit(HashLattice(h, 1, seed));
    // The disc lies inside its cell, so no neighbouring cell needs a look.
    const double cx = (ci + 0.5) * cell + (0.5 * cell - radius) * (2 * Unit(HashLattice(h, 2, seed)) - 1);
    const double cy = (cj + 0.5) * cell + (0.5 * cell - radius) * (2 * Unit(HashLattice(h, 3, seed)) - 1);
    // Coverage over the footprint keeps the edge anti-aliased.
    const double coverage =
        radius < footprint_m ? 0.0 : std::clamp((radius - std::hypot(u - cx, v - cy)) / footprint_m + 0.5, 0.0, 1.0);
    if (coverage > 0) {
      const double bright = 0.25 + 1.5 * Unit(HashLattice(h, 4, seed));
      shade = shade * (1 - coverage) + bright * coverage;
      const int channel = static_cast<int>(HashLattice(h, 5, seed) % 3);
      colour[channel] = static_cast<float>(colour[channel] * (1 - 0.4 * coverage) + 255 * 0.4 * coverage);
    }
  }
  shade = std::clamp(shade, 0.15, 1.8);
  return {static_cast<float>(colour[0] * shade), static_cast<float>(colour[1] * shade),
          static_cast<float>(colour[2] * shade)};
}

TerrainWorld::Hit TerrainWorld::Intersect(const Eigen::Vector3d& origin, const Eigen::Vector3d& d) const {
  Hit hit;
  if (d.z() > -1e-3) return hit;
  // Terrain: sphere tracing on the heightfield. The height above the terrain changes along
  // the ray at most at rate L = |d.z| + slope bound * |d.xy|, so steps of (height / L) never
  // pass through it; they shrink geometrically near the hit.
  const double t_top = (origin.z() - max_height_) / -d.z();
  const double t_bottom = (origin.z() + max_height_) / -d.z();
  double& t_hit = hit.t;
  const double rate = -d.z() + max_slope_ * std::sqrt(std::max(0.0, 1 - d.z() * d.z()));
  double t = std::max(t_top, 0.0);
  for (int iteration = 0; iteration < 200 && t <= t_bottom; ++iteration) {
    const Eigen::Vector3d p = origin + t * d;
    const double above = p.z() - Height(p.x(), p.y());
    if (above < 1e-3) {
      t_hit = t;
      break;
    }
    t += above / rate;
  }
  // Buildings in the cells the ray crosses between the building tops and the terrain hit.
  const double top_z = max_height_ + options_.max_building_height_m + 1;
  const double t_enter = std::max(0.0, (origin.z() - top_z) / -d.z());
  const double t_exit = std::isinf(t_hit) ? t_bottom : t_hit;
  const Eigen::Vector3d entry = origin + t_enter * d, exit = origin + t_exit * d;
  const double cell = options_.building_cell_m;
  for (int i = static_cast<int>(std::floor(std::min(entry.x(), exit.x()) / cell));
       i <= static_cast<int>(std::floor(std::max(entry.x(), exit.x()) / cell)); ++i) {
    for (int j = static_cast<int>(std::floor(std::min(entry.y(), exit.y()) / cell));
         j <= static_cast<int>(std::floor(std::max(entry.y(), exit.y()) / cell)); ++j) {
      Building building;
      if (!BuildingOf(i, j, &building)) continue;
      // Slab test in the building's frame (origin at the centre of its base plane).
      const Eigen::Vector3d offset = origin - Eigen::Vector3d(building.center.x(), building.center.y(),
                                                              building.base_z + building.half_size.z());
      const Eigen::Vector3d o(building.cos_yaw * offset.x() + building.sin_yaw * offset.y(),
                              -building.sin_yaw * offset.x() + building.cos_yaw * offset.y(), offset.z());
      const Eigen::Vector3d dir(building.cos_yaw * d.x() + building.sin_yaw * d.y(),
                                -building.sin_yaw * d.x() + building.cos_yaw * d.y(), d.z());
      double t_near = 0, t_far = t_exit;
      int axis_near = -1;
      bool miss = false;
      for (int axis = 0; axis < 3 && !miss; ++axis) {
        if (std::abs(dir[axis]) < 1e-12) {
          miss = std::abs(o[axis]) > building.half_size[axis];
          continue;
        }
        double t0 = (-building.half_size[axis] - o[axis]) / dir[axis];
        double t1 = (building.half_size[axis] - o[axis]) / dir[axis];
        if (t0 > t1) std::swap(t0, t1);
        if (t0 > t_near) {
          t_near = t0;
          axis_near = axis;
        }
        t_far = std::min(t_far, t1);
        miss = t_near > t_far;
      }
      if (miss || axis_near < 0 || t_near >= t_hit) continue;
      t_hit = t_near;
      hit.face = axis_near;
      hit.building = building;
      hit.local = o + t_near * dir;
    }
  }
  return hit;
}

double TerrainWorld::HitDistance(const Eigen::Vector3d& origin, const Eigen::Vector3d& direction) const {
  return Intersect(origin, direction.normalized()).t;
}

std::array<float, 3> TerrainWorld::Trace(const Eigen::Vector3d& origin, const Eigen::Vector3d& direction,
                                         double spacing_rad) const {
  const std::array<float, 3> sky = {150.0f, 185.0f, 230.0f};
  const Eigen::Vector3d d = direction.normalized();
  const Hit hit = Intersect(origin, d);
  if (std::isinf(hit.t)) return sky;
  const double footprint_m = std::max(1e-3, hit.t * spacing_rad);
  const Eigen::Vector3d p = origin + hit.t * d;
  const int face = hit.face;
  const Eigen::Vector3d& hit_local = hit.local;
  if (face < 0) {
    const Eigen::Vector3d normal = TerrainNormal(p.x(), p.y());
    const double light = 0.45 + 0.55 * std::max(0.0, normal.dot(sun_));
    std::array<float, 3> colour = Texture(p.x(), p.y(), footprint_m, seed_, {120, 140, 90});
    for (float& c : colour) c = static_cast<float>(std::min(255.0, c * light));
    return colour;
  }
  // Roof: (x, y) of the building frame; walls: (along the wall, height).
  const Building& b = hit.building;
  const double u = face == 2 ? hit_local.x() : face == 0 ? hit_local.y() : hit_local.x();
  const double v = face == 2 ? hit_local.y() : hit_local.z();
  Eigen::Vector3d local_normal = Eigen::Vector3d::Zero();
  local_normal[face] = hit_local[face] > 0 ? 1 : -1;
  const Eigen::Vector3d normal(b.cos_yaw * local_normal.x() - b.sin_yaw * local_normal.y(),
                               b.sin_yaw * local_normal.x() + b.cos_yaw * local_normal.y(), local_normal.z());
  const double light = 0.4 + 0.6 * std::max(0.0, normal.dot(sun_));
  Rng rng(b.seed ^ 0x7);
  const std::array<float, 3> tint = {static_cast<float>(rng.Uniform(90, 200)),
                                     static_cast<float>(rng.Uniform(80, 190)),
                                     static_cast<float>(rng.Uniform(70, 180))};
  std::array<float, 3> colour = Texture(u + 1000 * face, v, footprint_m, b.seed, tint);
  for (float& c : colour) c = static_cast<float>(std::min(255.0, c * light));
  return colour;
}

Image RenderTerrainView(const TerrainWorld& world, const StrechaCamera& camera, int num_threads) {
  Image image;
  image.width = camera.width;
  image.height = camera.height;
  image.channels = 3;
  image.data.resize(static_cast<size_t>(image.width) * image.height * 3);
  const double spacing_rad = 1.0 / camera.K(0, 0);
  // A pixel's ray through its undistorted position (SIMPLE_RADIAL k1 = camera.distortion[0]).
  const double k1 = camera.distortion[0], f = camera.K(0, 0), cx = camera.K(0, 2), cy = camera.K(1, 2);
  ParallelFor(0, image.height, num_threads, [&](int row, int) {
    for (int col = 0; col < image.width; ++col) {
      double u = col + 0.5, v = row + 0.5;
      if (k1 != 0) {
        const Eigen::Vector2d n = UndistortRadial(k1, Eigen::Vector2d((u - cx) / f, (v - cy) / f));
        u = f * n.x() + cx;
        v = f * n.y() + cy;
      }
      const Ray ray = PixelRay(camera, u, v);
      const std::array<float, 3> colour = world.Trace(ray.origin, ray.direction, spacing_rad);
      uint8_t* out = &image.data[(static_cast<size_t>(row) * image.width + col) * 3];
      for (int c = 0; c < 3; ++c) out[c] = static_cast<uint8_t>(std::clamp(colour[c] + 0.5f, 0.0f, 255.0f));
    }
  });
  return image;
}

}  // namespace proj::synthetic
