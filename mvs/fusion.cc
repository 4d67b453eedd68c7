#include "mvs/fusion.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <unordered_map>

#include <Eigen/LU>

#include "core/check.h"
#include "core/parallel_for.h"
#include "mvs/depth_transfer.h"

namespace proj::mvs {
namespace {

constexpr double kPi = 3.14159265358979323846;
// Rows whose clusters are gathered at once: enough work for the threads; memory of about
// 50 bytes a pixel and neighbour for the band (10 MB for 1280 px wide views, 4 neighbours).
constexpr int kBandRows = 32;
constexpr uint8_t kGrey = 128;

struct Neighbour {
  int view = 0;
  DepthTransfer transfer;                  // seed view's pixels -> this neighbour
  Eigen::Matrix3f normal_rotation;         // seed camera frame -> neighbour camera frame
};

// A view with what fusion needs precomputed.
struct PreparedView {
  const FusionView* input = nullptr;
  Eigen::Matrix3d world_rays;              // R^T K^-1: pixel (homogeneous) -> world direction
  Eigen::Vector3d center;
  Eigen::Matrix3f world_from_cam;          // R^T, for normals
  std::vector<Neighbour> neighbours;
  int min_views = 1;

  int width() const { return input->depth->width(); }
  Eigen::Vector3d WorldPoint(int x, int y, double depth) const {
    return center + depth * (world_rays * Eigen::Vector3d(x + 0.5, y + 0.5, 1.0));
  }
  Rgb8 Colour(int x, int y) const {
    const Image* image = input->colour;
    if (!image || image->empty()) return {kGrey, kGrey, kGrey};
    const uint8_t* pixel = image->pixel(x, y);
    return image->channels == 3 ? Rgb8{pixel[0], pixel[1], pixel[2]} : Rgb8{pixel[0], pixel[0], pixel[0]};
  }
};

// A pixel that may join a cluster, with what it would add to it (computed while gathering,
// on the worker threads).
struct Member {
  int view;
  int pixel;  // y * width + x in that view
  Eigen::Vector3d point;
  Eigen::Vector3f normal;  // world frame
  Rgb8 colour;
};

// A pixel of the seed view that may start a cluster: members [begin, end) of its row's list,
// the first being the seed itself.
struct Seed {
  int begin, end;
};

// Sums of a cluster's or a voxel's members.
struct Accumulator {
  Eigen::Vector3d position = Eigen::Vector3d::Zero();
  Eigen::Vector3d normal = Eigen::Vector3d::Zero();
  Eigen::Vector3d colour = Eigen::Vector3d::Zero();
  int count = 0;
  int num_views = 0;

  void Add(const Eigen::Vector3d& p, const Eigen::Vector3d& n, const Rgb8& c, int views) {
    position += p;
    normal += n;
    colour += Eigen::Vector3d(c[0], c[1], c[2]);
    ++count;
    num_views += views;
  }
  void AppendTo(DenseCloud* cloud) const {
    cloud->positions.push_back((position / count).cast<float>());
    const double length = normal.norm();
    cloud->normals.push_back(length > 0 ? Eigen::Vector3f((normal / length).cast<float>()) : Eigen::Vector3f::Zero());
    const Eigen::Vector3d mean = colour / count;
    cloud->colors.push_back({static_cast<uint8_t>(std::lround(mean[0])), static_cast<uint8_t>(std::lround(mean[1])),
                             static_cast<uint8_t>(std::lround(mean[2]))});
    cloud->num_views.push_back(static_cast<uint16_t>(std::min(num_views, 65535)));
  }
};

void RequireCameraSize(int width, int height, const PinholeCamera& camera, int view, const char* what) {
  PROJ_REQUIRE(width == camera.width && height == camera.height,
               "fusion: view " << view << "'s " << what << " is " << width << "x" << height
                               << ", its camera " << camera.width << "x" << camera.height);
}

void CheckView(const FusionView& view, int index, int num_views) {
  PROJ_CHECK(view.geometry && view.depth && view.normals, "FuseDepthMaps: view " << index << " lacks a map");
  const PinholeCamera& camera = view.geometry->camera;
  RequireCameraSize(view.depth->width(), view.depth->height(), camera, index, "depth map");
  RequireCameraSize(view.normals->width(), view.normals->height(), camera, index, "normal map");
  if (view.colour && !view.colour->empty()) {
    RequireCameraSize(view.colour->width, view.colour->height, camera, index, "colour image");
    PROJ_REQUIRE(view.colour->channels == 1 || view.colour->channels == 3,
                 "fusion: view " << index << "'s colour image has " << view.colour->channels << " channels");
  }
  for (int j : view.neighbours) {
    PROJ_REQUIRE(j >= 0 && j < num_views,
                 "fusion: view " << index << " names neighbour " << j << " of " << num_views << " views");
  }
}

std::vector<PreparedView> PrepareViews(const std::vector<FusionView>& views, int min_views) {
  const int num_views = static_cast<int>(views.size());
  for (int i = 0; i < num_views; ++i) CheckView(views[i], i, num_views);
  std::vector<PreparedView> prepared(views.size());
  for (int i = 0; i < num_views; ++i) {
    const FusionView& view = views[i];
    PreparedView& p = prepared[i];
    p.input = &view;
    p.world_from_cam = view.geometry->rotation.transpose().cast<float>();
    p.world_rays = view.geometry->rotation.transpose() * view.geometry->camera.K().inverse();
    p.center = view.geometry->Center();
    std::vector<int> neighbours;
    for (int j : view.neighbours) {
      if (j != i && std::find(neighbours.begin(), neighbours.end(), j) == neighbours.end()) neighbours.push_back(j);
    }
    for (int j : neighbours) {
      const Eigen::Matrix3d rotation = views[j].geometry->rotation * view.geometry->rotation.transpose();
      p.neighbours.push_back({j, DepthTransfer(*view.geometry, *views[j].geometry), rotation.cast<float>()});
    }
    p.min_views = std::min(min_views, 1 + static_cast<int>(neighbours.size()));
  }
  return prepared;
}

}  // namespace

void FusionOptions::Check() const {
  PROJ_REQUIRE(min_views >= 1, "FusionOptions.min_views must be >= 1");
  PROJ_REQUIRE(max_relative_depth_diff > 0 && std::isfinite(max_relative_depth_diff),
               "FusionOptions.max_relative_depth_diff must be > 0");
  PROJ_REQUIRE(max_normal_angle_deg > 0 && max_normal_angle_deg <= 180,
               "FusionOptions.max_normal_angle_deg must be in (0, 180]");
  PROJ_REQUIRE(voxel_size >= 0 && std::isfinite(voxel_size), "FusionOptions.voxel_size must be >= 0");
}

DenseCloud FuseDepthMaps(const std::vector<FusionView>& views, const FusionOptions& options,
                         int num_threads) {
  options.Check();
  const std::vector<PreparedView> prepared = PrepareViews(views, options.min_views);
  const float min_cos_normal = static_cast<float>(std::cos(options.max_normal_angle_deg * kPi / 180.0));
  const double max_depth_diff = options.max_relative_depth_diff;

  // taken[v][pixel]: the pixel belongs to a point already emitted.
  std::vector<std::vector<uint8_t>> taken(views.size());
  for (size_t v = 0; v < views.size(); ++v) {
    taken[v].assign(static_cast<size_t>(views[v].depth->width()) * views[v].depth->height(), 0);
  }

  DenseCloud cloud;
  std::vector<std::vector<Seed>> seeds(kBandRows);
  std::vector<std::vector<Member>> members(kBandRows);
  for (size_t v = 0; v < prepared.size(); ++v) {
    const PreparedView& view = prepared[v];
    const DepthMap& depth = *view.input->depth;
    const NormalMap& normals = *view.input->normals;
    const int width = depth.width(), height = depth.height();

    // Gathers the clusters that the pixels of row y would seed (reads the masks only: no
    // cluster is committed meanwhile).
    auto gather = [&](int y, int row) {
      std::vector<Member>& list = members[row];
      seeds[row].clear();
      list.clear();
      for (int x = 0; x < width; ++x) {
        const float d = depth.At(x, y);
        const int seed_pixel = y * width + x;
        if (!(d > 0) || taken[v][seed_pixel]) continue;
        const Eigen::Vector3f normal = normals.At(x, y);
        const Seed seed{static_cast<int>(list.size()), 0};
        list.push_back({static_cast<int>(v), seed_pixel, {}, {}, {}});
        for (const Neighbour& neighbour : view.neighbours) {
          const Eigen::Vector3d p = neighbour.transfer(x, y, d);
          if (!(p.z() > 0)) continue;
          const double u = p.x() / p.z(), w = p.y() / p.z();
          const DepthMap& other = *views[neighbour.view].depth;
          if (!(u >= 0 && w >= 0 && u < other.width() && w < other.height())) continue;
          const int ox = static_cast<int>(u), oy = static_cast<int>(w);
          const int pixel = oy * other.width() + ox;
          if (taken[neighbour.view][pixel]) continue;
          const double d_other = other.At(ox, oy);
          if (!(d_other > 0) || std::abs(d_other - p.z()) > max_depth_diff * p.z()) continue;
          const Eigen::Vector3f other_normal = views[neighbour.view].normals->At(ox, oy);
          if (other_normal.dot(neighbour.normal_rotation * normal) < min_cos_normal) continue;
          list.push_back({neighbour.view, pixel, {}, {}, {}});
        }
        if (static_cast<int>(list.size()) - seed.begin < view.min_views) {
          list.resize(seed.begin);
          continue;
        }
        for (size_t m = seed.begin; m < list.size(); ++m) {
          Member& member = list[m];
          const PreparedView& member_view = prepared[member.view];
          const int mx = member.pixel % member_view.width(), my = member.pixel / member_view.width();
          member.point = member_view.WorldPoint(mx, my, member_view.input->depth->At(mx, my));
          member.normal = member_view.world_from_cam * member_view.input->normals->At(mx, my);
          member.colour = member_view.Colour(mx, my);
        }
        seeds[row].push_back({seed.begin, static_cast<int>(list.size())});
      }
    };
    // Commits the clusters of a row in pixel order, re-checking the masks that earlier
    // clusters of this band may have set.
    auto commit = [&](int row) {
      const std::vector<Member>& list = members[row];
      for (const Seed& seed : seeds[row]) {
        int available = 0;
        for (int m = seed.begin; m < seed.end; ++m) available += !taken[list[m].view][list[m].pixel];
        if (available < view.min_views) continue;
        Accumulator cluster;
        for (int m = seed.begin; m < seed.end; ++m) {
          uint8_t& flag = taken[list[m].view][list[m].pixel];
          if (flag) continue;
          flag = 1;
          cluster.Add(list[m].point, list[m].normal.cast<double>(), list[m].colour, 1);
        }
        cluster.AppendTo(&cloud);
      }
    };
    for (int band = 0; band < height; band += kBandRows) {
      const int rows = std::min(kBandRows, height - band);
      ParallelFor(0, rows, num_threads, [&](int row, int /*worker*/) { gather(band + row, row); });
      for (int row = 0; row < rows; ++row) commit(row);
    }
  }
  if (options.voxel_size > 0) return VoxelDownsample(cloud, options.voxel_size);
  return cloud;
}

DenseCloud VoxelDownsample(const DenseCloud& cloud, double voxel_size) {
  PROJ_REQUIRE(voxel_size > 0 && std::isfinite(voxel_size), "VoxelDownsample: voxel_size must be > 0");
  struct KeyHash {
    size_t operator()(const Eigen::Matrix<int64_t, 3, 1>& key) const {
      return static_cast<size_t>(key[0] * 73856093LL ^ key[1] * 19349663LL ^ key[2] * 83492791LL);
    }
  };
  // Voxels in the order of their first point, so the result is as deterministic as the input.
  std::unordered_map<Eigen::Matrix<int64_t, 3, 1>, size_t, KeyHash> index_of;
  std::vector<Accumulator> voxels;
  const double limit = static_cast<double>(std::numeric_limits<int64_t>::max() / 2);
  for (size_t i = 0; i < cloud.size(); ++i) {
    const Eigen::Vector3d scaled = (cloud.positions[i].cast<double>() / voxel_size).array().floor();
    PROJ_REQUIRE(scaled.cwiseAbs().maxCoeff() < limit,
                 "VoxelDownsample: voxel size " << voxel_size << " is too small for the cloud's coordinates");
    const auto [it, inserted] = index_of.emplace(scaled.cast<int64_t>(), voxels.size());
    if (inserted) voxels.emplace_back();
    const Eigen::Vector3d normal =
        i < cloud.normals.size() ? cloud.normals[i].cast<double>() : Eigen::Vector3d::Zero().eval();
    voxels[it->second].Add(cloud.positions[i].cast<double>(), normal,
                           i < cloud.colors.size() ? cloud.colors[i] : Rgb8{kGrey, kGrey, kGrey},
                           i < cloud.num_views.size() ? cloud.num_views[i] : 1);
  }
  DenseCloud thinned;
  for (const Accumulator& voxel : voxels) voxel.AppendTo(&thinned);
  return thinned;
}

}  // namespace proj::mvs
