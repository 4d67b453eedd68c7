#include "sfm/mapper/keyframes.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include <Eigen/SVD>

#include "core/check.h"
#include "core/logging.h"
#include "core/statistics.h"

namespace proj {
namespace {

constexpr int kMinSharedForParallax = 8;
constexpr double kRadToDeg = 180.0 / 3.14159265358979323846;

Eigen::Vector3d Ray(const Scene& scene, int image_id, int keypoint) {
  const SceneImage& image = scene.images[image_id];
  const Eigen::Vector2d n = scene.cameras[image.camera_id].PixelToNormalized(image.keypoints[keypoint]);
  return Eigen::Vector3d(n.x(), n.y(), 1.0).normalized();
}

// The rotation R minimising sum |to_i - R from_i|^2 over the pairs with use[i] (Kabsch).
Eigen::Matrix3d BestRotation(const std::vector<Eigen::Vector3d>& from,
                             const std::vector<Eigen::Vector3d>& to, const std::vector<char>& use) {
  Eigen::Matrix3d correlation = Eigen::Matrix3d::Zero();
  for (size_t i = 0; i < from.size(); ++i) {
    if (use[i]) correlation += to[i] * from[i].transpose();
  }
  const Eigen::JacobiSVD<Eigen::Matrix3d> svd(correlation, Eigen::ComputeFullU | Eigen::ComputeFullV);
  Eigen::Matrix3d d = Eigen::Matrix3d::Identity();
  d(2, 2) = (svd.matrixU() * svd.matrixV().transpose()).determinant() < 0 ? -1 : 1;
  return svd.matrixU() * d * svd.matrixV().transpose();
}

// Median angle (degrees) between `to` and the rotated `from`, after the refit without outliers.
double ParallaxDeg(const std::vector<Eigen::Vector3d>& from, const std::vector<Eigen::Vector3d>& to) {
  std::vector<char> use(from.size(), 1);
  std::vector<double> angles(from.size());
  const auto angles_under = [&](const Eigen::Matrix3d& rotation) {
    for (size_t i = 0; i < from.size(); ++i) {
      angles[i] = std::atan2((rotation * from[i]).cross(to[i]).norm(), (rotation * from[i]).dot(to[i]));
    }
  };
  angles_under(BestRotation(from, to, use));
  const double first = UpperMedian(angles);
  for (size_t i = 0; i < from.size(); ++i) use[i] = angles[i] <= 3 * first;
  angles_under(BestRotation(from, to, use));
  return UpperMedian(angles) * kRadToDeg;
}

// Rays of the tracks two images share, given the keypoint of each track in the first image.
void SharedRays(const Scene& scene, const TrackSet& tracks, int image1,
                const std::vector<int>& keypoint_in_first, int image2,
                std::vector<Eigen::Vector3d>* rays1, std::vector<Eigen::Vector3d>* rays2) {
  rays1->clear();
  rays2->clear();
  const std::vector<int>& track_of = tracks.track_of[image2];
  for (size_t k = 0; k < track_of.size(); ++k) {
    if (track_of[k] == kInvalidId || keypoint_in_first[track_of[k]] < 0) continue;
    rays1->push_back(Ray(scene, image1, keypoint_in_first[track_of[k]]));
    rays2->push_back(Ray(scene, image2, static_cast<int>(k)));
  }
}

}  // namespace

void KeyframeOptions::Check() const {
  PROJ_REQUIRE(std::isfinite(min_parallax_deg) && min_parallax_deg < 45,
               "KeyframeOptions.min_parallax_deg must be below 45 (got " << min_parallax_deg << ")");
  PROJ_REQUIRE(min_shared_tracks >= kMinSharedForParallax,
               "KeyframeOptions.min_shared_tracks must be at least " << kMinSharedForParallax);
  PROJ_REQUIRE(min_shared_fraction >= 0 && min_shared_fraction < 1,
               "KeyframeOptions.min_shared_fraction must be in [0, 1)");
}

std::optional<double> RotationCompensatedParallaxDeg(const Scene& scene, const TrackSet& tracks,
                                                     int image1, int image2, int* num_shared) {
  std::vector<int> keypoint_in_first(tracks.tracks.size(), -1);
  const std::vector<int>& track_of = tracks.track_of[image1];
  for (size_t k = 0; k < track_of.size(); ++k) {
    if (track_of[k] != kInvalidId) keypoint_in_first[track_of[k]] = static_cast<int>(k);
  }
  std::vector<Eigen::Vector3d> rays1, rays2;
  SharedRays(scene, tracks, image1, keypoint_in_first, image2, &rays1, &rays2);
  if (num_shared != nullptr) *num_shared = static_cast<int>(rays1.size());
  if (rays1.size() < kMinSharedForParallax) return std::nullopt;
  return ParallaxDeg(rays1, rays2);
}

KeyframeSelection SelectParallaxKeyframes(const Scene& scene, const TrackSet& tracks,
                                  const std::vector<int>& order, const KeyframeOptions& options) {
  options.Check();
  KeyframeSelection selection;
  selection.is_keyframe.assign(scene.images.size(), 1);
  if (options.min_parallax_deg <= 0 || order.empty()) {
    selection.num_keyframes = static_cast<int>(order.size());
    return selection;
  }
  for (int id : order) selection.is_keyframe[id] = 0;
  std::vector<int> keypoint_in_key(tracks.tracks.size(), -1);
  int key_tracks = 0;
  int key_position = 0;
  const auto make_keyframe = [&](int position) {
    const int id = order[position];
    for (int track : tracks.track_of[order[key_position]]) {
      if (track != kInvalidId) keypoint_in_key[track] = -1;
    }
    selection.is_keyframe[id] = 1;
    ++selection.num_keyframes;
    key_position = position;
    key_tracks = 0;
    const std::vector<int>& track_of = tracks.track_of[id];
    for (size_t k = 0; k < track_of.size(); ++k) {
      if (track_of[k] == kInvalidId) continue;
      keypoint_in_key[track_of[k]] = static_cast<int>(k);
      ++key_tracks;
    }
  };
  make_keyframe(0);
  std::vector<Eigen::Vector3d> key_rays, rays;
  for (int position = 1; position < static_cast<int>(order.size()); ++position) {
    const int id = order[position];
    SharedRays(scene, tracks, order[key_position], keypoint_in_key, id, &key_rays, &rays);
    const int shared = static_cast<int>(rays.size());
    if (shared < options.min_shared_tracks || shared < options.min_shared_fraction * key_tracks) {
      if (position - 1 == key_position) {
        make_keyframe(position);
        continue;
      }
      make_keyframe(position - 1);
      SharedRays(scene, tracks, order[key_position], keypoint_in_key, id, &key_rays, &rays);
      if (static_cast<int>(rays.size()) < options.min_shared_tracks) {
        make_keyframe(position);
        continue;
      }
    }
    const double parallax = ParallaxDeg(key_rays, rays);
    PROJ_LOG(kDebug, "keyframes: '" << scene.images[id].name << "' against '"
                                    << scene.images[order[key_position]].name << "': " << rays.size()
                                    << " shared tracks, parallax " << parallax << " deg");
    if (parallax >= options.min_parallax_deg) make_keyframe(position);
  }
  return selection;
}

bool KeyframeElements(const Scene& scene, const std::vector<TrackElement>& track,
                      std::vector<TrackElement>* keyframe_elements) {
  const auto in_keyframe = [&](const TrackElement& e) { return scene.images[e.image_id].keyframe; };
  if (std::all_of(track.begin(), track.end(), in_keyframe)) return true;
  keyframe_elements->clear();
  for (const TrackElement& e : track) {
    if (in_keyframe(e)) keyframe_elements->push_back(e);
  }
  return false;
}

}  // namespace proj
