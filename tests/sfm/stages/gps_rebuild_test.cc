// The GPS-constrained second mapping (sfm/stages/gps_rebuild.h) on the mappers' exact
// synthetic arc with GPS at the true centres: given a first model that disagreed with its GPS,
// it builds one that agrees and returns it; given a first model that already fitted its
// images far better, it keeps that one.
#include "sfm/stages/gps_rebuild.h"

#include <gtest/gtest.h>

#include "tests/sfm/mapper/mapper_test_scene.h"

namespace proj {
namespace {

struct ArcWithGps {
  testing::MapperTestScene test;
  Scene unmapped;
};

ArcWithGps MakeArcWithGps() {
  ArcWithGps arc{testing::MakeMapperTestScene(testing::SmallMapperScene()), {}};
  arc.unmapped = arc.test.input;
  for (int i = 0; i < static_cast<int>(arc.test.truth.images.size()); ++i) {
    arc.unmapped.position_priors[i] =
        PositionPrior{arc.test.truth.images[i].cam_from_world.Center(), Eigen::Vector3d::Constant(0.05)};
  }
  return arc;
}

ReconstructionOptions CpuOptions() {
  ReconstructionOptions options;
  options.mapper.num_threads = 1;
  options.mapper.priors.max_error_m = 0.5;
  return options;
}

// What a first, folded model's self-check said: far from its GPS.
ModelQuality FoldedFirstAttempt(double reprojection_error_px) {
  ModelQuality first;
  first.num_registered = 10;
  first.verdict = QualityVerdict::kFailed;
  first.reasons = {"the cameras lie a median 29 m from their 12 GPS fixes"};
  first.gps.checked = true;
  first.gps.median_m = 29;
  first.mean_reprojection_error_px = reprojection_error_px;
  return first;
}

TEST(GpsRebuild, ReplacesAModelThatDisagreedWithItsGps) {
  const ArcWithGps arc = MakeArcWithGps();
  const std::optional<GpsRebuild> rebuilt =
      RebuildWithGps(CpuOptions(), arc.test.tracks, arc.test.pairs, arc.unmapped, FoldedFirstAttempt(1.0));
  ASSERT_TRUE(rebuilt.has_value());
  EXPECT_EQ(rebuilt->quality.verdict, QualityVerdict::kGood) << ::testing::PrintToString(rebuilt->quality.reasons);
  EXPECT_EQ(rebuilt->scene.NumRegisteredImages(), 12);
  EXPECT_TRUE(rebuilt->mapper.georeference.aligned);
  EXPECT_LT(rebuilt->quality.gps.median_m, 0.1);
  // Judged against the fixes as they were stated, not as tightened for the adjustments.
  EXPECT_EQ(rebuilt->scene.position_priors.at(0).sigma, Eigen::Vector3d::Constant(0.05));
}

// Cameras pulled onto wrong fixes agree with them at the price of their images: such a
// second model does not replace the first, however near the GPS; nor does a partial one.
TEST(GpsRebuild, ABetterVerdictDoesNotBuyAWorseFit) {
  const GpsRebuildOptions rebuild;
  const ModelQuality first = FoldedFirstAttempt(1.0);
  ModelQuality rebuilt;
  rebuilt.num_registered = 12;
  rebuilt.gps.median_m = 3;
  rebuilt.mean_reprojection_error_px = 1.4;
  EXPECT_TRUE(RebuildIsBetter(rebuild, rebuilt, first));
  rebuilt.mean_reprojection_error_px = 1.6;
  EXPECT_FALSE(RebuildIsBetter(rebuild, rebuilt, first));
  // The first's error counts as at least 0.1 px: 0.14 px after 0.01 px is no worse a fit.
  rebuilt.mean_reprojection_error_px = 0.14;
  EXPECT_TRUE(RebuildIsBetter(rebuild, rebuilt, FoldedFirstAttempt(0.01)));
  // Same verdict: nearer the GPS wins.
  rebuilt.mean_reprojection_error_px = 1.0;
  rebuilt.verdict = QualityVerdict::kFailed;
  rebuilt.gps.median_m = 30;
  EXPECT_FALSE(RebuildIsBetter(rebuild, rebuilt, first));
  rebuilt.gps.median_m = 20;
  EXPECT_TRUE(RebuildIsBetter(rebuild, rebuilt, first));
  // A partial model is nearer the GPS for the images it leaves out.
  rebuilt.num_registered = 8;
  EXPECT_FALSE(RebuildIsBetter(rebuild, rebuilt, first));
}

}  // namespace
}  // namespace proj
