#include "mvs/geometric_filter.h"

#include <algorithm>
#include <cmath>

#include <Eigen/LU>

#include "core/check.h"
#include "core/parallel_for.h"
#include "mvs/depth_transfer.h"

namespace proj::mvs {
namespace {

constexpr double kPi = 3.14159265358979323846;

// Four depths further apart than this (relative) straddle a depth edge: no interpolation.
constexpr double kMaxInterpolationSpread = 0.05;

enum class Verdict { kKept, kCost, kNormal, kInconsistent };

// The depth at image point (u, v), inside the map: bilinear in inverse depth between the four
// nearest pixel centres when all have a depth and none is across a depth edge (exact on a
// plane, whose inverse depth is affine in the image), else the nearest pixel's (0: none).
double DepthAt(const DepthMap& map, double u, double v) {
  const double gx = u - 0.5, gy = v - 0.5;
  const int x0 = static_cast<int>(std::floor(gx)), y0 = static_cast<int>(std::floor(gy));
  if (x0 >= 0 && y0 >= 0 && x0 + 1 < map.width() && y0 + 1 < map.height()) {
    const double d00 = map.At(x0, y0), d10 = map.At(x0 + 1, y0);
    const double d01 = map.At(x0, y0 + 1), d11 = map.At(x0 + 1, y0 + 1);
    const double low = std::min({d00, d10, d01, d11}), high = std::max({d00, d10, d01, d11});
    if (low > 0 && high <= low * (1 + kMaxInterpolationSpread)) {
      const double ax = gx - x0, ay = gy - y0;
      return 1.0 / ((1 - ay) * ((1 - ax) / d00 + ax / d10) + ay * ((1 - ax) / d01 + ax / d11));
    }
  }
  return map.At(static_cast<int>(u), static_cast<int>(v));
}

struct Source {
  DepthTransfer forward;   // reference -> source
  DepthTransfer backward;  // source -> reference
  const DepthMap* depth;
};

void RequireSize(int width, int height, const PinholeCamera& camera, const char* what) {
  PROJ_REQUIRE(width == camera.width && height == camera.height,
               "geometric filter: " << what << " is " << width << "x" << height << ", its camera "
                                    << camera.width << "x" << camera.height);
}

}  // namespace

void GeometricFilterOptions::Check() const {
  PROJ_REQUIRE(min_consistent_views >= 1, "GeometricFilterOptions.min_consistent_views must be >= 1");
  PROJ_REQUIRE(max_reprojection_px > 0 && std::isfinite(max_reprojection_px),
               "GeometricFilterOptions.max_reprojection_px must be > 0");
  PROJ_REQUIRE(max_relative_depth_diff > 0 && std::isfinite(max_relative_depth_diff),
               "GeometricFilterOptions.max_relative_depth_diff must be > 0");
  PROJ_REQUIRE(max_cost >= 0 && std::isfinite(max_cost), "GeometricFilterOptions.max_cost must be >= 0");
  PROJ_REQUIRE(max_grazing_angle_deg > 0 && max_grazing_angle_deg <= 90,
               "GeometricFilterOptions.max_grazing_angle_deg must be in (0, 90]");
}

FilteredDepthMap FilterDepthMap(const ViewGeometry& reference, const DepthMap& depth,
                                const NormalMap& normals, const FloatRaster* cost,
                                const std::vector<SourceDepth>& sources,
                                const GeometricFilterOptions& options, int num_threads) {
  options.Check();
  const int width = reference.camera.width, height = reference.camera.height;
  RequireSize(depth.width(), depth.height(), reference.camera, "the depth map");
  RequireSize(normals.width(), normals.height(), reference.camera, "the normal map");
  if (cost) {
    PROJ_REQUIRE(cost->channels == 1, "geometric filter: the cost raster has " << cost->channels << " channels");
    RequireSize(cost->width, cost->height, reference.camera, "the cost raster");
  }
  std::vector<Source> prepared;
  for (const SourceDepth& source : sources) {
    PROJ_CHECK(source.geometry && source.depth, "FilterDepthMap: a source without geometry or depth");
    RequireSize(source.depth->width(), source.depth->height(), source.geometry->camera, "a source depth map");
    prepared.push_back({DepthTransfer(reference, *source.geometry), DepthTransfer(*source.geometry, reference),
                        source.depth});
  }
  const int required = std::min<int>(options.min_consistent_views, static_cast<int>(sources.size()));
  const double min_cos_grazing = std::cos(options.max_grazing_angle_deg * kPi / 180.0);
  const double max_error_squared = options.max_reprojection_px * options.max_reprojection_px;
  const Eigen::Matrix3d k_inverse = reference.camera.K().inverse();

  auto consistent = [&](const Source& source, int x, int y, double d) {
    const Eigen::Vector3d in_source = source.forward(x, y, d);
    if (!(in_source.z() > 0)) return false;
    const double u = in_source.x() / in_source.z(), v = in_source.y() / in_source.z();
    const DepthMap& source_depth = *source.depth;
    if (!(u >= 0 && v >= 0 && u < source_depth.width() && v < source_depth.height())) return false;
    const double d_source = DepthAt(source_depth, u, v);
    if (!(d_source > 0)) return false;
    const Eigen::Vector3d back = source.backward.At(u, v, d_source);
    if (!(back.z() > 0)) return false;
    const double dx = back.x() / back.z() - (x + 0.5), dy = back.y() / back.z() - (y + 0.5);
    return dx * dx + dy * dy < max_error_squared &&
           std::abs(back.z() - d) < options.max_relative_depth_diff * d;
  };
  auto judge = [&](int x, int y, double d) {
    if (cost && !(cost->At(x, y) <= options.max_cost)) return Verdict::kCost;
    const Eigen::Vector3d normal = normals.At(x, y).cast<double>();
    const Eigen::Vector3d ray = k_inverse * Eigen::Vector3d(x + 0.5, y + 0.5, 1.0);
    // cos(angle between the normal and the ray back to the camera) >= min_cos_grazing.
    if (!(-normal.dot(ray) >= min_cos_grazing * normal.norm() * ray.norm()) || normal.isZero()) {
      return Verdict::kNormal;
    }
    int agree = 0;
    for (const Source& source : prepared) {
      if (consistent(source, x, y, d) && ++agree >= required) return Verdict::kKept;
    }
    return Verdict::kInconsistent;
  };

  FilteredDepthMap result{DepthMap(width, height), NormalMap(width, height), {}};
  const int threads = ResolveNumThreads(num_threads);
  std::vector<FilterCounts> counts(threads);
  ParallelFor(0, height, threads, [&](int y, int worker) {
    FilterCounts& count = counts[worker];
    for (int x = 0; x < width; ++x) {
      const double d = depth.At(x, y);
      if (!(d > 0) || !std::isfinite(d)) continue;
      ++count.num_input;
      switch (judge(x, y, d)) {
        case Verdict::kKept:
          ++count.num_kept;
          result.depth.At(x, y) = static_cast<float>(d);
          result.normals.Set(x, y, normals.At(x, y));
          break;
        case Verdict::kCost: ++count.num_rejected_cost; break;
        case Verdict::kNormal: ++count.num_rejected_normal; break;
        case Verdict::kInconsistent: ++count.num_rejected_inconsistent; break;
      }
    }
  });
  for (const FilterCounts& count : counts) {
    result.counts.num_input += count.num_input;
    result.counts.num_kept += count.num_kept;
    result.counts.num_rejected_cost += count.num_rejected_cost;
    result.counts.num_rejected_normal += count.num_rejected_normal;
    result.counts.num_rejected_inconsistent += count.num_rejected_inconsistent;
  }
  return result;
}

}  // namespace proj::mvs
