// --mapper auto's rule (mapper_choice.h) on scenes described by their images and GPS priors,
// its check of a global model, and the groups of images left for other components
// (model_components.h).
#include "sfm/stages/mapper_choice.h"

#include <gtest/gtest.h>

#include "sfm/stages/model_components.h"
#include "sfm/stages/reconstruction_options.h"

namespace proj {
namespace {

// `num_images` images, the first `num_with_gps` of them with a GPS prior.
Scene SceneWithGps(int num_images, int num_with_gps) {
  Scene scene;
  scene.images.resize(num_images);
  for (int i = 0; i < num_with_gps; ++i) scene.position_priors[i] = PositionPrior();
  return scene;
}

ReconstructionOptions Auto() {
  ReconstructionOptions options;
  options.mapper_choice = MapperChoice::kAuto;
  return options;
}

TEST(MapperChoice, ExplicitChoicesAreKept) {
  ReconstructionOptions options;
  options.mapper_choice = MapperChoice::kGlobal;
  EXPECT_TRUE(ChooseMapper(options, SceneWithGps(10, 0)).global);
  options.mapper_choice = MapperChoice::kIncremental;
  EXPECT_FALSE(ChooseMapper(options, SceneWithGps(10, 10)).global);
}

TEST(MapperChoice, AutoIsGlobalForUnorderedImagesWithGps) {
  const MapperDecision flight = ChooseMapper(Auto(), SceneWithGps(150, 150));
  EXPECT_TRUE(flight.global);
  EXPECT_NE(flight.reason.find("GPS on 150 of 150"), std::string::npos) << flight.reason;
  EXPECT_TRUE(ChooseMapper(Auto(), SceneWithGps(10, 5)).global);  // half: most enough
}

TEST(MapperChoice, AutoIsIncrementalWithoutGpsOnMostImages) {
  EXPECT_FALSE(ChooseMapper(Auto(), SceneWithGps(11, 0)).global);  // Strecha, object views
  EXPECT_FALSE(ChooseMapper(Auto(), SceneWithGps(10, 4)).global);
}

TEST(MapperChoice, AutoIsIncrementalOnOrderedInput) {
  ReconstructionOptions sequential = Auto();
  sequential.pair_selection.mode = PairSelection::kSequential;
  EXPECT_FALSE(ChooseMapper(sequential, SceneWithGps(56, 56)).global);
  ReconstructionOptions klt = Auto();
  klt.correspondences = CorrespondenceSource::kKltTracks;
  EXPECT_FALSE(ChooseMapper(klt, SceneWithGps(56, 56)).global);
}

TEST(MapperChoice, AutoHonoursTheMinimumImageCount) {
  ReconstructionOptions options = Auto();
  options.auto_mapper.min_images = 50;
  EXPECT_FALSE(ChooseMapper(options, SceneWithGps(40, 40)).global);
  EXPECT_TRUE(ChooseMapper(options, SceneWithGps(50, 50)).global);
}

ModelQuality Quality(int registered, double error_px, QualityVerdict verdict) {
  ModelQuality quality;
  quality.num_registered = registered;
  quality.mean_reprojection_error_px = error_px;
  quality.verdict = verdict;
  if (verdict != QualityVerdict::kGood) quality.reasons = {"the model disagrees with the GPS"};
  return quality;
}

TEST(MapperChoice, GlobalModelFaults) {
  const AutoMapperOptions options;
  MapperSummary built;
  built.success = true;
  EXPECT_EQ(GlobalModelFault(options, built, Quality(150, 0.5, QualityVerdict::kGood), 150), "");
  EXPECT_EQ(GlobalModelFault(options, built, Quality(135, 0.5, QualityVerdict::kGood), 150), "");  // 90%
  EXPECT_NE(GlobalModelFault(options, built, Quality(134, 0.5, QualityVerdict::kGood), 150).find("134 of the 150"),
            std::string::npos);
  EXPECT_NE(GlobalModelFault(options, built, Quality(150, 2.5, QualityVerdict::kGood), 150).find("2.5 px"),
            std::string::npos);
  EXPECT_NE(GlobalModelFault(options, built, Quality(150, 0.5, QualityVerdict::kFailed), 150).find("failed"),
            std::string::npos);
  MapperSummary none;
  none.failure_reason = "global positioning failed";
  EXPECT_NE(GlobalModelFault(options, none, ModelQuality(), 150).find("global positioning failed"),
            std::string::npos);
}

VerifiedPair Pair(int a, int b, int num_inliers = 50) {
  VerifiedPair pair;
  pair.pair = {a, b};
  pair.geometry.inlier_matches.resize(num_inliers);
  return pair;
}

TEST(ModelComponents, UnmodelledGroupsLargestFirst) {
  // Images 0-2 in the main model; 3-4 and 5-7 linked among themselves; 8 alone; the pair
  // 2-3 joins nothing (2 is modelled), the pair 4-5 has no inlier.
  std::vector<char> in_a_model = {1, 1, 1, 0, 0, 0, 0, 0, 0};
  const std::vector<VerifiedPair> pairs = {Pair(0, 1), Pair(1, 2), Pair(2, 3), Pair(3, 4),
                                           Pair(4, 5, 0), Pair(5, 6), Pair(6, 7)};
  const std::vector<std::vector<int>> groups = UnmodelledGroups(in_a_model, pairs);
  ASSERT_EQ(groups.size(), 3u);
  EXPECT_EQ(groups[0], (std::vector<int>{5, 6, 7}));
  EXPECT_EQ(groups[1], (std::vector<int>{3, 4}));
  EXPECT_EQ(groups[2], (std::vector<int>{8}));
}

TEST(ModelComponents, OptionsAreChecked) {
  ComponentOptions options;
  EXPECT_NO_THROW(options.Check());
  options.min_model_size = 1;
  EXPECT_THROW(options.Check(), std::exception);
  options = ComponentOptions();
  options.max_components = 0;
  EXPECT_THROW(options.Check(), std::exception);
}

}  // namespace
}  // namespace proj
