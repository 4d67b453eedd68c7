// Georeferencing at the pipeline's seam, for both mappers: a small synthetic ring whose
// images get GPS priors at their true centres (an ENU frame near Brighton Beach) maps to a
// model in that frame, with the alignment in the summary that the georeferenced outputs read,
// whether the incremental or the global mapper built it. And GeoreferenceModel on its own:
// a model no mapper aligned is aligned; a failed attempt keeps the mapper's alignment.
#include <filesystem>

#include <gtest/gtest.h>

#include "io/strecha_camera.h"
#include "sfm/database/scene_database.h"
#include "sfm/outputs/georeferenced_outputs.h"
#include "sfm/pipeline/reconstruction_pipeline.h"
#include "sfm/stages/georeference_priors.h"
#include "sfm/stages/gps_priors.h"
#include "sfm/stages/input_stage.h"
#include "sfm/stages/mapping_stage.h"
#include "sfm/stages/pair_stage.h"
#include "tests/integration/small_scene.h"
#include "tests/integration/cpu_pipeline_options.h"
#include "tests/sfm/ba/synthetic_scene.h"

namespace proj {
namespace {

// The ring's world frame, placed at a WGS84 origin (ellipsoidal heights).
const EnuFrame kWorld{46.8426, -91.994, 190.0};

// Extracts the ring into `database_path` and gives every image a WGS84 prior at its true
// centre (1 m standard deviation), as GPS would; returns the true centres by image name.
std::map<std::string, Eigen::Vector3d> ExtractWithPriors(const ReconstructionOptions& options,
                                                         const std::string& dir,
                                                         const std::string& database_path) {
  SceneDatabase database(database_path, SceneDatabase::Mode::kReadWrite);
  const std::vector<int> ids = RunExtractionStage(options, dir + "/images", &database).image_ids;
  const LocalEnuConverter world(kWorld);
  std::map<std::string, Eigen::Vector3d> truth;
  for (const DatabaseImage& image : database.ReadImages()) {
    const StrechaCamera camera = ReadStrechaCamera(dir + "/gt_dense_cameras/" + image.name + ".camera");
    truth[image.name] = camera.C;
    const Wgs84Position p = world.Wgs84FromEnu(camera.C);
    PosePrior prior;
    prior.coordinate_system = PosePrior::CoordinateSystem::kWgs84;
    prior.position = Eigen::Vector3d(p.latitude_deg, p.longitude_deg, p.altitude_m);
    database.WritePosePrior(image.image_id, prior);
    database.WriteImageCapture(image.image_id, ImageCapture{std::nullopt, VerticalDatum::kEllipsoid});
  }
  const GpsReview review = ReviewGpsPriors(options.extraction.gps, ids, &database);
  EXPECT_EQ(review.num_with_gps, static_cast<int>(ids.size()));
  return truth;
}

TEST(GeoreferencePipeline, BothMappersGiveAModelInTheGpsFrame) {
  const std::string dir = testing::WriteSmallRingScene("georeference_mappers", 12);
  const std::string database_path = dir + "/database.db";
  const std::map<std::string, Eigen::Vector3d> truth =
      ExtractWithPriors(testing::CpuPipelineOptions(MapperChoice::kIncremental), dir, database_path);
  for (MapperChoice mapper : {MapperChoice::kIncremental, MapperChoice::kGlobal}) {
    const ReconstructionOptions options = testing::CpuPipelineOptions(mapper);
    SceneDatabase database(database_path, SceneDatabase::Mode::kReadWrite);
    ReconstructionResult result;
    std::vector<int> ids;
    for (const DatabaseImage& image : database.ReadImages()) ids.push_back(image.image_id);
    AddStageSummary(RunMatchingStages(options, ids, &database), &result);
    AddStageSummary(RunMappingStage(options, ids, database), &result);
    SCOPED_TRACE(result.mapper_name);
    ASSERT_TRUE(result.mapper.success) << result.mapper.failure_reason;
    EXPECT_EQ(result.scene.NumRegisteredImages(), 12);
    ASSERT_TRUE(IsGeoreferenced(result)) << result.mapper.georeference.failure_reason;
    EXPECT_LT(result.mapper.georeference.inlier_rms_m, 0.05);
    EXPECT_EQ(result.quality.verdict, QualityVerdict::kGood) << ::testing::PrintToString(result.quality.reasons);
    EXPECT_FALSE(result.rebuilt_with_gps);
    // Centres in the stored ENU frame, where the priors are: the world's, through WGS84.
    const LocalEnuConverter world(kWorld), frame(*result.enu_frame);
    for (const SceneImage& image : result.scene.images) {
      if (!image.registered) continue;
      const Eigen::Vector3d expected = frame.EnuFromWgs84(world.Wgs84FromEnu(truth.at(image.name)));
      EXPECT_LT((image.cam_from_world.Center() - expected).norm(), 0.05) << image.name;
    }
  }
}

// A model in an arbitrary frame, with exact priors in another: the scene of
// tests/sfm/ba/synthetic_scene.h moved by a similarity.
Scene SceneAwayFromItsPriors() {
  testing::SyntheticSceneOptions options;
  options.num_images = 6;
  options.num_points = 100;
  Scene scene = testing::MakeSyntheticScene(options);
  for (int i = 0; i < 6; ++i) {
    PositionPrior prior;
    prior.position = scene.images[i].cam_from_world.Center();
    prior.sigma.setConstant(0.1);
    scene.position_priors[i] = prior;
  }
  TransformScene(Sim3d(0.2, Eigen::Quaterniond(Eigen::AngleAxisd(0.7, Eigen::Vector3d::UnitX())),
                       Eigen::Vector3d(5, -3, 1)),
                 &scene);
  return scene;
}

TEST(GeoreferencePipeline, SeamAlignsAModelTheMapperDidNot) {
  Scene scene = SceneAwayFromItsPriors();
  MapperSummary summary;
  summary.success = true;
  GeoreferenceModel(PriorAlignmentOptions(), 1, &scene, &summary);
  ASSERT_TRUE(summary.georeference.aligned) << summary.georeference.failure_reason;
  EXPECT_NEAR(summary.georeference.priors_from_model.scale, 5.0, 1e-6);
  EXPECT_LT(summary.georeference.inlier_rms_m, 1e-6);
  for (const auto& [id, prior] : scene.position_priors) {
    EXPECT_LT((scene.images[id].cam_from_world.Center() - prior.position).norm(), 1e-6);
  }
}

TEST(GeoreferencePipeline, SeamKeepsTheMappersAlignmentWhenItCannotAlign) {
  Scene scene = SceneAwayFromItsPriors();
  MapperSummary summary;
  summary.success = true;
  summary.georeference.aligned = true;
  summary.georeference.inlier_rms_m = 0.5;
  // Two registered images with priors left: too few to align again.
  for (int i = 2; i < 6; ++i) scene.images[i].registered = false;
  const Eigen::Vector3d before = scene.images[0].cam_from_world.Center();
  GeoreferenceModel(PriorAlignmentOptions(), 1, &scene, &summary);
  EXPECT_TRUE(summary.georeference.aligned);
  EXPECT_EQ(summary.georeference.inlier_rms_m, 0.5);
  EXPECT_LT((scene.images[0].cam_from_world.Center() - before).norm(), 1e-12);  // not moved
  // No model, or no priors: nothing happens.
  MapperSummary failed;
  GeoreferenceModel(PriorAlignmentOptions(), 1, &scene, &failed);
  EXPECT_FALSE(failed.georeference.aligned);
  scene.position_priors.clear();
  MapperSummary without;
  without.success = true;
  GeoreferenceModel(PriorAlignmentOptions(), 1, &scene, &without);
  EXPECT_FALSE(without.georeference.aligned);
}

}  // namespace
}  // namespace proj
