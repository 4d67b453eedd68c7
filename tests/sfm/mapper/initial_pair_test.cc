// Initial pair selection on pairs of known geometry, verified as the pipeline verifies them:
// the pair to start from is the wide-baseline one, not the one with the most matches.
#include "sfm/mapper/initial_pair.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "datasets/synthetic/random.h"
#include "tests/sfm/ba/synthetic_scene.h"
#include "tests/sfm/mapper/mapper_test_scene.h"

namespace proj {
namespace {

constexpr int kWidth = 1000, kHeight = 800;
constexpr double kFocal = 800;

// Image 0 at the origin looking along +z; image 1 one metre forward (forward motion, the
// most matches); image 2 turned 12 degrees about its centre (pure rotation); image 3 moved
// 3 m sideways and turned towards the points (wide baseline), seeing fewer of them.
struct PairScene {
  Scene scene;
  std::vector<VerifiedPair> pairs;
};

PairScene MakePairScene() {
  PairScene out;
  Scene& scene = out.scene;
  scene.cameras.push_back(Camera::FromFocal(CameraModelId::kPinhole, kWidth, kHeight, kFocal));
  const Eigen::Vector3d target(0, 0, 12);
  const std::vector<Rigid3d> poses = {
      testing::LookAt(Eigen::Vector3d::Zero(), target),
      testing::LookAt(Eigen::Vector3d(0, 0, 1), target + Eigen::Vector3d(0, 0, 1)),
      testing::LookAt(Eigen::Vector3d::Zero(), Eigen::Vector3d(12 * std::sin(0.21), 0, 12 * std::cos(0.21))),
      testing::LookAt(Eigen::Vector3d(3, 0, 0), target)};
  for (const Rigid3d& pose : poses) {
    SceneImage image;
    image.camera_id = 0;
    image.cam_from_world = pose;
    scene.images.push_back(image);
  }
  synthetic::Rng rng(7);
  std::vector<std::vector<int>> keypoint_of(poses.size());
  for (int p = 0; p < 1500; ++p) {
    const Eigen::Vector3d x(rng.Uniform(-8, 8), rng.Uniform(-5, 5), rng.Uniform(9, 20));
    for (size_t i = 0; i < poses.size(); ++i) {
      const Eigen::Vector3d in_cam = poses[i] * x;
      Eigen::Vector2d pixel = kFocal * in_cam.head<2>() / in_cam.z() + Eigen::Vector2d(kWidth / 2.0, kHeight / 2.0);
      const bool visible = in_cam.z() > 0 && pixel.x() > 0 && pixel.y() > 0 && pixel.x() < kWidth &&
                           pixel.y() < kHeight && (i != 3 || rng.Uniform() < 0.5);
      keypoint_of[i].push_back(visible ? static_cast<int>(scene.images[i].keypoints.size()) : -1);
      pixel += Eigen::Vector2d(rng.Uniform(-0.3, 0.3), rng.Uniform(-0.3, 0.3));
      if (visible) scene.images[i].keypoints.push_back(pixel);
    }
  }
  // Priors 20% off the true focal length, as when EXIF is missing.
  Scene priors = scene;
  priors.cameras[0] = Camera::FromFocal(CameraModelId::kPinhole, kWidth, kHeight, 1.2 * kFocal);
  for (int j = 1; j < static_cast<int>(poses.size()); ++j) {
    std::vector<FeatureMatch> matches;
    for (size_t p = 0; p < keypoint_of[0].size(); ++p) {
      if (keypoint_of[0][p] >= 0 && keypoint_of[j][p] >= 0) matches.push_back({keypoint_of[0][p], keypoint_of[j][p]});
    }
    VerifiedPair pair;
    pair.pair = {0, j};
    pair.geometry = EstimateTwoViewGeometry(TwoViewGeometryOptions(), priors.cameras[0], scene.images[0].keypoints,
                                            priors.cameras[0], scene.images[j].keypoints, matches);
    out.pairs.push_back(pair);
  }
  out.scene = priors;
  return out;
}

TEST(InitialPair, WideBaselineIsChosenOverForwardMotionAndRotation) {
  const PairScene test = MakePairScene();
  const VerifiedPair& forward = test.pairs[0];
  const VerifiedPair& rotation = test.pairs[1];
  const VerifiedPair& wide = test.pairs[2];
  // The forward pair has the most matches: ranking by count would start from it.
  ASSERT_GT(forward.geometry.inlier_matches.size(), wide.geometry.inlier_matches.size());
  EXPECT_EQ(rotation.geometry.configuration, TwoViewConfiguration::kPanoramic);

  const InitialPairScore forward_score = ScoreInitialPair(forward, test.scene, 16);
  const InitialPairScore wide_score = ScoreInitialPair(wide, test.scene, 16);
  EXPECT_LT(forward_score.median_angle_deg, 3);
  EXPECT_GT(wide_score.median_angle_deg, 10);
  EXPECT_EQ(ScoreInitialPair(rotation, test.scene, 16).score, 0);

  const std::vector<const VerifiedPair*> candidates = InitialPairCandidates(test.pairs, test.scene, 16, 40);
  ASSERT_EQ(candidates.size(), 2u);  // never the rotation
  EXPECT_EQ(candidates[0], &wide);
  EXPECT_EQ(candidates[1], &forward);
}

TEST(InitialPair, OnlyPairsOfAllowedImagesAreCandidates) {
  const PairScene test = MakePairScene();
  // Image 3 (the wide pair's) not allowed: only the forward pair remains.
  const std::vector<char> allowed = {1, 1, 1, 0};
  const std::vector<const VerifiedPair*> candidates =
      InitialPairCandidates(test.pairs, test.scene, 16, 40, nullptr, true, &allowed);
  ASSERT_EQ(candidates.size(), 1u);
  EXPECT_EQ(candidates[0], &test.pairs[0]);
}

TEST(InitialPair, PairsWithTooFewInliersAreNoCandidates) {
  // A nadir survey: far-apart general pairs with a few inliers each must not crowd the
  // overlapping neighbours out of the list.
  const PairScene test = MakePairScene();
  const int wide_inliers = static_cast<int>(test.pairs[2].geometry.inlier_matches.size());
  ASSERT_GT(static_cast<int>(test.pairs[0].geometry.inlier_matches.size()), wide_inliers);
  const std::vector<const VerifiedPair*> candidates =
      InitialPairCandidates(test.pairs, test.scene, 16, 40, nullptr, true, nullptr, wide_inliers + 1);
  ASSERT_EQ(candidates.size(), 1u);
  EXPECT_EQ(candidates[0], &test.pairs[0]);
  EXPECT_EQ(InitialPairCandidates(test.pairs, test.scene, 16, 40, nullptr, true, nullptr, wide_inliers).size(), 2u);
}

TEST(InitialPair, PairsWithoutPoseRankBehindEqualPairsWithWideAngles) {
  PairScene test = MakePairScene();
  VerifiedPair no_pose = test.pairs[2];
  no_pose.geometry.has_relative_pose = false;
  const InitialPairScore with = ScoreInitialPair(test.pairs[2], test.scene, 16);
  const InitialPairScore without = ScoreInitialPair(no_pose, test.scene, 16);
  EXPECT_EQ(without.median_angle_deg, -1);
  EXPECT_LT(without.score, with.score);
  EXPECT_GT(without.score, 0);
}

// The ranking InitialPairCandidates must give: every pair scored, general pairs before planar
// ones, best score first (ties: more inliers, then input order).
std::vector<const VerifiedPair*> ExhaustiveRanking(const std::vector<VerifiedPair>& pairs, const Scene& scene,
                                                   double wanted_angle_deg, size_t max_candidates) {
  struct Scored {
    const VerifiedPair* pair;
    InitialPairScore score;
  };
  std::vector<Scored> scored;
  for (const VerifiedPair& pair : pairs) {
    const InitialPairScore score = ScoreInitialPair(pair, scene, wanted_angle_deg);
    if (score.score > 0) scored.push_back({&pair, score});
  }
  auto planar = [](const Scored& s) { return s.pair->geometry.configuration == TwoViewConfiguration::kPlanar; };
  std::stable_sort(scored.begin(), scored.end(), [&](const Scored& a, const Scored& b) {
    if (planar(a) != planar(b)) return !planar(a);
    if (a.score.score != b.score.score) return a.score.score > b.score.score;
    return a.pair->geometry.inlier_matches.size() > b.pair->geometry.inlier_matches.size();
  });
  std::vector<const VerifiedPair*> ranking;
  for (size_t i = 0; i < scored.size() && i < max_candidates; ++i) ranking.push_back(scored[i].pair);
  return ranking;
}

TEST(InitialPair, CandidatesAreTheBestOfAllPairsWithoutScoringThemAll) {
  // 30 images on an arc: neighbours share many points at small angles, distant images few at
  // wide angles.
  testing::SyntheticSceneOptions options = testing::SmallMapperScene();
  options.num_images = 30;
  options.num_points = 3000;
  testing::MapperTestScene test = testing::MakeMapperTestScene(options);
  // Some planar pairs, which rank last whatever their score.
  for (size_t i = 0; i < test.pairs.size(); i += 7) {
    test.pairs[i].geometry.configuration = TwoViewConfiguration::kPlanar;
  }
  ASSERT_GT(test.pairs.size(), 300u);
  for (const double angle : {16.0, 4.0}) {
    for (const int max_candidates : {1, 5, 40}) {
      int num_scored = 0;
      const std::vector<const VerifiedPair*> candidates =
          InitialPairCandidates(test.pairs, test.input, angle, max_candidates, &num_scored);
      EXPECT_EQ(candidates, ExhaustiveRanking(test.pairs, test.input, angle, max_candidates))
          << "angle " << angle << ", " << max_candidates << " candidates";
      EXPECT_LT(num_scored, static_cast<int>(test.pairs.size()) / 2)
          << "angle " << angle << ", " << max_candidates << " candidates";
    }
  }
  // Asking for more candidates than there are general pairs fills up with planar ones, and
  // then every pair is scored.
  int num_scored = 0;
  const int all = static_cast<int>(test.pairs.size());
  EXPECT_EQ(InitialPairCandidates(test.pairs, test.input, 16, all, &num_scored),
            ExhaustiveRanking(test.pairs, test.input, 16, all));
  EXPECT_EQ(num_scored, all);
}

}  // namespace
}  // namespace proj
