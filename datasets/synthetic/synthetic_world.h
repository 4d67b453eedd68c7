// The synthetic world: a textured ground, a closed ring of textured enclosure walls and
// textured boxes/free-standing walls on the ground, all built from a seed. World frame:
// metres, z up, ground at z = 0, scene centre above the origin.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include <Eigen/Core>

#include "datasets/synthetic/procedural_texture.h"

namespace proj::synthetic {

struct SyntheticWorldOptions {
  int num_boxes = 7;                 // boxes of 0.8..2.2 m footprint, 0.5..2.5 m high
  int num_walls = 2;                 // free-standing walls, 2.5..4 m long, 1.2..2.2 m high
  double object_radius_m = 6.0;      // boxes and walls stand within this distance of the centre
  int enclosure_sides = 8;           // the enclosure is a regular polygon of walls ...
  double enclosure_apothem_m = 14;   // ... this far from the centre ...
  double enclosure_height_m = 8;     // ... and this high
  double ground_texel_m = 0.015;     // texel sizes; coarser for large worlds
  double enclosure_texel_m = 0.02;
  void Check() const;
};

struct Ray {
  Eigen::Vector3d origin = Eigen::Vector3d::Zero();
  Eigen::Vector3d direction = Eigen::Vector3d::UnitZ();  // any length
};

// A textured rectangle: origin + u * u_axis + v * v_axis for u in [0, u_extent_m],
// v in [0, v_extent_m]. `normal` points to the side that can be seen.
struct Surface {
  Eigen::Vector3d origin = Eigen::Vector3d::Zero();
  Eigen::Vector3d u_axis = Eigen::Vector3d::UnitX();
  Eigen::Vector3d v_axis = Eigen::Vector3d::UnitY();
  Eigen::Vector3d normal = Eigen::Vector3d::UnitZ();
  double u_extent_m = 1;
  double v_extent_m = 1;
  int texture = -1;  // index into textures(), -1 for never-visible faces (drawn black)
  float shade = 1;   // view-independent Lambertian factor
};

// A box standing on the ground, rotated by yaw_rad about the vertical axis; it spans
// z in [0, 2 * half_size.z()].
struct Box {
  Eigen::Vector2d center_xy = Eigen::Vector2d::Zero();
  double yaw_rad = 0;
  Eigen::Vector3d half_size = Eigen::Vector3d::Ones();
  int first_surface = 0;  // its 6 faces: +x, -x, +y, -y, +z, -z (local axes)
  double cos_yaw = 1;     // cached cos(yaw_rad), sin(yaw_rad)
  double sin_yaw = 0;

  // The 8 corners in world coordinates.
  std::array<Eigen::Vector3d, 8> Corners() const;
};

// A box of a given layout and the texel size of its textures (metres; finer for objects seen
// close up).
struct PlacedBox {
  Box box;
  double texel_size_m = 0.01;
};

struct SurfaceHit {
  double t = 0;  // ray parameter: point = origin + t * direction
  int surface = -1;
  Eigen::Vector3d point = Eigen::Vector3d::Zero();
};

class SyntheticWorld {
 public:
  // Nearest hit of a ray starting inside the enclosure. With box_subset_size >= 0 only the
  // boxes box_subset[0 .. box_subset_size) are tested (renderers cull boxes off screen);
  // with the default -1 all boxes are. Returns false if the ray leaves over the enclosure
  // (sky).
  bool Intersect(const Ray& ray, SurfaceHit* hit, const int* box_subset = nullptr,
                 int box_subset_size = -1) const;
  // Surface colour in [0, 255] at a hit, filtered for a footprint of `footprint_m` metres.
  std::array<float, 3> Shade(const SurfaceHit& hit, double footprint_m) const;
  std::array<float, 3> SkyColor() const { return {150.0f, 185.0f, 230.0f}; }

  const std::vector<Surface>& surfaces() const { return surfaces_; }
  const std::vector<Box>& boxes() const { return boxes_; }
  const std::vector<MipTexture>& textures() const { return textures_; }
  const SyntheticWorldOptions& options() const { return options_; }
  // Point the cameras look at (the same for every world).
  static Eigen::Vector3d Center() { return Eigen::Vector3d(0, 0, 0.8); }
  // True if the point lies strictly inside a box (cameras must not).
  bool InsideAnyBox(const Eigen::Vector3d& point) const;
  // Distance from `point` to the nearest rectangle of surfaces() (its index in `surface` when
  // not null), from the rectangles themselves, not through the ray caster: ground truth for
  // points a reconstruction puts on the surfaces.
  double DistanceToSurfaces(const Eigen::Vector3d& point, int* surface = nullptr) const;

 private:
  friend SyntheticWorld BuildSyntheticWorld(const SyntheticWorldOptions&,
                                            const std::vector<PlacedBox>&, uint64_t, int);
  SyntheticWorldOptions options_;
  std::vector<Surface> surfaces_;  // 0: ground, 1..sides: enclosure, then 6 per box
  std::vector<Box> boxes_;
  std::vector<MipTexture> textures_;
  std::vector<Eigen::Vector2d> wall_normals_;  // outward, one per enclosure side
};

// Builds the world (layout and textures) from a seed; `num_threads` <= 0 uses all threads.
SyntheticWorld BuildSyntheticWorld(const SyntheticWorldOptions& options, uint64_t seed,
                                   int num_threads);

// The same from a given layout (a street, ...): options.num_boxes, num_walls and
// object_radius_m are unused; the boxes must lie inside the enclosure. Textures from the seed.
SyntheticWorld BuildSyntheticWorld(const SyntheticWorldOptions& options,
                                   const std::vector<PlacedBox>& boxes, uint64_t seed,
                                   int num_threads);

}  // namespace proj::synthetic
