#include "datasets/synthetic/synthetic_object.h"

#include <algorithm>
#include <array>
#include <cmath>

#include <Eigen/Geometry>

#include "core/check.h"
#include "core/logging.h"
#include "core/parallel_for.h"
#include "core/timer.h"
#include "datasets/synthetic/random.h"
#include "datasets/synthetic/synthetic_output.h"
#include "datasets/synthetic/synthetic_renderer.h"

namespace proj {
namespace {

constexpr double kPi = 3.14159265358979323846;

struct ObjectHit {
  int sphere = -1;  // -1: the ray misses the object
  double t = 0;
  Eigen::Vector3d point = Eigen::Vector3d::Zero();
};

// Nearest entry into any sphere: for a camera outside the union, that entry lies on the
// union's surface (entering another sphere first would have been nearer).
ObjectHit IntersectObject(const SyntheticObject& object, const synthetic::Ray& ray) {
  ObjectHit hit;
  const double a = ray.direction.squaredNorm();
  for (size_t s = 0; s < object.spheres.size(); ++s) {
    const Eigen::Vector3d offset = ray.origin - object.spheres[s].center;
    const double half_b = offset.dot(ray.direction);
    const double c = offset.squaredNorm() - object.spheres[s].radius_m * object.spheres[s].radius_m;
    const double discriminant = half_b * half_b - a * c;
    if (discriminant < 0) continue;
    const double t = (-half_b - std::sqrt(discriminant)) / a;
    if (t > 0 && (hit.sphere < 0 || t < hit.t)) {
      hit.sphere = static_cast<int>(s);
      hit.t = t;
    }
  }
  if (hit.sphere >= 0) hit.point = ray.origin + hit.t * ray.direction;
  return hit;
}

// Trilinear value noise in [-1, 1] on a lattice of `wavelength_m`.
double ValueNoise3(const Eigen::Vector3d& point, double wavelength_m, uint64_t seed) {
  const Eigen::Vector3d p = point / wavelength_m;
  const Eigen::Vector3d cell = p.array().floor();
  const Eigen::Vector3d f = p - cell;
  const Eigen::Vector3d w = f.array() * f.array() * (3.0 - 2.0 * f.array());  // smoothstep
  double value = 0;
  for (int corner = 0; corner < 8; ++corner) {
    const int dx = corner & 1, dy = (corner >> 1) & 1, dz = corner >> 2;
    const int32_t z = static_cast<int32_t>(cell.z()) + dz;
    const uint32_t hash = synthetic::HashLattice(static_cast<int32_t>(cell.x()) + dx,
                                                 static_cast<int32_t>(cell.y()) + dy,
                                                 seed ^ (static_cast<uint64_t>(static_cast<uint32_t>(z)) * 0x2545F4914F6CDD1Dull));
    const double weight = (dx ? w.x() : 1 - w.x()) * (dy ? w.y() : 1 - w.y()) * (dz ? w.z() : 1 - w.z());
    value += weight * (hash * (2.0 / 4294967295.0) - 1.0);
  }
  return value;
}

// Matte shading of a surface point: a brownish albedo varied by solid noise (octaves of 24
// to 3 mm, at least ~5 px at the default distance and focal length, so nothing aliases), lit
// by a key light and a weaker fill light from below, plus ambient.
std::array<float, 3> ShadeObject(const SyntheticObject& object, const ObjectHit& hit, double contrast) {
  static constexpr std::array<double, 4> kWavelengthsM = {0.024, 0.012, 0.006, 0.003};
  static constexpr std::array<double, 4> kAmplitudes = {1.0, 0.8, 0.6, 0.45};
  double noise = 0, total = 0;
  for (size_t o = 0; o < kWavelengthsM.size(); ++o) {
    noise += kAmplitudes[o] * ValueNoise3(hit.point, kWavelengthsM[o], object.texture_seed + o);
    total += kAmplitudes[o];
  }
  const double albedo = std::clamp(1.0 + 2.0 * contrast * noise / total, 0.0, 2.0);
  const Eigen::Vector3d normal = (hit.point - object.spheres[hit.sphere].center).normalized();
  const Eigen::Vector3d key = Eigen::Vector3d(0.4, 0.3, 0.87).normalized();
  const Eigen::Vector3d fill = Eigen::Vector3d(-0.5, -0.4, -0.3).normalized();
  const double light = 0.3 + 0.6 * std::max(0.0, normal.dot(key)) + 0.3 * std::max(0.0, normal.dot(fill));
  const std::array<double, 3> base = {170, 140, 110};
  std::array<float, 3> rgb;
  for (int c = 0; c < 3; ++c) rgb[c] = static_cast<float>(std::min(255.0, base[c] * albedo * light));
  return rgb;
}

}  // namespace

void SyntheticObjectOptions::Check() const {
  PROJ_REQUIRE(num_views >= 2 && num_views <= 100000, "SyntheticObjectOptions.num_views must be in [2, 100000]");
  PROJ_REQUIRE(width >= 16 && width <= 16384 && height >= 16 && height <= 16384,
               "SyntheticObjectOptions.width/height must be in [16, 16384]");
  PROJ_REQUIRE(focal_px > 0 && std::isfinite(focal_px), "SyntheticObjectOptions.focal_px must be > 0");
  PROJ_REQUIRE(distance_m > 0.3 && distance_m < 100, "SyntheticObjectOptions.distance_m must be in (0.3, 100)");
  PROJ_REQUIRE(distance_jitter >= 0 && distance_jitter < 0.5, "SyntheticObjectOptions.distance_jitter must be in [0, 0.5)");
  PROJ_REQUIRE(roll_jitter_deg >= 0 && roll_jitter_deg <= 180, "SyntheticObjectOptions.roll_jitter_deg must be in [0, 180]");
  PROJ_REQUIRE(min_elevation_deg >= -90 && min_elevation_deg < 60,
               "SyntheticObjectOptions.min_elevation_deg must be in [-90, 60)");
  PROJ_REQUIRE(texture_contrast >= 0 && texture_contrast <= 1, "SyntheticObjectOptions.texture_contrast must be in [0, 1]");
  PROJ_REQUIRE(jpeg_quality >= 1 && jpeg_quality <= 100, "SyntheticObjectOptions.jpeg_quality must be in [1, 100]");
}

SyntheticObject BuildSyntheticObject(const SyntheticObjectOptions& options) {
  options.Check();
  synthetic::Rng rng(synthetic::SubSeed(options.seed, 1));
  SyntheticObject object;
  object.spheres.push_back({Eigen::Vector3d::Zero(), 0.075});
  for (int lobe = 0; lobe < 6; ++lobe) {
    const double z = rng.Uniform(-0.8, 0.9), azimuth = rng.Uniform(0, 2 * kPi);
    const Eigen::Vector3d direction(std::sqrt(1 - z * z) * std::cos(azimuth), std::sqrt(1 - z * z) * std::sin(azimuth), z);
    object.spheres.push_back({rng.Uniform(0.05, 0.07) * direction, rng.Uniform(0.03, 0.045)});
  }
  object.texture_seed = synthetic::SubSeed(options.seed, 2);
  return object;
}

std::vector<StrechaCamera> MakeObjectCameras(const SyntheticObjectOptions& options) {
  options.Check();
  synthetic::Rng rng(synthetic::SubSeed(options.seed, 3));
  // Directions on a Fibonacci sphere restricted to z >= sin(min_elevation): even spacing.
  const double z_min = std::sin(options.min_elevation_deg * kPi / 180);
  const double golden_angle = kPi * (3 - std::sqrt(5.0));
  std::vector<StrechaCamera> cameras;
  for (int i = 0; i < options.num_views; ++i) {
    const double z = 1 - (1 - z_min) * (i + 0.5) / options.num_views;
    const double azimuth = golden_angle * i;
    const Eigen::Vector3d direction(std::sqrt(1 - z * z) * std::cos(azimuth), std::sqrt(1 - z * z) * std::sin(azimuth), z);
    StrechaCamera camera;
    camera.width = options.width;
    camera.height = options.height;
    camera.K << options.focal_px, 0, options.width / 2.0, 0, options.focal_px, options.height / 2.0, 0, 0, 1;
    camera.C = options.distance_m * (1 + rng.Uniform(-options.distance_jitter, options.distance_jitter)) * direction;
    // Look at the centre: camera z towards it, y down in the image (world z up where possible).
    const Eigen::Vector3d forward = -direction;
    const Eigen::Vector3d up = std::abs(forward.z()) > 0.99 ? Eigen::Vector3d::UnitX() : Eigen::Vector3d::UnitZ();
    const Eigen::Vector3d right = forward.cross(up).normalized();
    const Eigen::Vector3d down = forward.cross(right);
    Eigen::Matrix3d world_from_cam;
    world_from_cam << right, down, forward;
    const double roll = rng.Uniform(-options.roll_jitter_deg, options.roll_jitter_deg) * kPi / 180;
    camera.R = world_from_cam * Eigen::AngleAxisd(roll, Eigen::Vector3d::UnitZ()).toRotationMatrix();
    cameras.push_back(camera);
  }
  return cameras;
}

Image RenderObjectView(const SyntheticObject& object, const StrechaCamera& camera,
                       const SyntheticObjectOptions& options) {
  const int width = camera.width, height = camera.height;
  // The sphere hit at every pixel corner: pixels whose four corners agree are shaded once at
  // their centre, the others (the silhouette and lobe edges) averaged over 4 x 4 rays.
  std::vector<int> corner_sphere(static_cast<size_t>(width + 1) * (height + 1));
  ParallelFor(0, height + 1, options.num_threads, [&](int y, int) {
    for (int x = 0; x <= width; ++x) {
      corner_sphere[static_cast<size_t>(y) * (width + 1) + x] =
          IntersectObject(object, synthetic::PixelRay(camera, x, y)).sphere;
    }
  });
  Image image;
  image.width = width;
  image.height = height;
  image.channels = 3;
  image.data.assign(static_cast<size_t>(width) * height * 3, 0);
  ParallelFor(0, height, options.num_threads, [&](int y, int) {
    for (int x = 0; x < width; ++x) {
      const size_t corner = static_cast<size_t>(y) * (width + 1) + x;
      const int s = corner_sphere[corner];
      const bool uniform = corner_sphere[corner + 1] == s && corner_sphere[corner + width + 1] == s &&
                           corner_sphere[corner + width + 2] == s;
      if (uniform && s < 0) continue;  // background
      const int samples = uniform ? 1 : 4;
      std::array<float, 3> sum = {0, 0, 0};
      for (int sy = 0; sy < samples; ++sy) {
        for (int sx = 0; sx < samples; ++sx) {
          const ObjectHit hit = IntersectObject(
              object, synthetic::PixelRay(camera, x + (sx + 0.5) / samples, y + (sy + 0.5) / samples));
          if (hit.sphere < 0) continue;
          const std::array<float, 3> rgb = ShadeObject(object, hit, options.texture_contrast);
          for (int c = 0; c < 3; ++c) sum[c] += rgb[c];
        }
      }
      uint8_t* pixel = &image.data[(static_cast<size_t>(y) * width + x) * 3];
      for (int c = 0; c < 3; ++c) pixel[c] = static_cast<uint8_t>(sum[c] / (samples * samples) + 0.5f);
    }
  });
  return image;
}

FloatRaster RenderObjectDepth(const SyntheticObject& object, const StrechaCamera& camera, int num_threads) {
  FloatRaster depth(camera.width, camera.height, 1);
  ParallelFor(0, camera.height, num_threads, [&](int y, int) {
    for (int x = 0; x < camera.width; ++x) {
      // PixelRay's direction has unit depth: the ray parameter is the camera-frame z.
      const ObjectHit hit = IntersectObject(object, synthetic::PixelRay(camera, x + 0.5, y + 0.5));
      if (hit.sphere >= 0) depth.data[static_cast<size_t>(y) * camera.width + x] = static_cast<float>(hit.t);
    }
  });
  return depth;
}

void WriteSyntheticObject(const SyntheticObjectOptions& options, const std::string& out_dir) {
  const SyntheticObject object = BuildSyntheticObject(options);
  const std::vector<StrechaCamera> cameras = MakeObjectCameras(options);
  WriteSyntheticViews(
      cameras, [&](int i) { return RenderObjectView(object, cameras[i], options); },
      [&](int i) { return RenderObjectDepth(object, cameras[i], options.num_threads); }, options.jpeg_quality,
      out_dir);
}

}  // namespace proj
