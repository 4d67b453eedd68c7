#include "datasets/synthetic/synthetic_street.h"

#include <algorithm>
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

using synthetic::Box;
using synthetic::PlacedBox;
using synthetic::Rng;
using synthetic::SubSeed;

constexpr double kPi = 3.14159265358979323846;
constexpr double kDegToRad = kPi / 180.0;
constexpr double kStreetHalfWidthM = 7;  // path to facades
constexpr double kBuildingDepthM = 6;
constexpr double kCarOffsetM = 4.2;      // path to the middle of a parked car

// The path by arc length s in [0, Length()]: straights and quarter-circle left turns, one after
// the other, positions in the ground plane. Headings are multiples of 90 degrees at segment
// starts, so the straights run along the axes exactly.
struct PathSegment {
  bool turn = false;
  double length_m = 0;
  Eigen::Vector2d start = Eigen::Vector2d::Zero();
  int quarter_turns = 0;  // heading at the start, in quarter turns from +x

  Eigen::Vector2d Direction() const {
    static const Eigen::Vector2d kAxes[4] = {{1, 0}, {0, 1}, {-1, 0}, {0, -1}};
    return kAxes[quarter_turns % 4];
  }
  Eigen::Vector2d Left() const { return Eigen::Vector2d(-Direction().y(), Direction().x()); }
};

struct StreetPath {
  double turn_radius_m = 0;
  bool closed = false;  // the last segment leads back to the first
  std::vector<PathSegment> segments;
  Eigen::Vector2d offset = Eigen::Vector2d::Zero();  // centres the path's bounding box

  double TurnLength() const { return turn_radius_m * kPi / 2; }
  void Append(bool turn, double length_m) {
    PathSegment segment;
    segment.turn = turn;
    segment.length_m = length_m;
    if (!segments.empty()) {
      const PathSegment& last = segments.back();
      segment.start = last.turn ? Eigen::Vector2d(last.start + turn_radius_m * (last.Direction() + last.Left()))
                                : Eigen::Vector2d(last.start + last.length_m * last.Direction());
      segment.quarter_turns = last.quarter_turns + (last.turn ? 1 : 0);
    }
    segments.push_back(segment);
  }
  double Length() const {
    double length = 0;
    for (const PathSegment& segment : segments) length += segment.length_m;
    return length;
  }
  Eigen::Vector2d Position(double s) const {
    const auto [segment, along] = Find(s);
    if (!segment->turn) return offset + segment->start + along * segment->Direction();
    const double angle = along / turn_radius_m;
    const Eigen::Vector2d center = segment->start + turn_radius_m * segment->Left();
    return offset + center + turn_radius_m * (std::sin(angle) * segment->Direction() -
                                              std::cos(angle) * segment->Left());
  }
  double HeadingRad(double s) const {
    const auto [segment, along] = Find(s);
    return segment->quarter_turns * kPi / 2 + (segment->turn ? along / turn_radius_m : 0);
  }
  // Whether a turn comes right before / after segment k (around the loop when closed).
  bool TurnBefore(size_t k) const {
    if (k > 0) return segments[k - 1].turn;
    return closed && segments.back().turn;
  }
  bool TurnAfter(size_t k) const {
    if (k + 1 < segments.size()) return segments[k + 1].turn;
    return closed && segments.front().turn;
  }

 private:
  std::pair<const PathSegment*, double> Find(double s) const {
    for (const PathSegment& segment : segments) {
      if (s <= segment.length_m || &segment == &segments.back()) return {&segment, std::min(s, segment.length_m)};
      s -= segment.length_m;
    }
    return {&segments.back(), 0.0};
  }
};

int NumMovingFrames(const SyntheticStreetOptions& options) {
  return options.num_frames - std::max(options.stop_frames - 1, 0);
}

// Straights of the path together (the turns take the rest of its length): the L runs one
// step short of the frames' span, the loop a full step more (its last step closes it).
double StraightsLength(const SyntheticStreetOptions& options) {
  const double turn = options.turn_radius_m * kPi / 2;
  if (!options.loop) return (NumMovingFrames(options) - 1) * options.step_m - turn;
  return NumMovingFrames(options) * options.step_m - 4 * turn;
}

StreetPath MakePath(const SyntheticStreetOptions& options) {
  StreetPath path;
  path.turn_radius_m = options.turn_radius_m;
  path.closed = options.loop;
  const double straights = StraightsLength(options);
  const double r = options.turn_radius_m;
  if (!options.loop) {
    // An L: along +x, a left turn, along +y.
    const double first = 0.55 * straights;
    path.Append(false, first);
    path.Append(true, path.TurnLength());
    path.Append(false, straights - first);
    path.offset = -0.5 * Eigen::Vector2d(first + r, r + straights - first);
    return path;
  }
  // A rounded rectangle, four left turns, back to the start: sides a (along x) and b.
  const double a = 0.3 * straights, b = 0.2 * straights;
  for (const double side : {a, b, a, b}) {
    path.Append(false, side);
    path.Append(true, path.TurnLength());
  }
  path.offset = -0.5 * Eigen::Vector2d(a, b + 2 * r);
  return path;
}

// Moving-frame index of frame i: the stop repeats the frame a quarter of the way.
int MovingIndex(const SyntheticStreetOptions& options, int frame) {
  const int stop_at = NumMovingFrames(options) / 4;
  const int extra = std::max(options.stop_frames - 1, 0);
  if (frame <= stop_at) return frame;
  return frame <= stop_at + extra ? stop_at : frame - extra;
}

std::vector<Eigen::Vector2d> PathSamples(const StreetPath& path) {
  std::vector<Eigen::Vector2d> samples;
  for (double s = 0; s <= path.Length(); s += 0.25) samples.push_back(path.Position(s));
  samples.push_back(path.Position(path.Length()));
  return samples;
}

// Axis-aligned footprints (yaw 0): [min, max] corners.
struct Footprint {
  Eigen::Vector2d min, max;
  bool Overlaps(const Footprint& other, double margin) const {
    return (min.array() < other.max.array() + margin).all() &&
           (other.min.array() < max.array() + margin).all();
  }
  double Distance(const Eigen::Vector2d& p) const {
    const Eigen::Vector2d outside = (min - p).cwiseMax(p - max).cwiseMax(0.0);
    return outside.norm();
  }
};

// Lays boxes side by side along a street side: from `from_m` to `to_m` along `along` (a unit
// world axis), their near face `offset_m` from `origin` in direction `side`, keeping
// min_path_distance_m from the path and clear of boxes placed before.
struct RowStyle {
  double depth_m, min_length_m, max_length_m, min_gap_m, max_gap_m, min_height_m, max_height_m;
  double min_path_distance_m, texel_m;
};

void PlaceRow(const Eigen::Vector2d& origin, const Eigen::Vector2d& along, const Eigen::Vector2d& side,
              double from_m, double to_m, double offset_m, const RowStyle& style,
              const std::vector<Eigen::Vector2d>& path, double max_radius_m, Rng* rng,
              std::vector<Footprint>* footprints, std::vector<PlacedBox>* boxes) {
  double t = from_m + rng->Uniform(0, style.max_gap_m);
  while (t < to_m) {
    const double length = rng->Uniform(style.min_length_m, style.max_length_m);
    const double height = rng->Uniform(style.min_height_m, style.max_height_m);
    const Eigen::Vector2d center =
        origin + (t + length / 2) * along + (offset_m + style.depth_m / 2) * side;
    const Eigen::Vector2d half = 0.5 * (length * along + style.depth_m * side).cwiseAbs();
    const Footprint footprint{center - half, center + half};
    t += length + rng->Uniform(style.min_gap_m, style.max_gap_m);
    bool fits = (footprint.max.cwiseAbs().norm() < max_radius_m) &&
                (footprint.min.cwiseAbs().norm() < max_radius_m) &&
                Eigen::Vector2d(footprint.min.x(), footprint.max.y()).norm() < max_radius_m &&
                Eigen::Vector2d(footprint.max.x(), footprint.min.y()).norm() < max_radius_m;
    for (const Eigen::Vector2d& p : path) fits = fits && footprint.Distance(p) >= style.min_path_distance_m;
    for (const Footprint& other : *footprints) fits = fits && !footprint.Overlaps(other, 0.2);
    if (!fits) continue;
    Box box;
    box.center_xy = center;
    box.half_size = Eigen::Vector3d(half.x(), half.y(), height / 2);
    footprints->push_back(footprint);
    boxes->push_back({box, style.texel_m});
  }
}

double EnclosureApothem(const StreetPath& path) {
  double radius = 0;
  for (const Eigen::Vector2d& p : PathSamples(path)) radius = std::max(radius, p.norm());
  return radius + 22;
}

}  // namespace

void SyntheticStreetOptions::Check() const {
  PROJ_REQUIRE(num_frames >= 2 && num_frames <= 10000, "SyntheticStreetOptions.num_frames must be in [2, 10000]");
  PROJ_REQUIRE(width >= 16 && width <= 16384 && height >= 16 && height <= 16384,
               "SyntheticStreetOptions.width/height must be in [16, 16384]");
  PROJ_REQUIRE(focal_px > 0 && std::isfinite(focal_px), "SyntheticStreetOptions.focal_px must be > 0");
  PROJ_REQUIRE(radial_k1 > -0.25 && radial_k1 < 0.25, "SyntheticStreetOptions.radial_k1 must be in (-0.25, 0.25)");
  PROJ_REQUIRE(step_m > 0.05 && step_m <= 5, "SyntheticStreetOptions.step_m must be in (0.05, 5]");
  PROJ_REQUIRE(stop_frames >= 0 && stop_frames < num_frames / 2,
               "SyntheticStreetOptions.stop_frames must be in [0, num_frames / 2)");
  PROJ_REQUIRE(turn_radius_m >= 4 && turn_radius_m <= 30, "SyntheticStreetOptions.turn_radius_m must be in [4, 30]");
  PROJ_REQUIRE(camera_height_m > 0.3 && camera_height_m < 5, "SyntheticStreetOptions.camera_height_m must be in (0.3, 5)");
  PROJ_REQUIRE(std::abs(pitch_deg) <= 30, "SyntheticStreetOptions.pitch_deg must be in [-30, 30]");
  PROJ_REQUIRE(supersampling >= 1 && supersampling <= 8, "SyntheticStreetOptions.supersampling must be in [1, 8]");
  PROJ_REQUIRE(jpeg_quality >= 1 && jpeg_quality <= 100, "SyntheticStreetOptions.jpeg_quality must be in [1, 100]");
  PROJ_REQUIRE(StraightsLength(*this) >= (loop ? 20 : 10),
               "SyntheticStreetOptions: the path must be at least " << (loop ? 20 : 10)
                   << " m longer than its turns; add frames or raise step_m");
  PROJ_REQUIRE(EnclosureApothem(MakePath(*this)) <= 100,
               "SyntheticStreetOptions: the path is too long for the synthetic world (at most ~150 m)");
}

std::vector<StrechaCamera> MakeStreetCameras(const SyntheticStreetOptions& options) {
  options.Check();
  const StreetPath path = MakePath(options);
  const double pitch = options.pitch_deg * kDegToRad;
  std::vector<StrechaCamera> cameras;
  for (int i = 0; i < options.num_frames; ++i) {
    const double s = MovingIndex(options, i) * options.step_m;
    const double heading = path.HeadingRad(s);
    const Eigen::Vector3d forward(std::cos(heading) * std::cos(pitch), std::sin(heading) * std::cos(pitch),
                                  -std::sin(pitch));
    const Eigen::Vector3d right(std::sin(heading), -std::cos(heading), 0);
    StrechaCamera camera;
    camera.R.col(0) = right;
    camera.R.col(1) = forward.cross(right);
    camera.R.col(2) = forward;
    camera.C << path.Position(s), options.camera_height_m;
    camera.K << options.focal_px, 0, options.width / 2.0, 0, options.focal_px, options.height / 2.0, 0, 0, 1;
    camera.distortion = Eigen::Vector3d(options.radial_k1, 0, 0);
    camera.width = options.width;
    camera.height = options.height;
    cameras.push_back(camera);
  }
  return cameras;
}

synthetic::SyntheticWorld BuildStreetWorld(const SyntheticStreetOptions& options) {
  options.Check();
  const StreetPath path = MakePath(options);
  const std::vector<Eigen::Vector2d> samples = PathSamples(path);
  synthetic::SyntheticWorldOptions world;
  world.num_boxes = world.num_walls = 0;
  world.enclosure_apothem_m = EnclosureApothem(path);
  world.enclosure_height_m = 12;
  world.ground_texel_m = 0.03;
  world.enclosure_texel_m = 0.04;
  const double max_radius = world.enclosure_apothem_m - 1;

  Rng rng(SubSeed(options.seed, 4));
  const RowStyle buildings = {kBuildingDepthM, 6, 14, 0.5, 4, 6, 14, kStreetHalfWidthM - 1.5, 0.02};
  const RowStyle cars = {1.8, 3.8, 4.6, 1.5, 9, 1.3, 1.7, kCarOffsetM - 1.6, 0.01};
  // Each straight's two sides (the positive axis side first), from the corner where the street
  // before it ends to the one where the street after it begins and on past them; the path
  // clearance trims the rows where another street crosses. Then the parked cars along the
  // straights themselves.
  std::vector<Footprint> footprints;
  std::vector<PlacedBox> boxes;
  for (const bool parked_cars : {false, true}) {
    for (size_t k = 0; k < path.segments.size(); ++k) {
      const PathSegment& segment = path.segments[k];
      if (segment.turn) continue;
      const Eigen::Vector2d along = segment.Direction();
      const Eigen::Vector2d side = along.cwiseAbs().reverse();  // the positive perpendicular axis
      const double before = path.TurnBefore(k) ? path.turn_radius_m : 0;
      const double after = path.TurnAfter(k) ? path.turn_radius_m : 0;
      const Eigen::Vector2d origin = path.offset + segment.start - before * along;
      for (const Eigen::Vector2d& direction : {side, Eigen::Vector2d(-side)}) {
        if (parked_cars) {
          PlaceRow(origin, along, direction, before, before + segment.length_m, kCarOffsetM - 0.9, cars,
                   samples, max_radius, &rng, &footprints, &boxes);
        } else {
          PlaceRow(origin, along, direction, -20, before + segment.length_m + after + 20, kStreetHalfWidthM,
                   buildings, samples, max_radius, &rng, &footprints, &boxes);
        }
      }
    }
  }
  return synthetic::BuildSyntheticWorld(world, boxes, options.seed, options.num_threads);
}

Image RenderStreetView(const synthetic::SyntheticWorld& world, const StrechaCamera& camera,
                       const SyntheticStreetOptions& options) {
  const double k1 = options.radial_k1;
  if (k1 == 0) return synthetic::RenderView(world, camera, options.supersampling, options.num_threads);
  // Render a pinhole view large enough to hold every undistorted pixel, then resample it.
  const double f = camera.K(0, 0), cx = camera.K(0, 2), cy = camera.K(1, 2);
  const auto undistort = [k1](const Eigen::Vector2d& distorted) { return synthetic::UndistortRadial(k1, distorted); };
  double half_x = 0, half_y = 0;
  for (double u : {0.0, cx, static_cast<double>(camera.width)}) {
    for (double v : {0.0, cy, static_cast<double>(camera.height)}) {
      const Eigen::Vector2d x = undistort(Eigen::Vector2d((u - cx) / f, (v - cy) / f));
      half_x = std::max(half_x, std::abs(x.x()) * f);
      half_y = std::max(half_y, std::abs(x.y()) * f);
    }
  }
  StrechaCamera pinhole = camera;
  pinhole.width = 2 * static_cast<int>(std::ceil(half_x + 2));
  pinhole.height = 2 * static_cast<int>(std::ceil(half_y + 2));
  pinhole.K(0, 2) = pinhole.width / 2.0;
  pinhole.K(1, 2) = pinhole.height / 2.0;
  const Image canvas = synthetic::RenderView(world, pinhole, options.supersampling, options.num_threads);
  Image image;
  image.width = camera.width;
  image.height = camera.height;
  image.channels = 3;
  image.data.resize(static_cast<size_t>(image.width) * image.height * 3);
  ParallelFor(0, image.height, options.num_threads, [&](int y, int /*worker*/) {
    for (int x = 0; x < image.width; ++x) {
      const Eigen::Vector2d n = undistort(Eigen::Vector2d((x + 0.5 - cx) / f, (y + 0.5 - cy) / f));
      // Canvas index space: pixel centres at integers.
      const double px = std::clamp(f * n.x() + pinhole.K(0, 2) - 0.5, 0.0, canvas.width - 1.001);
      const double py = std::clamp(f * n.y() + pinhole.K(1, 2) - 0.5, 0.0, canvas.height - 1.001);
      const int x0 = static_cast<int>(px), y0 = static_cast<int>(py);
      const double ax = px - x0, ay = py - y0;
      for (int c = 0; c < 3; ++c) {
        auto at = [&](int xx, int yy) {
          return static_cast<double>(canvas.data[(static_cast<size_t>(yy) * canvas.width + xx) * 3 + c]);
        };
        const double value = (1 - ay) * ((1 - ax) * at(x0, y0) + ax * at(x0 + 1, y0)) +
                             ay * ((1 - ax) * at(x0, y0 + 1) + ax * at(x0 + 1, y0 + 1));
        image.data[(static_cast<size_t>(y) * image.width + x) * 3 + c] =
            static_cast<uint8_t>(std::clamp(value, 0.0, 255.0) + 0.5);
      }
    }
  });
  return image;
}

FloatRaster RenderStreetDepth(const synthetic::SyntheticWorld& world, const StrechaCamera& camera,
                              const SyntheticStreetOptions& options) {
  const double k1 = options.radial_k1;
  if (k1 == 0) return synthetic::RenderDepth(world, camera, options.num_threads);
  const double f = camera.K(0, 0), cx = camera.K(0, 2), cy = camera.K(1, 2);
  return synthetic::RenderDepth(world, camera, options.num_threads, [&](double u, double v) {
    return synthetic::UndistortRadial(k1, Eigen::Vector2d((u - cx) / f, (v - cy) / f));
  });
}

void WriteSyntheticStreet(const SyntheticStreetOptions& options, const std::string& out_dir) {
  const std::vector<StrechaCamera> cameras = MakeStreetCameras(options);
  Timer timer;
  const synthetic::SyntheticWorld world = BuildStreetWorld(options);
  PROJ_LOG(kInfo, "synthetic street: " << world.boxes().size() << " buildings and cars, "
                                       << world.textures().size() << " textures, built in "
                                       << timer.ElapsedSeconds() << " s");
  std::vector<ExifData> exif;
  if (options.write_gps) {
    const LocalEnuConverter enu(options.gps_origin);
    synthetic::Rng rng(options.seed * 7919 + 13);
    for (const StrechaCamera& camera : cameras) {
      const Eigen::Vector3d measured = camera.C + Eigen::Vector3d(options.gps_horizontal_std_m * rng.Gaussian(),
                                                                  options.gps_horizontal_std_m * rng.Gaussian(),
                                                                  options.gps_vertical_std_m * rng.Gaussian());
      const Wgs84Position wgs84 = enu.Wgs84FromEnu(measured);
      ExifData frame;
      frame.make = "Synthetic";
      frame.model = "Dashboard camera";
      frame.gps = GpsPosition{wgs84.latitude_deg, wgs84.longitude_deg, wgs84.altitude_m, std::nullopt, std::nullopt,
                              GpsAltitudeReference::kEllipsoid};
      exif.push_back(frame);
    }
  }
  WriteSyntheticViews(
      cameras, [&](int i) { return RenderStreetView(world, cameras[i], options); },
      [&](int i) { return RenderStreetDepth(world, cameras[i], options); }, options.jpeg_quality, out_dir,
      exif.empty() ? std::function<ExifData(int)>() : [&](int i) { return exif[i]; });
}

}  // namespace proj
