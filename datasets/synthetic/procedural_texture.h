// Procedural, non-repetitive, high-contrast surface textures for the synthetic scene, and
// their mip-mapped bilinear sampling. A texture covers a rectangle of width_m x height_m
// metres on a surface; texel (i, j) covers [i, i+1) x [j, j+1) * texel_size_m.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace proj::synthetic {

struct TextureStyle {
  double texel_size_m = 0.01;
  double largest_wavelength_m = 2.0;  // coarsest noise octave
  double blobs_per_m2 = 3.0;          // random coloured discs/ellipses
  double lines_per_m2 = 1.5;          // random line segments
  double rectangles_per_m2 = 1.0;     // random rotated rectangles (sharp corners)
};

class MipTexture {
 public:
  struct Level {
    int width = 0;
    int height = 0;
    std::vector<uint8_t> rgb;  // width * height * 3
  };

  MipTexture() = default;
  // Takes level 0 and builds the pyramid (2x2 box filter down to 1x1).
  MipTexture(Level base, double texel_size_m);

  // Colour at surface coordinates (u, v) in metres, filtered for a sample footprint of
  // `footprint_m` metres: trilinear (bilinear within the two nearest levels). Coordinates
  // outside the texture are clamped to the edge.
  std::array<float, 3> Sample(double u_m, double v_m, double footprint_m) const;
  // Bilinear sample of one level.
  std::array<float, 3> SampleLevel(int level, double u_m, double v_m) const;

  int num_levels() const { return static_cast<int>(levels_.size()); }
  const Level& level(int index) const { return levels_[index]; }
  double texel_size_m() const { return texel_size_m_; }

 private:
  std::vector<Level> levels_;
  double texel_size_m_ = 0.01;
};

// Paints a texture of width_m x height_m metres: multi-octave value noise (contrast-
// stretched, tinted by a random palette) overlaid with random blobs, lines and rectangles.
// Deterministic in `seed`; rows are filled in parallel on `num_threads` threads (<= 0: all).
MipTexture PaintProceduralTexture(double width_m, double height_m, const TextureStyle& style,
                                  uint64_t seed, int num_threads);

}  // namespace proj::synthetic
