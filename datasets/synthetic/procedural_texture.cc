#include "datasets/synthetic/procedural_texture.h"

#include <algorithm>
#include <climits>
#include <cmath>

#include "core/check.h"
#include "core/parallel_for.h"
#include "datasets/synthetic/random.h"

namespace proj::synthetic {
namespace {

constexpr double kPi = 3.14159265358979323846;

// Smooth value noise in [-1, 1]: random lattice values, cubic Hermite interpolation. The
// four lattice values of the last cell are cached, since neighbouring texels mostly share it.
struct NoiseCell {
  int32_t ix = INT32_MIN, iy = INT32_MIN;
  float v00 = 0, v10 = 0, v01 = 0, v11 = 0;
};

float ValueNoise(double x, double y, uint64_t seed, NoiseCell* cell) {
  const double fx = std::floor(x), fy = std::floor(y);
  const int32_t ix = static_cast<int32_t>(fx), iy = static_cast<int32_t>(fy);
  if (ix != cell->ix || iy != cell->iy) {
    constexpr float kScale = 2.0f / 4294967295.0f;
    cell->ix = ix;
    cell->iy = iy;
    cell->v00 = HashLattice(ix, iy, seed) * kScale - 1.0f;
    cell->v10 = HashLattice(ix + 1, iy, seed) * kScale - 1.0f;
    cell->v01 = HashLattice(ix, iy + 1, seed) * kScale - 1.0f;
    cell->v11 = HashLattice(ix + 1, iy + 1, seed) * kScale - 1.0f;
  }
  const float tx = static_cast<float>(x - fx), ty = static_cast<float>(y - fy);
  const float sx = tx * tx * (3 - 2 * tx), sy = ty * ty * (3 - 2 * ty);
  const float a = cell->v00 + sx * (cell->v10 - cell->v00);
  const float b = cell->v01 + sx * (cell->v11 - cell->v01);
  return a + sy * (b - a);
}

// Smooth odd sigmoid in [-1, 1] (Pade approximant of tanh, clamped); cheaper than std::tanh.
float SoftClip(float x) {
  if (x >= 3.0f) return 1.0f;
  if (x <= -3.0f) return -1.0f;
  const float x2 = x * x;
  return x * (27.0f + x2) / (27.0f + 9.0f * x2);
}

// One noise octave: lattice spacing `wavelength_m`, rotated and shifted so that octaves
// do not share lattice lines.
struct Octave {
  double inverse_wavelength = 1;
  double cos_angle = 1, sin_angle = 0;
  double offset_x = 0, offset_y = 0;
  float amplitude = 1;
  uint64_t seed = 0;

  float Evaluate(double x_m, double y_m, NoiseCell* cell) const {
    const double x = (cos_angle * x_m - sin_angle * y_m) * inverse_wavelength + offset_x;
    const double y = (sin_angle * x_m + cos_angle * y_m) * inverse_wavelength + offset_y;
    return ValueNoise(x, y, seed, cell);
  }
};

Octave MakeOctave(double wavelength_m, float amplitude, Rng* rng) {
  Octave octave;
  octave.inverse_wavelength = 1.0 / wavelength_m;
  const double angle = rng->Uniform(0, 2 * kPi);
  octave.cos_angle = std::cos(angle);
  octave.sin_angle = std::sin(angle);
  octave.offset_x = rng->Uniform(0, 1000);
  octave.offset_y = rng->Uniform(0, 1000);
  octave.amplitude = amplitude;
  octave.seed = rng->Next();
  return octave;
}

using Color = std::array<float, 3>;

// A random colour: mostly saturated mid/bright tones, some near-black and near-white.
Color RandomColor(Rng* rng) {
  const double kind = rng->Uniform();
  if (kind < 0.15) return {static_cast<float>(rng->Uniform(0, 40)), static_cast<float>(rng->Uniform(0, 40)),
                           static_cast<float>(rng->Uniform(0, 40))};
  if (kind < 0.3) return {static_cast<float>(rng->Uniform(215, 255)), static_cast<float>(rng->Uniform(215, 255)),
                          static_cast<float>(rng->Uniform(215, 255))};
  // Hue on the colour wheel, high saturation.
  const double hue = rng->Uniform(0, 6);
  const double value = rng->Uniform(120, 255);
  const double low = value * rng->Uniform(0.0, 0.45);
  const double f = hue - std::floor(hue);
  const double rising = low + (value - low) * f, falling = value - (value - low) * f;
  const int sector = static_cast<int>(hue) % 6;
  const double table[6][3] = {{value, rising, low},  {falling, value, low}, {low, value, rising},
                              {low, falling, value}, {rising, low, value},  {value, low, falling}};
  return {static_cast<float>(table[sector][0]), static_cast<float>(table[sector][1]),
          static_cast<float>(table[sector][2])};
}

// Working canvas in float before quantisation.
struct Canvas {
  int width = 0, height = 0;
  double texel = 0.01;
  std::vector<float> rgb;

  void Blend(int x, int y, const Color& color, float alpha) {
    float* p = &rgb[(static_cast<size_t>(y) * width + x) * 3];
    for (int c = 0; c < 3; ++c) p[c] += alpha * (color[c] - p[c]);
  }

  // Calls coverage(x_m, y_m) -> [0, 1] for the texels of a bounding box (metres) and blends.
  template <typename Coverage>
  void Paint(double min_x, double min_y, double max_x, double max_y, const Color& color, float opacity,
             Coverage coverage) {
    const int x0 = std::max(0, static_cast<int>(std::floor(min_x / texel)));
    const int y0 = std::max(0, static_cast<int>(std::floor(min_y / texel)));
    const int x1 = std::min(width - 1, static_cast<int>(std::ceil(max_x / texel)));
    const int y1 = std::min(height - 1, static_cast<int>(std::ceil(max_y / texel)));
    for (int y = y0; y <= y1; ++y) {
      for (int x = x0; x <= x1; ++x) {
        const float cover = static_cast<float>(coverage((x + 0.5) * texel, (y + 0.5) * texel));
        if (cover > 0) Blend(x, y, color, opacity * std::min(cover, 1.0f));
      }
    }
  }
};

// Anti-aliased edge: 1 inside, 0 outside, linear over one texel around signed distance 0
// (positive inside).
double Edge(double signed_distance_m, double texel) {
  return std::clamp(signed_distance_m / texel + 0.5, 0.0, 1.0);
}

void PaintBlob(Canvas* canvas, Rng* rng) {
  const double cx = rng->Uniform(0, canvas->width * canvas->texel);
  const double cy = rng->Uniform(0, canvas->height * canvas->texel);
  const double rx = rng->LogUniform(0.02, 0.25);
  const double ry = rx * rng->Uniform(0.4, 1.0);
  const double angle = rng->Uniform(0, kPi);
  const double c = std::cos(angle), s = std::sin(angle);
  const Color color = RandomColor(rng);
  const float opacity = static_cast<float>(rng->Uniform(0.8, 1.0));
  const double texel = canvas->texel;
  canvas->Paint(cx - rx, cy - rx, cx + rx, cy + rx, color, opacity, [&](double x, double y) {
    const double dx = x - cx, dy = y - cy;
    const double u = (c * dx + s * dy) / rx, v = (-s * dx + c * dy) / ry;
    const double r = std::sqrt(u * u + v * v);
    return Edge((1.0 - r) * ry, texel);  // distance scaled by the short radius (conservative)
  });
}

void PaintSpeckle(Canvas* canvas, Rng* rng) {
  const double texel = canvas->texel;
  const double cx = rng->Uniform(0, canvas->width * texel);
  const double cy = rng->Uniform(0, canvas->height * texel);
  const double radius = rng->LogUniform(1.2, 5.0) * texel;
  const Color color = RandomColor(rng);
  canvas->Paint(cx - radius, cy - radius, cx + radius, cy + radius, color, 1.0f, [&](double x, double y) {
    return Edge(radius - std::hypot(x - cx, y - cy), texel);
  });
}

void PaintLine(Canvas* canvas, Rng* rng) {
  const double ax = rng->Uniform(0, canvas->width * canvas->texel);
  const double ay = rng->Uniform(0, canvas->height * canvas->texel);
  const double length = rng->LogUniform(0.1, 0.8);
  const double angle = rng->Uniform(0, 2 * kPi);
  const double bx = ax + length * std::cos(angle), by = ay + length * std::sin(angle);
  const double half_width = 0.5 * rng->Uniform(0.01, 0.04);
  const Color color = RandomColor(rng);
  const double texel = canvas->texel;
  const double dx = bx - ax, dy = by - ay, length2 = dx * dx + dy * dy;
  canvas->Paint(std::min(ax, bx) - half_width, std::min(ay, by) - half_width,
                std::max(ax, bx) + half_width, std::max(ay, by) + half_width, color, 1.0f,
                [&](double x, double y) {
                  const double t = std::clamp(((x - ax) * dx + (y - ay) * dy) / length2, 0.0, 1.0);
                  const double ex = x - (ax + t * dx), ey = y - (ay + t * dy);
                  return Edge(half_width - std::sqrt(ex * ex + ey * ey), texel);
                });
}

void PaintRectangle(Canvas* canvas, Rng* rng) {
  const double cx = rng->Uniform(0, canvas->width * canvas->texel);
  const double cy = rng->Uniform(0, canvas->height * canvas->texel);
  const double hx = 0.5 * rng->LogUniform(0.05, 0.4), hy = hx * rng->Uniform(0.3, 1.0);
  const double angle = rng->Uniform(0, kPi);
  const double c = std::cos(angle), s = std::sin(angle);
  const Color color = RandomColor(rng);
  const double texel = canvas->texel;
  const double radius = std::hypot(hx, hy);
  canvas->Paint(cx - radius, cy - radius, cx + radius, cy + radius, color, 1.0f,
                [&](double x, double y) {
                  const double dx = x - cx, dy = y - cy;
                  const double u = c * dx + s * dy, v = -s * dx + c * dy;
                  return std::min(Edge(hx - std::abs(u), texel), Edge(hy - std::abs(v), texel));
                });
}

int PoissonLikeCount(double expected, Rng* rng) {
  // Floor plus a Bernoulli remainder: mean `expected`, deterministic in the stream.
  const double whole = std::floor(expected);
  return static_cast<int>(whole) + (rng->Uniform() < expected - whole ? 1 : 0);
}

MipTexture::Level Downsample(const MipTexture::Level& fine) {
  MipTexture::Level coarse;
  coarse.width = std::max(1, (fine.width + 1) / 2);
  coarse.height = std::max(1, (fine.height + 1) / 2);
  coarse.rgb.resize(static_cast<size_t>(coarse.width) * coarse.height * 3);
  for (int y = 0; y < coarse.height; ++y) {
    const int y0 = std::min(2 * y, fine.height - 1), y1 = std::min(2 * y + 1, fine.height - 1);
    for (int x = 0; x < coarse.width; ++x) {
      const int x0 = std::min(2 * x, fine.width - 1), x1 = std::min(2 * x + 1, fine.width - 1);
      for (int c = 0; c < 3; ++c) {
        const auto at = [&](int xx, int yy) {
          return static_cast<int>(fine.rgb[(static_cast<size_t>(yy) * fine.width + xx) * 3 + c]);
        };
        coarse.rgb[(static_cast<size_t>(y) * coarse.width + x) * 3 + c] =
            static_cast<uint8_t>((at(x0, y0) + at(x1, y0) + at(x0, y1) + at(x1, y1) + 2) / 4);
      }
    }
  }
  return coarse;
}

}  // namespace

MipTexture::MipTexture(Level base, double texel_size_m) : texel_size_m_(texel_size_m) {
  PROJ_CHECK(base.width > 0 && base.height > 0 &&
                 base.rgb.size() == static_cast<size_t>(base.width) * base.height * 3,
             "bad texture level");
  levels_.push_back(std::move(base));
  while (levels_.back().width > 1 || levels_.back().height > 1) {
    levels_.push_back(Downsample(levels_.back()));
  }
}

std::array<float, 3> MipTexture::SampleLevel(int index, double u_m, double v_m) const {
  const Level& level = levels_[index];
  const Level& base = levels_[0];
  // Texel centres of this level sit at (i + 0.5) * texel size of this level.
  const double x = u_m / (texel_size_m_ * base.width / level.width) - 0.5;
  const double y = v_m / (texel_size_m_ * base.height / level.height) - 0.5;
  const double fx = std::floor(x), fy = std::floor(y);
  const float tx = static_cast<float>(x - fx), ty = static_cast<float>(y - fy);
  const int x0 = std::clamp(static_cast<int>(fx), 0, level.width - 1);
  const int x1 = std::clamp(static_cast<int>(fx) + 1, 0, level.width - 1);
  const int y0 = std::clamp(static_cast<int>(fy), 0, level.height - 1);
  const int y1 = std::clamp(static_cast<int>(fy) + 1, 0, level.height - 1);
  const uint8_t* p00 = &level.rgb[(static_cast<size_t>(y0) * level.width + x0) * 3];
  const uint8_t* p10 = &level.rgb[(static_cast<size_t>(y0) * level.width + x1) * 3];
  const uint8_t* p01 = &level.rgb[(static_cast<size_t>(y1) * level.width + x0) * 3];
  const uint8_t* p11 = &level.rgb[(static_cast<size_t>(y1) * level.width + x1) * 3];
  std::array<float, 3> out;
  for (int c = 0; c < 3; ++c) {
    const float a = p00[c] + tx * (p10[c] - p00[c]);
    const float b = p01[c] + tx * (p11[c] - p01[c]);
    out[c] = a + ty * (b - a);
  }
  return out;
}

std::array<float, 3> MipTexture::Sample(double u_m, double v_m, double footprint_m) const {
  const double level = footprint_m > texel_size_m_ ? std::log2(footprint_m / texel_size_m_) : 0.0;
  const int top = num_levels() - 1;
  if (level <= 0) return SampleLevel(0, u_m, v_m);
  if (level >= top) return SampleLevel(top, u_m, v_m);
  const int fine = static_cast<int>(level);
  const float t = static_cast<float>(level - fine);
  const auto a = SampleLevel(fine, u_m, v_m);
  const auto b = SampleLevel(fine + 1, u_m, v_m);
  return {a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]), a[2] + t * (b[2] - a[2])};
}

MipTexture PaintProceduralTexture(double width_m, double height_m, const TextureStyle& style,
                                  uint64_t seed, int num_threads) {
  PROJ_CHECK(width_m > 0 && height_m > 0 && style.texel_size_m > 0, "bad texture size");
  Canvas canvas;
  canvas.texel = style.texel_size_m;
  canvas.width = std::max(1, static_cast<int>(std::ceil(width_m / style.texel_size_m)));
  canvas.height = std::max(1, static_cast<int>(std::ceil(height_m / style.texel_size_m)));
  canvas.rgb.resize(static_cast<size_t>(canvas.width) * canvas.height * 3);

  Rng rng(seed);
  // Luminance: octaves from the largest wavelength down to 2.5 texels with slowly falling
  // amplitudes (x0.85 per octave), so fine detail is as strong as the coarse structure.
  std::vector<Octave> octaves;
  float amplitude = 1, total = 0;
  for (double wavelength = style.largest_wavelength_m; wavelength >= 2.5 * style.texel_size_m;
       wavelength *= 0.5, amplitude *= 0.85f) {
    octaves.push_back(MakeOctave(wavelength, amplitude, &rng));
    total += amplitude;
  }
  for (auto& octave : octaves) octave.amplitude /= total;
  // Two slow fields blend three palette tints. Tints change the hue, never the luminance,
  // so no region of the texture is flat black or white.
  const Octave hue_a = MakeOctave(1.5 * style.largest_wavelength_m, 1, &rng);
  const Octave hue_b = MakeOctave(0.7 * style.largest_wavelength_m, 1, &rng);
  Color tints[3];
  for (Color& tint : tints) {
    const Color color = RandomColor(&rng);
    const float mean = std::max(1.0f, (color[0] + color[1] + color[2]) / 3);
    for (int c = 0; c < 3; ++c) tint[c] = 0.45f + 0.55f * color[c] / mean;
  }
  const float contrast = static_cast<float>(rng.Uniform(4.0, 5.5));

  ParallelFor(0, canvas.height, num_threads, [&](int y, int /*worker*/) {
    const double y_m = (y + 0.5) * canvas.texel;
    float* row = &canvas.rgb[static_cast<size_t>(y) * canvas.width * 3];
    std::vector<NoiseCell> cells(octaves.size() + 2);
    for (int x = 0; x < canvas.width; ++x) {
      const double x_m = (x + 0.5) * canvas.texel;
      float noise = 0;
      for (size_t o = 0; o < octaves.size(); ++o) {
        noise += octaves[o].amplitude * octaves[o].Evaluate(x_m, y_m, &cells[o]);
      }
      const float luminance = 0.5f + 0.47f * SoftClip(contrast * noise);
      const float mix_a =
          std::clamp(0.5f + 0.9f * hue_a.Evaluate(x_m, y_m, &cells[octaves.size()]), 0.0f, 1.0f);
      const float mix_b = std::clamp(1.2f * hue_b.Evaluate(x_m, y_m, &cells[octaves.size() + 1]), 0.0f, 1.0f);
      for (int c = 0; c < 3; ++c) {
        const float base = tints[0][c] + mix_a * (tints[1][c] - tints[0][c]);
        const float tint = base + mix_b * (tints[2][c] - base);
        row[3 * x + c] = std::clamp(255.0f * luminance * tint, 0.0f, 255.0f);
      }
    }
  });

  const double area = canvas.width * canvas.texel * canvas.height * canvas.texel;
  const int blobs = PoissonLikeCount(style.blobs_per_m2 * area, &rng);
  const int lines = PoissonLikeCount(style.lines_per_m2 * area, &rng);
  const int rectangles = PoissonLikeCount(style.rectangles_per_m2 * area, &rng);
  // Speckles: small discs of 1.2..5 texels radius covering ~8% of the surface, for dense
  // fine-scale features.
  const double speckle_area = kPi * std::pow(2.6 * canvas.texel, 2);
  const int speckles = PoissonLikeCount(0.08 * area / speckle_area, &rng);
  for (int i = 0; i < speckles; ++i) PaintSpeckle(&canvas, &rng);
  for (int i = 0; i < blobs; ++i) PaintBlob(&canvas, &rng);
  for (int i = 0; i < rectangles; ++i) PaintRectangle(&canvas, &rng);
  for (int i = 0; i < lines; ++i) PaintLine(&canvas, &rng);

  MipTexture::Level base;
  base.width = canvas.width;
  base.height = canvas.height;
  base.rgb.resize(canvas.rgb.size());
  for (size_t i = 0; i < canvas.rgb.size(); ++i) {
    base.rgb[i] = static_cast<uint8_t>(std::clamp(canvas.rgb[i], 0.0f, 255.0f) + 0.5f);
  }
  return MipTexture(std::move(base), style.texel_size_m);
}

}  // namespace proj::synthetic
