#include "sfm/mapper/principal_point_rule.h"

#include <gtest/gtest.h>

#include "tests/sfm/ba/synthetic_scene.h"

namespace proj {
namespace {

// One pinhole camera; images on a 120-degree arc around a box of points.
Scene ArcScene(int num_images, int num_points) {
  testing::SyntheticSceneOptions options;
  options.num_images = num_images;
  options.num_points = num_points;
  options.camera_models = {CameraModelId::kPinhole};
  return testing::MakeSyntheticScene(options);
}

TEST(PrincipalPointRule, MeasuresTheViewsOfEachCamera) {
  const Scene scene = ArcScene(10, 600);
  const PrincipalPointEvidence evidence = MeasurePrincipalPointEvidence(scene, 0);
  EXPECT_EQ(evidence.num_images, 10);
  EXPECT_NEAR(evidence.viewing_spread_deg, 120, 1);  // the arc's ends
  EXPECT_GT(evidence.median_points_per_image, 300);
  EXPECT_LE(evidence.median_points_per_image, 600);
  EXPECT_GT(evidence.median_triangulation_angle_deg, 30);
  EXPECT_TRUE(PrincipalPointConstrained(evidence, PrincipalPointRule()));
  EXPECT_EQ(CamerasWithConstrainedPrincipalPoint(scene, PrincipalPointRule()), std::set<int>{0});
}

TEST(PrincipalPointRule, UnregisteredImagesAndOtherCamerasDoNotCount) {
  Scene scene = ArcScene(10, 600);
  for (int i = 6; i < 10; ++i) scene.images[i].registered = false;
  EXPECT_EQ(MeasurePrincipalPointEvidence(scene, 0).num_images, 6);
  EXPECT_EQ(MeasurePrincipalPointEvidence(scene, 1).num_images, 0);
  scene.images[5].registered = false;
  EXPECT_FALSE(PrincipalPointConstrained(MeasurePrincipalPointEvidence(scene, 0), PrincipalPointRule()));
}

TEST(PrincipalPointRule, EachConditionCanRefuse) {
  PrincipalPointEvidence good;
  good.num_images = 11;
  good.median_points_per_image = 1500;
  good.viewing_spread_deg = 60;
  good.median_triangulation_angle_deg = 10;
  const PrincipalPointRule rule;
  EXPECT_TRUE(PrincipalPointConstrained(good, rule));
  PrincipalPointEvidence few_images = good;
  few_images.num_images = 5;
  PrincipalPointEvidence few_points = good;
  few_points.median_points_per_image = 100;
  PrincipalPointEvidence same_direction = good;
  same_direction.viewing_spread_deg = 10;
  PrincipalPointEvidence narrow_baseline = good;
  narrow_baseline.median_triangulation_angle_deg = 2;
  for (const PrincipalPointEvidence& bad : {few_images, few_points, same_direction, narrow_baseline}) {
    EXPECT_FALSE(PrincipalPointConstrained(bad, rule)) << bad.ToString();
  }
  // A sparse scene: too few points per image.
  EXPECT_FALSE(PrincipalPointConstrained(MeasurePrincipalPointEvidence(ArcScene(10, 150), 0), rule));
}

TEST(PrincipalPointRule, PlausibleOnlyNearTheImageCentre) {
  Camera camera = Camera::FromFocal(CameraModelId::kPinhole, 3072, 2048, 2760);
  const PrincipalPointRule rule;
  EXPECT_TRUE(PrincipalPointPlausible(camera, rule));
  const std::vector<int> pp = camera.PrincipalPointIndices();
  camera.params[pp[0]] = 1536 - 15.3;  // Strecha's offset
  camera.params[pp[1]] = 1024 - 17.2;
  EXPECT_TRUE(PrincipalPointPlausible(camera, rule));
  camera.params[pp[0]] = 1536 + 0.06 * 3072;
  EXPECT_FALSE(PrincipalPointPlausible(camera, rule));
  camera.params[pp[0]] = 1536;
  camera.params[pp[1]] = 1024 - 0.06 * 2048;
  EXPECT_FALSE(PrincipalPointPlausible(camera, rule));
}

TEST(PrincipalPointRule, MeanPointErrorIsZeroForExactKeypoints) {
  Scene scene = ArcScene(6, 100);
  EXPECT_NEAR(MeanPointError(scene), 0, 1e-6);
  // Moving the principal point by 2 px moves every projection by 2 px.
  scene.cameras[0].params[scene.cameras[0].PrincipalPointIndices()[0]] += 2;
  EXPECT_NEAR(MeanPointError(scene), 2, 1e-6);
}

TEST(PrincipalPointRule, RefinementMustLowerTheErrorByHalfAPercent) {
  const PrincipalPointRule rule;
  EXPECT_TRUE(PrincipalPointErrorReducedEnough(0.303646, 0.287879, rule));   // fountain-P11: 5.2%
  EXPECT_TRUE(PrincipalPointErrorReducedEnough(0.336928, 0.331953, rule));   // Herz-Jesus-P8: 1.5%
  EXPECT_FALSE(PrincipalPointErrorReducedEnough(0.128501, 0.128431, rule));  // synthetic: 0.05%
  EXPECT_FALSE(PrincipalPointErrorReducedEnough(0.3, 0.31, rule));           // grew
}

}  // namespace
}  // namespace proj
