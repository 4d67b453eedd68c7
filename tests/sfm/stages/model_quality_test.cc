// The self-check of a model against its GPS (sfm/stages/model_quality.h) on constructed
// surveys: a right model is good; the two wrong models of issue 26 fail, whatever their
// reprojection error: a sparse survey whose wrong focal length squeezed the flight lines
// together (only one line agrees with the GPS, so the alignment is degenerate), and a model
// folded along the middle of the survey (half of it turned 60 degrees about a line).
#include "sfm/stages/model_quality.h"

#include <cmath>
#include <random>
#include <string>

#include <gtest/gtest.h>

#include "sfm/stages/georeference_priors.h"

namespace proj {
namespace {

constexpr int kLines = 4;
constexpr int kPerLine = 7;
constexpr double kLineSpacingM = 30;
constexpr double kStepM = 25;
constexpr double kAltitudeM = 80;

Eigen::Vector3d TrueCenter(int line, int k) { return {kLineSpacingM * line, kStepM * k, kAltitudeM}; }

// The survey's registered cameras at `centre_of(line, k)` (nadir), GPS fixes at the true centres
// plus noise (horizontal sigma, vertical twice), with that standard deviation stated.
template <typename CenterOf>
Scene MakeSurvey(double gps_sigma_m, uint64_t seed, const CenterOf& centre_of) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> noise(0.0, 1.0);
  Scene scene;
  for (int line = 0; line < kLines; ++line) {
    for (int k = 0; k < kPerLine; ++k) {
      SceneImage image;
      image.name = "line" + std::to_string(line) + "_" + std::to_string(k) + ".jpg";
      image.registered = true;
      const Eigen::Vector3d center = centre_of(line, k);
      image.cam_from_world = Rigid3d(Eigen::Quaterniond::Identity(), -center);
      const int id = static_cast<int>(scene.images.size());
      scene.images.push_back(image);
      const Eigen::Vector3d sigma(gps_sigma_m, gps_sigma_m, 2 * gps_sigma_m);
      const Eigen::Vector3d error(sigma.x() * noise(rng), sigma.y() * noise(rng), sigma.z() * noise(rng));
      scene.position_priors[id] = PositionPrior{TrueCenter(line, k) + error, sigma};
    }
  }
  return scene;
}

// A model in its own frame: 0.03 x the size, turned and moved, as a mapper leaves it.
Eigen::Vector3d InModelFrame(const Eigen::Vector3d& center) {
  const Eigen::Quaterniond turn(Eigen::AngleAxisd(1.1, Eigen::Vector3d(0.3, -1, 0.5).normalized()));
  return 0.03 * (turn * center) + Eigen::Vector3d(2, 1, -3);
}

// GeoreferenceModel as the mapping stage runs it, then the verdict.
ModelQuality Assess(Scene* scene) {
  MapperSummary summary;
  summary.success = true;
  GeoreferenceModel(PriorAlignmentOptions(), 7, scene, &summary);
  return AssessModelQuality(ModelQualityOptions(), *scene, summary, {});
}

// Whether every name is of an image of lines first..last.
bool AllOfLines(const std::vector<std::string>& names, int first, int last) {
  for (const std::string& name : names) {
    const int line = name.at(4) - '0';  // "lineL_K.jpg (D m)"
    if (line < first || line > last) return false;
  }
  return true;
}

TEST(ModelQuality, RightModelIsGood) {
  Scene scene = MakeSurvey(2.5, 1, [](int line, int k) { return InModelFrame(TrueCenter(line, k)); });
  const ModelQuality quality = Assess(&scene);
  EXPECT_EQ(quality.verdict, QualityVerdict::kGood) << ::testing::PrintToString(quality.reasons);
  EXPECT_TRUE(quality.reasons.empty());
  ASSERT_TRUE(quality.gps.checked);
  EXPECT_TRUE(quality.gps.Consistent());
  EXPECT_EQ(quality.gps.num_fixes, kLines * kPerLine);
  // Within twice the fixes' noise (per axis 2.5, 2.5, 5 m: an expected error of 3.5 m).
  EXPECT_NEAR(quality.gps.expected_error_m, std::sqrt((2.5 * 2.5 * 2 + 25) / 3), 1e-9);
  EXPECT_LT(quality.gps.median_m, 2 * quality.gps.expected_error_m);
  EXPECT_EQ(quality.num_registered, kLines * kPerLine);
}

// Issue 26's first case: a wrong focal length made the model's flight lines 4x too close and
// raised them (depth wrong with the focal); only the first line keeps its shape. The fixes
// that agree lie on that line: the alignment is refused, and the verdict fails.
TEST(ModelQuality, SqueezedSparseSurveyFails) {
  Scene scene = MakeSurvey(2.5, 2, [](int line, int k) {
    const Eigen::Vector3d squeezed(0.25 * kLineSpacingM * line, kStepM * k, kAltitudeM + 15 * line);
    return InModelFrame(squeezed);
  });
  const ModelQuality quality = Assess(&scene);
  EXPECT_EQ(quality.verdict, QualityVerdict::kFailed);
  ASSERT_TRUE(quality.gps.checked);
  EXPECT_FALSE(quality.gps.aligned);
  EXPECT_FALSE(quality.gps.Consistent());
  ASSERT_FALSE(quality.reasons.empty());
  EXPECT_NE(quality.reasons.front().find("GPS alignment was refused"), std::string::npos) << quality.reasons.front();
  EXPECT_EQ(quality.worst_images.size(), 5u);
  EXPECT_NE(quality.worst_images.front().find(" m)"), std::string::npos);
}

// Issue 26's second case: vision folded the survey between its second and third lines (the
// half beyond turned 60 degrees about the fold, as a two-fold ambiguity of weak pairs does).
TEST(ModelQuality, FoldedModelFails) {
  Scene scene = MakeSurvey(1.5, 3, [](int line, int k) {
    Eigen::Vector3d center = TrueCenter(line, k);
    if (line >= 2) {
      const Eigen::Vector3d hinge(1.5 * kLineSpacingM, 0, 0);
      center = hinge + Eigen::AngleAxisd(M_PI / 3, Eigen::Vector3d::UnitY()) * (center - hinge);
    }
    return InModelFrame(center);
  });
  const ModelQuality quality = Assess(&scene);
  EXPECT_EQ(quality.verdict, QualityVerdict::kFailed) << ::testing::PrintToString(quality.reasons);
  EXPECT_FALSE(quality.gps.Consistent());
  EXPECT_GT(quality.gps.median_m, quality.gps.limit_m);
  // The farthest images: those of the half the alignment did not follow, whichever it is.
  ASSERT_EQ(quality.worst_images.size(), 5u);
  EXPECT_TRUE(AllOfLines(quality.worst_images, 0, 1) || AllOfLines(quality.worst_images, 2, 3))
      << ::testing::PrintToString(quality.worst_images);
}

// A right model with 10 of its 28 fixes wrong (50 m off, each its own way): georeferenced by
// the 18, but suspect.
TEST(ModelQuality, ManyRejectedFixesMakeItSuspect) {
  Scene scene = MakeSurvey(1.0, 4, [](int line, int k) { return InModelFrame(TrueCenter(line, k)); });
  for (int i = 0; i < 10; ++i) {
    scene.position_priors[3 * i % 28].position += 50 * Eigen::Vector3d(std::cos(2.4 * i), std::sin(2.4 * i), 0);
  }
  const ModelQuality quality = Assess(&scene);
  EXPECT_EQ(quality.verdict, QualityVerdict::kSuspect) << ::testing::PrintToString(quality.reasons);
  EXPECT_TRUE(quality.gps.aligned);
  EXPECT_EQ(quality.gps.num_outliers, 10);
  ASSERT_EQ(quality.reasons.size(), 1u);
  EXPECT_NE(quality.reasons[0].find("10 of the 28 GPS fixes were rejected"), std::string::npos) << quality.reasons[0];
}

// A right model bent into a bowl, its edges 8 m below its centre against 0.5 m fixes (a lens'
// distortion held wrong on a nadir survey): every fix within the 10 m inlier bound, the median
// within the limit, yet suspect by the dome; the same bend within the fixes' noise is not.
TEST(ModelQuality, ABlockBentBeyondItsFixesIsSuspect) {
  const Eigen::Vector2d middle(kLineSpacingM * (kLines - 1) / 2, kStepM * (kPerLine - 1) / 2);
  const auto bent_by = [&](double edge_m) {
    return [=](int line, int k) {
      const Eigen::Vector3d centre = TrueCenter(line, k);
      const double r2 = (centre.head<2>() - middle).squaredNorm() / middle.squaredNorm();
      return InModelFrame(centre - Eigen::Vector3d(0, 0, edge_m * r2));
    };
  };
  Scene bent = MakeSurvey(0.5, 5, bent_by(8));
  const ModelQuality quality = Assess(&bent);
  EXPECT_EQ(quality.verdict, QualityVerdict::kSuspect) << ::testing::PrintToString(quality.reasons);
  ASSERT_TRUE(quality.dome.measured);
  EXPECT_LT(quality.dome.edge_m, -4);
  ASSERT_EQ(quality.reasons.size(), 1u);
  EXPECT_NE(quality.reasons[0].find("the block is bent against its GPS fixes"), std::string::npos) << quality.reasons[0];

  Scene slightly = MakeSurvey(0.5, 5, bent_by(0.5));
  EXPECT_EQ(Assess(&slightly).verdict, QualityVerdict::kGood);
}

TEST(ModelQuality, WithoutGpsTheChecksPass) {
  Scene scene = MakeSurvey(1.0, 5, [](int line, int k) { return InModelFrame(TrueCenter(line, k)); });
  scene.position_priors.clear();
  const ModelQuality quality = Assess(&scene);
  EXPECT_EQ(quality.verdict, QualityVerdict::kGood);
  EXPECT_FALSE(quality.gps.checked);
  EXPECT_TRUE(quality.gps.Consistent());
  EXPECT_STREQ(QualityVerdictName(QualityVerdict::kSuspect), "suspect");
}

TEST(ModelQuality, InvalidOptionsAreRejected) {
  ModelQualityOptions options;
  options.gps_max_outlier_share = 1.5;
  EXPECT_THROW(options.Check(), InputError);
}

}  // namespace
}  // namespace proj
