// Every connected component mapped and written (model_components.h): two small synthetic
// rings with different worlds (seeds), whose images share no match, in one folder. Both
// mappers give two models, each holding its whole ring, as accurate against its truth as a
// ring mapped alone; OUT/models/1 and report.json's "components" list the second. A scene
// of one component (one ring) writes no models/ folder, and removes an earlier run's. A
// component whose GPS fixes no similarity fits (ring b geotagged with its fixes shuffled) is
// mapped once more with the GPS as a constraint, still fails its self-check and is not written.
#include <filesystem>

#include <gtest/gtest.h>

#include "core/logging.h"
#include "geometry/geodesy/local_enu_frame.h"
#include "io/strecha_camera.h"
#include "datasets/synthetic/synthetic_scene.h"
#include "sfm/database/scene_database.h"
#include "sfm/outputs/output_writer.h"
#include "sfm/pipeline/reconstruction_pipeline.h"
#include "sfm/scene/evaluation.h"
#include "sfm/stages/gps_priors.h"
#include "sfm/stages/input_stage.h"
#include "sfm/stages/mapping_stage.h"
#include "sfm/stages/pair_stage.h"
#include "tests/integration/cpu_pipeline_options.h"
#include "tests/support/test_data.h"

namespace proj {
namespace {

namespace fs = std::filesystem;

constexpr int kRingImages = 12;

// Two rings (640x480, focal 550 px as tests/integration/small_scene.h) rendered from worlds
// of seeds 1 and 2 into DIR/images as a_NNNN.jpg and b_NNNN.jpg, their truths in DIR/gt_a and
// DIR/gt_b.
std::string WriteTwoRings() {
  SetLogLevel(LogLevel::kWarning);
  const std::string dir = testing::MakeTempDir("two_components");
  fs::create_directories(dir + "/images");
  for (const auto& [prefix, seed] : {std::pair<std::string, uint64_t>{"a", 1}, {"b", 2}}) {
    SyntheticSceneOptions scene;
    scene.num_images = kRingImages;
    scene.width = 640;
    scene.height = 480;
    scene.focal_px = 550;
    scene.seed = seed;
    const std::string ring = dir + "/ring_" + prefix;
    WriteSyntheticScene(scene, ring);
    fs::create_directories(dir + "/gt_" + prefix);
    for (int i = 0; i < kRingImages; ++i) {
      const std::string name = SyntheticImageName(i);
      fs::copy_file(ring + "/images/" + name, dir + "/images/" + prefix + "_" + name);
      fs::copy_file(ring + "/gt_dense_cameras/" + name + ".camera",
                    dir + "/gt_" + prefix + "/" + prefix + "_" + name + ".camera");
    }
  }
  return dir;
}

// The ring whose images `scene` registered ("a" or "b"), checked to be one ring only.
std::string RingOf(const Scene& scene) {
  std::string ring;
  for (const SceneImage& image : scene.images) {
    if (!image.registered) continue;
    const std::string prefix = image.name.substr(0, 1);
    EXPECT_TRUE(ring.empty() || ring == prefix) << "a model holds images of both rings";
    ring = prefix;
  }
  return ring;
}

void ExpectWholeRingAccurate(const Scene& scene, const std::string& dir) {
  const std::string ring = RingOf(scene);
  ASSERT_FALSE(ring.empty());
  const PoseEvaluation evaluation = EvaluateAgainstGroundTruth(scene, dir + "/gt_" + ring);
  EXPECT_EQ(evaluation.num_registered, kRingImages) << "ring " << ring;
  // The ring's radius is 10 m; a ring mapped alone is within a few millimetres.
  EXPECT_LT(evaluation.median_position_error, 0.015) << "ring " << ring;
  EXPECT_LT(evaluation.max_rotation_error_deg, 0.2) << "ring " << ring;
}

// Ring b's images geotagged with the true centres of other images of the ring (1 m standard
// deviation): a ring of 10 m radius whose fixes no similarity brings its cameras onto.
void GeotagRingBShuffled(const std::string& dir, const std::string& database_path, const std::vector<int>& ids) {
  constexpr int kShuffle[kRingImages] = {5, 11, 2, 8, 0, 9, 3, 7, 1, 10, 4, 6};
  const LocalEnuConverter world(EnuFrame{46.8426, -91.994, 190.0});
  SceneDatabase database(database_path, SceneDatabase::Mode::kReadWrite);
  for (const DatabaseImage& image : database.ReadImages()) {
    if (image.name.rfind("b_", 0) != 0) continue;
    const int index = std::stoi(image.name.substr(2, 4));
    const std::string other = "b_" + SyntheticImageName(kShuffle[index]);
    const Wgs84Position p = world.Wgs84FromEnu(ReadStrechaCamera(dir + "/gt_b/" + other + ".camera").C);
    PosePrior prior;
    prior.coordinate_system = PosePrior::CoordinateSystem::kWgs84;
    prior.position = Eigen::Vector3d(p.latitude_deg, p.longitude_deg, p.altitude_m);
    database.WritePosePrior(image.image_id, prior);
    database.WriteImageCapture(image.image_id, ImageCapture{std::nullopt, VerticalDatum::kEllipsoid});
  }
  const GpsReview review =
      ReviewGpsPriors(testing::CpuPipelineOptions(MapperChoice::kIncremental).extraction.gps, ids, &database);
  ASSERT_EQ(review.num_with_gps, kRingImages);
}

ReconstructionResult Map(const ReconstructionOptions& options, const std::string& database_path,
                         const std::vector<int>& ids) {
  const SceneDatabase database(database_path, SceneDatabase::Mode::kReadOnly);
  ReconstructionResult result;
  AddStageSummary(RunMappingStage(options, ids, database), &result);
  return result;
}

// One test: under CTest each test is a process of its own, and the database is the cost.
TEST(Components, TwoRingsGiveTwoModelsOneRingOne) {
  const std::string dir = WriteTwoRings();
  const std::string database_path = dir + "/database.db";
  std::vector<int> ids, ring_a;
  {
    SceneDatabase database(database_path, SceneDatabase::Mode::kReadWrite);
    const ReconstructionOptions options = testing::CpuPipelineOptions(MapperChoice::kIncremental);
    ids = RunExtractionStage(options, dir + "/images", &database).image_ids;
    RunMatchingStages(options, ids, &database);
    for (const DatabaseImage& image : database.ReadImages()) {
      if (image.name.rfind("a_", 0) == 0) ring_a.push_back(image.image_id);
    }
  }
  ASSERT_EQ(ids.size(), 2u * kRingImages);
  const RunDescription run{dir + "/images", "cpu", "test"};
  for (MapperChoice mapper : {MapperChoice::kIncremental, MapperChoice::kGlobal}) {
    ReconstructionResult result = Map(testing::CpuPipelineOptions(mapper), database_path, ids);
    SCOPED_TRACE(result.mapper_name);
    ASSERT_TRUE(result.mapper.success) << result.mapper.failure_reason;
    EXPECT_EQ(result.scene.NumRegisteredImages(), kRingImages);
    ASSERT_EQ(result.components.size(), 1u);
    const ComponentModel& other = result.components.front();
    EXPECT_EQ(other.scene.NumRegisteredImages(), kRingImages);
    EXPECT_NE(RingOf(result.scene), RingOf(other.scene));
    ExpectWholeRingAccurate(result.scene, dir);
    ExpectWholeRingAccurate(other.scene, dir);

    const std::string out = dir + "/out_" + result.mapper_name;
    FinishReconstruction(run, out, 0, &result);
    EXPECT_TRUE(fs::exists(out + "/models/1/cameras.bin"));
    EXPECT_TRUE(fs::exists(out + "/models/1/images.txt"));
    EXPECT_FALSE(fs::exists(out + "/models/2"));
    const std::string report = testing::ReadTextFile(out + "/report.json");
    EXPECT_NE(report.find("{\"path\": \"models/1\", \"images\": 12,"), std::string::npos) << report;
    EXPECT_NE(report.find("{\"path\": \"model\", \"images\": 12,"), std::string::npos);
    EXPECT_NE(report.find("\"verdict\": \"good\", \"reasons\": [], \"rebuilt_with_gps\": false}"), std::string::npos);
    EXPECT_NE(report.find("\"rejected_components\": []"), std::string::npos);
    EXPECT_NE(testing::ReadTextFile(out + "/report.html").find("<td>models/1</td><td>12</td>"), std::string::npos);
  }

  // --all-components off: one model.
  ReconstructionOptions off = testing::CpuPipelineOptions(MapperChoice::kIncremental);
  off.components.enabled = false;
  const ReconstructionResult one_model = Map(off, database_path, ids);
  ASSERT_TRUE(one_model.mapper.success) << one_model.mapper.failure_reason;
  EXPECT_EQ(one_model.scene.NumRegisteredImages(), kRingImages);
  EXPECT_TRUE(one_model.components.empty());

  // One component (ring a alone) mapped into the incremental run's folder: its models/ goes.
  ReconstructionResult single = Map(testing::CpuPipelineOptions(MapperChoice::kIncremental), database_path, ring_a);
  ASSERT_TRUE(single.mapper.success) << single.mapper.failure_reason;
  EXPECT_EQ(single.scene.NumRegisteredImages(), kRingImages);
  EXPECT_TRUE(single.components.empty());
  const std::string out = dir + "/out_incremental";
  ASSERT_TRUE(fs::exists(out + "/models"));
  FinishReconstruction(run, out, 0, &single);
  EXPECT_TRUE(fs::exists(out + "/model/cameras.bin"));
  EXPECT_FALSE(fs::exists(out + "/models"));
  EXPECT_NE(testing::ReadTextFile(out + "/report.json").find("\"components\": [{\"path\": \"model\", \"images\": 12,"),
            std::string::npos);

  // Ring b's fixes shuffled: its model disagrees with them, also when mapped with them as a
  // constraint, and is not kept; ring a (no GPS) is the model. Both written, the rejection too.
  GeotagRingBShuffled(dir, database_path, ids);
  ReconstructionResult shuffled = Map(testing::CpuPipelineOptions(MapperChoice::kIncremental), database_path, ids);
  ASSERT_TRUE(shuffled.mapper.success) << shuffled.mapper.failure_reason;
  EXPECT_EQ(RingOf(shuffled.scene), "a");
  EXPECT_EQ(shuffled.quality.verdict, QualityVerdict::kGood);
  EXPECT_TRUE(shuffled.components.empty());
  ASSERT_EQ(shuffled.rejected_components.size(), 1u);
  const RejectedComponent& rejected = shuffled.rejected_components.front();
  EXPECT_EQ(rejected.image_ids.size(), static_cast<size_t>(kRingImages));
  EXPECT_GE(rejected.num_registered, 3);
  EXPECT_EQ(rejected.quality.verdict, QualityVerdict::kFailed);
  ASSERT_FALSE(rejected.quality.reasons.empty());
  const std::string rejected_out = dir + "/out_rejected";
  FinishReconstruction(run, rejected_out, 0, &shuffled);
  EXPECT_FALSE(fs::exists(rejected_out + "/models"));
  const std::string rejected_report = testing::ReadTextFile(rejected_out + "/report.json");
  EXPECT_NE(rejected_report.find("\"rejected_components\": [{\"images\": 12,"), std::string::npos) << rejected_report;
  EXPECT_NE(rejected_report.find("disagrees with the GPS"), std::string::npos) << rejected_report;
  const std::string page = testing::ReadTextFile(rejected_out + "/report.html");
  EXPECT_NE(page.find("<h2>Models</h2>"), std::string::npos);
  EXPECT_NE(page.find("Not kept"), std::string::npos);
}

}  // namespace
}  // namespace proj
