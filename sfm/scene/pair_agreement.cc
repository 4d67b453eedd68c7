#include "sfm/scene/pair_agreement.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/check.h"
#include "core/parallel_for.h"
#include "geometry/solvers/epipolar_residuals.h"
#include "geometry/solvers/essential_decomposition.h"

namespace proj {
namespace {

// The share of `pair`'s matches more than limit_px off the model's epipolar geometry.
double DisagreeingShare(const Scene& scene, const VerifiedPair& pair, double limit_px) {
  const SceneImage& image1 = scene.images[pair.pair.image1];
  const SceneImage& image2 = scene.images[pair.pair.image2];
  const Camera& camera1 = scene.cameras[image1.camera_id];
  const Camera& camera2 = scene.cameras[image2.camera_id];
  const Rigid3d cam2_from_cam1 = image2.cam_from_world * image1.cam_from_world.Inverse();
  const Eigen::Matrix3d rotation = cam2_from_cam1.rotation.toRotationMatrix();
  const double baseline = cam2_from_cam1.translation.norm();
  const double scale =
      std::max({1.0, image1.cam_from_world.translation.norm(), image2.cam_from_world.translation.norm()});
  // Sampson distances in normalized coordinates scale to pixels by the focal length.
  const double limit = limit_px / std::sqrt(camera1.MeanFocal() * camera2.MeanFocal());
  const double limit_squared = limit * limit;
  // Two images at one centre (a stop) have no epipolar geometry: their matches map by the
  // rotation alone.
  const bool one_centre = baseline <= 1e-12 * scale;
  const Eigen::Matrix3d relation =  // the rotation, or E
      one_centre ? rotation
                 : EssentialMatrixFromPose(Rigid3d(cam2_from_cam1.rotation, cam2_from_cam1.translation / baseline));
  const auto& matches = pair.geometry.inlier_matches;
  int disagreeing = 0;
  for (const FeatureMatch& match : matches) {
    const Eigen::Vector2d x1 = camera1.PixelToNormalized(image1.keypoints[match.index1]);
    const Eigen::Vector2d x2 = camera2.PixelToNormalized(image2.keypoints[match.index2]);
    const double error = one_centre ? HomographyTransferSquaredError(relation, x1, x2)
                                    : SampsonSquaredError(relation, x1, x2);
    disagreeing += error > limit_squared;
  }
  return matches.empty() ? 0 : static_cast<double>(disagreeing) / matches.size();
}

}  // namespace

void PairAgreementOptions::Check() const {
  PROJ_REQUIRE(strong_pair_share > 0 && strong_pair_share <= 1,
               "PairAgreementOptions.strong_pair_share must be in (0, 1]");
  PROJ_REQUIRE(min_strong_pair_matches >= 1, "PairAgreementOptions.min_strong_pair_matches must be >= 1");
  PROJ_REQUIRE(max_epipolar_error_px > 0, "PairAgreementOptions.max_epipolar_error_px must be > 0");
  PROJ_REQUIRE(max_disagreeing_share >= 0 && max_disagreeing_share < 1,
               "PairAgreementOptions.max_disagreeing_share must be in [0, 1)");
  PROJ_REQUIRE(min_contradicted_pairs >= 1, "PairAgreementOptions.min_contradicted_pairs must be >= 1");
  PROJ_REQUIRE(max_contradicted_share >= 0 && max_contradicted_share < 1,
               "PairAgreementOptions.max_contradicted_share must be in [0, 1)");
  PROJ_REQUIRE(num_named_pairs >= 0, "PairAgreementOptions.num_named_pairs must be >= 0");
}

PairAgreement MeasurePairAgreement(const PairAgreementOptions& options, const Scene& scene,
                                   const std::vector<VerifiedPair>& pairs) {
  PairAgreement agreement;
  // Each image's best pair, over all its pairs (registered or not: a pair is weak against
  // what the image shares with any other).
  std::vector<size_t> best(scene.images.size(), 0);
  for (const VerifiedPair& pair : pairs) {
    const size_t count = pair.geometry.inlier_matches.size();
    best[pair.pair.image1] = std::max(best[pair.pair.image1], count);
    best[pair.pair.image2] = std::max(best[pair.pair.image2], count);
  }
  std::vector<const VerifiedPair*> strong;
  for (const VerifiedPair& pair : pairs) {
    const SceneImage& image1 = scene.images[pair.pair.image1];
    const SceneImage& image2 = scene.images[pair.pair.image2];
    const double count = static_cast<double>(pair.geometry.inlier_matches.size());
    if (!image1.registered || !image2.registered || count < options.min_strong_pair_matches) continue;
    if (count < options.strong_pair_share * std::min(best[pair.pair.image1], best[pair.pair.image2])) continue;
    strong.push_back(&pair);
  }
  agreement.num_strong_pairs = static_cast<int>(strong.size());
  agreement.checked = !strong.empty();
  std::vector<double> shares(strong.size());
  ParallelFor(0, static_cast<int>(strong.size()), 0, [&](int i, int) {
    shares[i] = DisagreeingShare(scene, *strong[i], options.max_epipolar_error_px);
  });
  std::vector<int> contradicted;
  for (size_t i = 0; i < strong.size(); ++i) {
    if (shares[i] > options.max_disagreeing_share) contradicted.push_back(static_cast<int>(i));
  }
  agreement.num_contradicted_pairs = static_cast<int>(contradicted.size());
  agreement.within_limits = agreement.num_contradicted_pairs < options.min_contradicted_pairs ||
                            agreement.num_contradicted_pairs <= options.max_contradicted_share * strong.size();
  std::sort(contradicted.begin(), contradicted.end(), [&](int a, int b) {
    return shares[a] != shares[b] ? shares[a] > shares[b] : a < b;
  });
  for (size_t k = 0; k < contradicted.size() && static_cast<int>(k) < options.num_named_pairs; ++k) {
    const VerifiedPair& pair = *strong[contradicted[k]];
    std::ostringstream text;
    text << scene.images[pair.pair.image1].name << " - " << scene.images[pair.pair.image2].name << " ("
         << std::lround(100 * shares[contradicted[k]]) << "% of " << pair.geometry.inlier_matches.size()
         << " matches off)";
    agreement.worst_pairs.push_back(text.str());
  }
  return agreement;
}

}  // namespace proj
