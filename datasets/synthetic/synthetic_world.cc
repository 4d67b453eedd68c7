#include "datasets/synthetic/synthetic_world.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <Eigen/Geometry>

#include "core/check.h"
#include "datasets/synthetic/random.h"

namespace proj::synthetic {
namespace {

constexpr double kPi = 3.14159265358979323846;

// Texture resolution of random boxes (SyntheticWorldOptions has the ground's and the
// enclosure's defaults): the ground is seen from 4..25 m, box faces from
// 4..16 m, the enclosure from 4..25 m (focal ~1100 px: 1 px ~ 0.4..2 cm).
constexpr double kBoxTexel = 0.01;

float LambertShade(const Eigen::Vector3d& normal) {
  const Eigen::Vector3d sun = Eigen::Vector3d(0.5, 0.3, 0.8).normalized();
  return static_cast<float>(0.5 + 0.5 * std::max(0.0, normal.dot(sun)));
}

Eigen::Matrix3d Yaw(double yaw) {
  return Eigen::AngleAxisd(yaw, Eigen::Vector3d::UnitZ()).toRotationMatrix();
}

// Six faces of a box as surfaces (outward normals), in the order +x, -x, +y, -y, +z, -z.
void AddBoxSurfaces(const Box& box, std::vector<Surface>* surfaces) {
  const Eigen::Matrix3d rotation = Yaw(box.yaw_rad);
  const Eigen::Vector3d center(box.center_xy.x(), box.center_xy.y(), box.half_size.z());
  const Eigen::Vector3d& h = box.half_size;
  for (int axis = 0; axis < 3; ++axis) {
    // The face's two in-plane axes: for x and y faces (u = the other horizontal axis,
    // v = z); for z faces (u = x, v = y).
    const int u = axis == 2 ? 0 : 1 - axis;
    const int v = axis == 2 ? 1 : 2;
    for (int sign : {1, -1}) {
      Eigen::Vector3d corner_local = Eigen::Vector3d::Zero();
      corner_local[axis] = sign * h[axis];
      corner_local[u] = -h[u];
      corner_local[v] = -h[v];
      Surface surface;
      surface.origin = center + rotation * corner_local;
      surface.u_axis = rotation.col(u);
      surface.v_axis = rotation.col(v);
      surface.normal = sign * rotation.col(axis);
      surface.u_extent_m = 2 * h[u];
      surface.v_extent_m = 2 * h[v];
      surface.shade = LambertShade(surface.normal);
      surfaces->push_back(surface);
    }
  }
}

}  // namespace

void SyntheticWorldOptions::Check() const {
  PROJ_REQUIRE(num_boxes >= 0 && num_boxes <= 50, "SyntheticWorldOptions.num_boxes must be in [0, 50]");
  PROJ_REQUIRE(num_walls >= 0 && num_walls <= 20, "SyntheticWorldOptions.num_walls must be in [0, 20]");
  PROJ_REQUIRE(object_radius_m >= 3, "SyntheticWorldOptions.object_radius_m must be >= 3");
  PROJ_REQUIRE(enclosure_sides >= 3 && enclosure_sides <= 64,
               "SyntheticWorldOptions.enclosure_sides must be in [3, 64]");
  PROJ_REQUIRE(enclosure_apothem_m > object_radius_m + 1,
               "SyntheticWorldOptions.enclosure_apothem_m must exceed object_radius_m + 1");
  PROJ_REQUIRE(enclosure_apothem_m <= 100, "SyntheticWorldOptions.enclosure_apothem_m must be <= 100");
  PROJ_REQUIRE(enclosure_height_m > 0 && enclosure_height_m <= 100,
               "SyntheticWorldOptions.enclosure_height_m must be in (0, 100]");
  PROJ_REQUIRE(ground_texel_m >= 0.002 && enclosure_texel_m >= 0.002,
               "SyntheticWorldOptions.ground_texel_m and enclosure_texel_m must be >= 0.002");
}

std::array<Eigen::Vector3d, 8> Box::Corners() const {
  const Eigen::Matrix3d rotation = Yaw(yaw_rad);
  const Eigen::Vector3d center(center_xy.x(), center_xy.y(), half_size.z());
  std::array<Eigen::Vector3d, 8> corners;
  for (int i = 0; i < 8; ++i) {
    const Eigen::Vector3d local((i & 1) ? half_size.x() : -half_size.x(),
                                (i & 2) ? half_size.y() : -half_size.y(),
                                (i & 4) ? half_size.z() : -half_size.z());
    corners[i] = center + rotation * local;
  }
  return corners;
}

bool SyntheticWorld::InsideAnyBox(const Eigen::Vector3d& point) const {
  for (const Box& box : boxes_) {
    const Eigen::Vector3d center(box.center_xy.x(), box.center_xy.y(), box.half_size.z());
    const Eigen::Vector3d local = Yaw(box.yaw_rad).transpose() * (point - center);
    if ((local.cwiseAbs().array() < box.half_size.array()).all()) return true;
  }
  return false;
}

double SyntheticWorld::DistanceToSurfaces(const Eigen::Vector3d& point, int* surface) const {
  double best = std::numeric_limits<double>::infinity();
  for (size_t i = 0; i < surfaces_.size(); ++i) {
    const Surface& rectangle = surfaces_[i];
    const Eigen::Vector3d offset = point - rectangle.origin;
    const double a = std::clamp(offset.dot(rectangle.u_axis), 0.0, rectangle.u_extent_m);
    const double b = std::clamp(offset.dot(rectangle.v_axis), 0.0, rectangle.v_extent_m);
    const double distance = (offset - a * rectangle.u_axis - b * rectangle.v_axis).norm();
    if (distance < best) {
      best = distance;
      if (surface) *surface = static_cast<int>(i);
    }
  }
  return best;
}

bool SyntheticWorld::Intersect(const Ray& ray, SurfaceHit* hit, const int* box_subset,
                               int box_subset_size) const {
  const Eigen::Vector3d& o = ray.origin;
  const Eigen::Vector3d& d = ray.direction;
  double best_t = std::numeric_limits<double>::infinity();
  int best = -1;
  // Leaving the convex enclosure: the first wall plane crossed.
  for (size_t k = 0; k < wall_normals_.size(); ++k) {
    const double denominator = wall_normals_[k].x() * d.x() + wall_normals_[k].y() * d.y();
    if (denominator <= 1e-12) continue;
    const double t = (options_.enclosure_apothem_m - wall_normals_[k].x() * o.x() -
                      wall_normals_[k].y() * o.y()) / denominator;
    if (t < best_t) {
      best_t = t;
      best = 1 + static_cast<int>(k);
    }
  }
  if (best >= 0 && o.z() + best_t * d.z() > options_.enclosure_height_m) {
    best = -1;  // over the walls
    best_t = std::numeric_limits<double>::infinity();
  }
  if (d.z() < 0) {
    const double t = -o.z() / d.z();
    if (t < best_t) {
      best_t = t;
      best = 0;
    }
  }
  const bool subset = box_subset_size >= 0;
  const int count = subset ? box_subset_size : static_cast<int>(boxes_.size());
  for (int i = 0; i < count; ++i) {
    const Box& box = boxes_[subset ? box_subset[i] : i];
    // Slab test in the box frame (a yaw rotation, so z is unchanged).
    const double c = box.cos_yaw, s = box.sin_yaw;
    const double px = o.x() - box.center_xy.x(), py = o.y() - box.center_xy.y();
    const double p[3] = {c * px + s * py, -s * px + c * py, o.z() - box.half_size.z()};
    const double q[3] = {c * d.x() + s * d.y(), -s * d.x() + c * d.y(), d.z()};
    double t_near = -std::numeric_limits<double>::infinity();
    double t_far = std::numeric_limits<double>::infinity();
    int face = -1;
    bool miss = false;
    for (int axis = 0; axis < 3 && !miss; ++axis) {
      const double h = box.half_size[axis];
      if (std::abs(q[axis]) < 1e-15) {
        miss = std::abs(p[axis]) > h;
        continue;
      }
      const double t1 = (-h - p[axis]) / q[axis];
      const double t2 = (h - p[axis]) / q[axis];
      // Entering through the -h face when moving towards +, else through the +h face.
      const double entry = std::min(t1, t2);
      if (entry > t_near) {
        t_near = entry;
        face = 2 * axis + (q[axis] > 0 ? 1 : 0);
      }
      t_far = std::min(t_far, std::max(t1, t2));
    }
    if (miss || face < 0 || t_near > t_far || t_near <= 1e-9 || t_near >= best_t) continue;
    best_t = t_near;
    best = box.first_surface + face;
  }
  if (best < 0) return false;
  hit->t = best_t;
  hit->surface = best;
  hit->point = o + best_t * d;
  return true;
}

std::array<float, 3> SyntheticWorld::Shade(const SurfaceHit& hit, double footprint_m) const {
  const Surface& surface = surfaces_[hit.surface];
  if (surface.texture < 0) return {0.0f, 0.0f, 0.0f};
  const Eigen::Vector3d offset = hit.point - surface.origin;
  std::array<float, 3> color =
      textures_[surface.texture].Sample(offset.dot(surface.u_axis), offset.dot(surface.v_axis), footprint_m);
  for (float& c : color) c *= surface.shade;
  return color;
}

namespace {

// Boxes and free-standing walls placed at random without overlap (bounding circles 0.3 m
// apart), the long walls first, while there is room.
std::vector<PlacedBox> RandomLayout(const SyntheticWorldOptions& options, Rng* rng) {
  std::vector<PlacedBox> placed;
  std::vector<double> radii;
  for (int i = 0; i < options.num_walls + options.num_boxes; ++i) {
    const bool is_wall = i < options.num_walls;
    Box box;
    if (is_wall) {
      box.half_size = Eigen::Vector3d(0.5 * rng->Uniform(2.5, 4.0), 0.125, 0.5 * rng->Uniform(1.2, 2.2));
    } else {
      box.half_size = Eigen::Vector3d(0.5 * rng->Uniform(0.8, 2.2), 0.5 * rng->Uniform(0.8, 2.2),
                                      0.5 * rng->Uniform(0.5, 2.5));
    }
    box.yaw_rad = rng->Uniform(0, kPi);
    const double radius = box.half_size.head<2>().norm();
    bool fits = false;
    for (int attempt = 0; attempt < 200 && !fits; ++attempt) {
      const double r = (options.object_radius_m - radius) * std::sqrt(rng->Uniform());
      const double angle = rng->Uniform(0, 2 * kPi);
      box.center_xy = Eigen::Vector2d(r * std::cos(angle), r * std::sin(angle));
      fits = true;
      for (size_t j = 0; j < placed.size() && fits; ++j) {
        fits = (placed[j].box.center_xy - box.center_xy).norm() > radius + radii[j] + 0.3;
      }
    }
    if (!fits) continue;  // crowded: fewer objects, still deterministic
    placed.push_back({box, kBoxTexel});
    radii.push_back(radius);
  }
  return placed;
}

}  // namespace

SyntheticWorld BuildSyntheticWorld(const SyntheticWorldOptions& options, uint64_t seed,
                                   int num_threads) {
  options.Check();
  Rng rng(SubSeed(seed, 1));
  return BuildSyntheticWorld(options, RandomLayout(options, &rng), seed, num_threads);
}

SyntheticWorld BuildSyntheticWorld(const SyntheticWorldOptions& options,
                                   const std::vector<PlacedBox>& boxes, uint64_t seed,
                                   int num_threads) {
  options.Check();
  SyntheticWorld world;
  world.options_ = options;

  // Ground: a square covering the enclosure polygon.
  const int sides = options.enclosure_sides;
  const double circumradius = options.enclosure_apothem_m / std::cos(kPi / sides);
  Surface ground;
  ground.origin = Eigen::Vector3d(-circumradius, -circumradius, 0);
  ground.u_extent_m = ground.v_extent_m = 2 * circumradius;
  ground.shade = LambertShade(ground.normal);
  world.surfaces_.push_back(ground);

  // Enclosure walls, facing inwards.
  for (int k = 0; k < sides; ++k) {
    const double angle = 2 * kPi * k / sides;
    world.wall_normals_.emplace_back(std::cos(angle), std::sin(angle));
    const double a0 = angle - kPi / sides, a1 = angle + kPi / sides;
    const Eigen::Vector3d corner0(circumradius * std::cos(a0), circumradius * std::sin(a0), 0);
    const Eigen::Vector3d corner1(circumradius * std::cos(a1), circumradius * std::sin(a1), 0);
    Surface wall;
    wall.origin = corner0;
    wall.u_axis = (corner1 - corner0).normalized();
    wall.v_axis = Eigen::Vector3d::UnitZ();
    wall.normal = -Eigen::Vector3d(std::cos(angle), std::sin(angle), 0);
    wall.u_extent_m = (corner1 - corner0).norm();
    wall.v_extent_m = options.enclosure_height_m;
    wall.shade = LambertShade(wall.normal);
    world.surfaces_.push_back(wall);
  }

  std::vector<double> texel_of_surface(world.surfaces_.size(), 0.0);
  texel_of_surface[0] = options.ground_texel_m;
  for (int k = 1; k <= sides; ++k) texel_of_surface[k] = options.enclosure_texel_m;
  for (const PlacedBox& placed : boxes) {
    Box box = placed.box;
    box.cos_yaw = std::cos(box.yaw_rad);
    box.sin_yaw = std::sin(box.yaw_rad);
    box.first_surface = static_cast<int>(world.surfaces_.size());
    AddBoxSurfaces(box, &world.surfaces_);
    world.boxes_.push_back(box);
    texel_of_surface.resize(world.surfaces_.size(), placed.texel_size_m);
  }

  // One texture per visible surface (box bottoms are never seen).
  for (size_t i = 0; i < world.surfaces_.size(); ++i) {
    Surface& surface = world.surfaces_[i];
    const bool box_bottom = i > static_cast<size_t>(sides) && surface.normal.z() < -0.5;
    if (box_bottom) continue;
    TextureStyle style;
    style.texel_size_m = texel_of_surface[i];
    if (i == 0) {
      style.largest_wavelength_m = 3.0;
    } else if (i <= static_cast<size_t>(sides)) {
      style.largest_wavelength_m = 3.0;
      style.blobs_per_m2 = 2.0;
      style.lines_per_m2 = 1.0;
      style.rectangles_per_m2 = 0.7;
    } else {
      style.largest_wavelength_m = 1.0;
      style.blobs_per_m2 = 5.0;
      style.lines_per_m2 = 2.0;
      style.rectangles_per_m2 = 1.5;
    }
    surface.texture = static_cast<int>(world.textures_.size());
    world.textures_.push_back(PaintProceduralTexture(surface.u_extent_m, surface.v_extent_m, style,
                                                     SubSeed(seed, 1000 + i), num_threads));
  }
  return world;
}

}  // namespace proj::synthetic
