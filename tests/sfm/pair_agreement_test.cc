#include "sfm/scene/pair_agreement.h"

#include <gtest/gtest.h>

#include "core/check.h"
#include "tests/sfm/mapper/mapper_test_scene.h"

namespace proj {
namespace {

// A 4 x 6 nadir grid: rows of 6 images, 15 m apart, every neighbour a strong pair.
testing::MapperTestScene Flight() {
  return testing::MakeMapperTestScene(testing::MakeNadirFlight(4, 6, 3000, 11));
}

TEST(PairAgreement, TheTrueModelContradictsNoPair) {
  const testing::MapperTestScene flight = Flight();
  const PairAgreement agreement = MeasurePairAgreement(PairAgreementOptions(), flight.truth, flight.pairs);
  EXPECT_TRUE(agreement.checked);
  EXPECT_GT(agreement.num_strong_pairs, 40);
  EXPECT_EQ(agreement.num_contradicted_pairs, 0);
  EXPECT_TRUE(agreement.Consistent());
}

// The last row's cameras pulled together to half their spacing, as a global positioning that
// shrinks a stretch leaves them: each pair within the row still agrees (its direction is
// kept), the pairs joining the row to the others do not.
TEST(PairAgreement, AShrunkStretchContradictsThePairsAcrossItsSeam) {
  const testing::MapperTestScene flight = Flight();
  Scene model = flight.truth;
  Eigen::Vector3d middle = Eigen::Vector3d::Zero();
  for (int i = 18; i < 24; ++i) middle += model.images[i].cam_from_world.Center() / 6;
  for (int i = 18; i < 24; ++i) {
    Rigid3d& pose = model.images[i].cam_from_world;
    const Eigen::Vector3d center = middle + 0.5 * (pose.Center() - middle);
    pose.translation = -(pose.rotation * center);
  }
  const PairAgreement agreement = MeasurePairAgreement(PairAgreementOptions(), model, flight.pairs);
  EXPECT_GE(agreement.num_contradicted_pairs, 6);
  EXPECT_FALSE(agreement.Consistent());
  ASSERT_FALSE(agreement.worst_pairs.empty());
  EXPECT_LE(agreement.worst_pairs.size(), 5u);
  EXPECT_NE(agreement.worst_pairs.front().find("% of "), std::string::npos) << agreement.worst_pairs.front();
  // Only pairs across the seam: one image in the shrunk row, one outside.
  for (const VerifiedPair& pair : flight.pairs) {
    if ((pair.pair.image1 >= 18) != (pair.pair.image2 >= 18)) continue;
    const std::vector<VerifiedPair> one = {pair};
    EXPECT_EQ(MeasurePairAgreement(PairAgreementOptions(), model, one).num_contradicted_pairs, 0)
        << pair.pair.image1 << "-" << pair.pair.image2;
  }
}

// A pair of repeated structure (matches that fit no geometry) is weak beside the images'
// true neighbours: the right model contradicts it without being called wrong.
TEST(PairAgreement, WeakWrongPairsAreNotCounted) {
  testing::MapperTestScene flight = Flight();
  VerifiedPair wrong;
  wrong.pair = {0, 23};
  for (int k = 0; k < 40; ++k) wrong.geometry.inlier_matches.push_back({(k * 7) % 50, (k * 13 + 5) % 60});
  flight.pairs.push_back(wrong);
  const PairAgreement agreement = MeasurePairAgreement(PairAgreementOptions(), flight.truth, flight.pairs);
  EXPECT_EQ(agreement.num_contradicted_pairs, 0);
  // Counted when everything with 30 matches counts as strong.
  PairAgreementOptions all;
  all.strong_pair_share = 1e-6;
  EXPECT_EQ(MeasurePairAgreement(all, flight.truth, flight.pairs).num_contradicted_pairs, 1);
}

// Two images from one centre (a car at a stop, turning its head) have no epipolar geometry:
// their matches are checked by the rotation, and a wrong rotation is found.
TEST(PairAgreement, ImagesAtOneCentreAreCheckedByTheirRotation) {
  testing::MapperTestScene flight = Flight();
  Scene& truth = flight.truth;
  const Eigen::Vector3d center = truth.images[0].cam_from_world.Center();
  SceneImage turned = truth.images[0];
  turned.name = "turned.jpg";
  const Eigen::Quaterniond rotation(Eigen::AngleAxisd(0.05, Eigen::Vector3d::UnitZ()) *
                                    truth.images[0].cam_from_world.rotation);
  turned.cam_from_world = Rigid3d(rotation, -(rotation * center));
  const Camera& camera = truth.cameras[turned.camera_id];
  VerifiedPair pair;
  pair.pair = {0, static_cast<int>(truth.images.size())};
  for (size_t k = 0; k < turned.keypoints.size(); ++k) {
    // Through the ray of the first image's keypoint: exact whatever the depth.
    const Eigen::Vector2d ray = camera.PixelToNormalized(truth.images[0].keypoints[k]);
    const Eigen::Vector3d world = truth.images[0].cam_from_world.Inverse() * Eigen::Vector3d(ray.x(), ray.y(), 1);
    Eigen::Vector2d uv;
    if (!camera.Project(turned.cam_from_world * world, &uv)) continue;
    turned.keypoints[k] = uv;
    pair.geometry.inlier_matches.push_back({static_cast<int>(k), static_cast<int>(k)});
  }
  truth.images.push_back(turned);
  const std::vector<VerifiedPair> pairs = {pair};
  EXPECT_EQ(MeasurePairAgreement(PairAgreementOptions(), truth, pairs).num_contradicted_pairs, 0);
  truth.images.back().cam_from_world.rotation = truth.images[0].cam_from_world.rotation;  // not turned
  truth.images.back().cam_from_world.translation = truth.images[0].cam_from_world.translation;
  EXPECT_EQ(MeasurePairAgreement(PairAgreementOptions(), truth, pairs).num_contradicted_pairs, 1);
}

TEST(PairAgreement, OptionsAreChecked) {
  PairAgreementOptions options;
  options.Check();
  options.strong_pair_share = 0;
  EXPECT_THROW(options.Check(), InputError);
  options = PairAgreementOptions();
  options.max_disagreeing_share = 1;
  EXPECT_THROW(options.Check(), InputError);
  options = PairAgreementOptions();
  options.min_contradicted_pairs = 0;
  EXPECT_THROW(options.Check(), InputError);
}

}  // namespace
}  // namespace proj
