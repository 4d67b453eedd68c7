#include "sfm/mapper/incremental_mapper.h"

#include <cmath>
#include <cstring>
#include <numeric>

#include <gtest/gtest.h>

#include "sfm/mapper/scene_geometry.h"
#include "tests/sfm/mapper/mapper_test_scene.h"

namespace proj {
namespace {

testing::SyntheticSceneOptions SmallScene() { return testing::SmallMapperScene(); }

// The true scene mapped into the frame of an initial pair: image1 at the origin, unit
// baseline.
Eigen::Vector3d InPairFrame(const Scene& truth, int image1, int image2, const Eigen::Vector3d& x) {
  const Rigid3d& first = truth.images[image1].cam_from_world;
  const double baseline =
      (truth.images[image2].cam_from_world.Center() - first.Center()).norm();
  return (first * x) / baseline;
}

// Every step of the driver keeps the incremental counts equal to a full rescan.
void ExpectCountsMatchRecount(const IncrementalMapper& mapper, const Scene& scene,
                              const TrackSet& tracks) {
  const std::vector<int> recount = testing::RecountTracksWithPoint(scene, tracks);
  for (size_t i = 0; i < recount.size(); ++i) {
    ASSERT_EQ(mapper.visibility().NumTracksWithPoint(static_cast<int>(i)), recount[i])
        << "image " << i;
  }
}

TEST(IncrementalMapper, InitialPairGivesTrueRelativePoseAndPoints) {
  const testing::MapperTestScene test = testing::MakeMapperTestScene(SmallScene());
  Scene scene = test.input;
  IncrementalMapperOptions options;
  IncrementalMapper mapper(options, test.tracks, test.pairs, &scene);
  ASSERT_TRUE(mapper.RegisterInitialPair(testing::FindPair(test, 0, 2), /*min_angle_deg=*/8));
  EXPECT_TRUE(scene.images[0].registered && scene.images[2].registered);
  EXPECT_EQ(scene.NumRegisteredImages(), 2);
  const Rigid3d true_relative =
      test.truth.images[2].cam_from_world * test.truth.images[0].cam_from_world.Inverse();
  const Rigid3d relative = scene.images[2].cam_from_world * scene.images[0].cam_from_world.Inverse();
  EXPECT_LT(true_relative.rotation.angularDistance(relative.rotation), 1e-6);
  EXPECT_LT((true_relative.translation.normalized() - relative.translation).norm(), 1e-6);
  // Every track seen by both images is triangulated, at its true place.
  int shared = 0;
  for (const auto& track : test.tracks.tracks) {
    bool in0 = false, in2 = false;
    for (const auto& e : track) {
      in0 |= e.image_id == 0;
      in2 |= e.image_id == 2;
    }
    shared += in0 && in2;
  }
  EXPECT_EQ(static_cast<int>(scene.points.size()), shared);
  for (const auto& [id, point] : scene.points) {
    const TrackElement& e = point.track.front();
    const int track = test.tracks.track_of[e.image_id][e.keypoint_index];
    const Eigen::Vector3d expected =
        InPairFrame(test.truth, 0, 2, test.truth.points.at(track).position);
    EXPECT_LT((point.position - expected).norm(), 1e-6);
  }
  ExpectCountsMatchRecount(mapper, scene, test.tracks);
}

TEST(IncrementalMapper, InitialPairWithTooLittleParallaxIsRejected) {
  const testing::MapperTestScene test = testing::MakeMapperTestScene(SmallScene());
  Scene scene = test.input;
  IncrementalMapperOptions options;
  IncrementalMapper mapper(options, test.tracks, test.pairs, &scene);
  EXPECT_FALSE(mapper.RegisterInitialPair(testing::FindPair(test, 0, 1), /*min_angle_deg=*/60));
  EXPECT_EQ(scene.NumRegisteredImages(), 0);
  EXPECT_TRUE(scene.points.empty());
}

TEST(IncrementalMapper, RegisterImageFindsTruePose) {
  const testing::MapperTestScene test = testing::MakeMapperTestScene(SmallScene());
  Scene scene = test.input;
  IncrementalMapperOptions options;
  IncrementalMapper mapper(options, test.tracks, test.pairs, &scene);
  ASSERT_TRUE(mapper.RegisterInitialPair(testing::FindPair(test, 0, 2), 8));
  const std::vector<int> next = mapper.NextImages();
  ASSERT_FALSE(next.empty());
  EXPECT_EQ(next.front(), 1);  // sees the most points of the pair (between the two)
  ASSERT_TRUE(mapper.RegisterImage(1));
  // The pose in the pair's frame: world_from_pair = first^-1 scaled by the baseline.
  const Rigid3d& first = test.truth.images[0].cam_from_world;
  const double baseline =
      (test.truth.images[2].cam_from_world.Center() - first.Center()).norm();
  const Rigid3d true_pose = test.truth.images[1].cam_from_world * first.Inverse();
  const Rigid3d& pose = scene.images[1].cam_from_world;
  EXPECT_LT(true_pose.rotation.angularDistance(pose.rotation), 1e-6);
  EXPECT_LT((true_pose.translation / baseline - pose.translation).norm(), 1e-6);
  // Its inlier observations joined their points.
  int observed = 0;
  for (int point_id : scene.images[1].point3d_ids) observed += point_id != kInvalidId;
  EXPECT_EQ(observed, mapper.visibility().NumTracksWithPoint(1));
  // Triangulation extends existing points and adds the tracks image 1 shares with 0 or 2.
  const size_t before = scene.points.size();
  EXPECT_FALSE(mapper.TriangulateImage(1).empty());
  EXPECT_GT(scene.points.size(), before);
  ExpectCountsMatchRecount(mapper, scene, test.tracks);
}

TEST(IncrementalMapper, LocalAdjustRemovesOnlyBadObservationsNearTheNewImage) {
  testing::SyntheticSceneOptions options_scene = SmallScene();
  options_scene.num_images = 20;
  const testing::MapperTestScene test = testing::MakeMapperTestScene(options_scene);
  Scene scene = test.input;
  IncrementalMapperOptions options;
  options.local_ba_num_images = 3;
  // Every image observing the adjusted points holds them (no cap on constant images): then the
  // corrupted observation cannot drag a point far enough to fail another of its observations.
  options.local_ba_max_constant_images = 20;
  IncrementalMapper mapper(options, test.tracks, test.pairs, &scene);
  ASSERT_TRUE(mapper.RegisterInitialPair(testing::FindPair(test, 0, 2), 8));
  for (int image = 1; image < 20; ++image) {
    if (image == 2) continue;
    ASSERT_TRUE(mapper.RegisterImage(image)) << image;
    mapper.TriangulateImage(image);
  }
  // The last image is new: corrupt one of its observations, and one far away whose point
  // the local adjustment does not touch.
  const int new_image = 19;
  const BundleAdjustmentConfig local = ConfigForLocal(scene, new_image, options.local_ba_num_images);
  TrackElement near{kInvalidId, kInvalidId}, far{kInvalidId, kInvalidId};
  for (size_t k = 0; k < scene.images[new_image].point3d_ids.size(); ++k) {
    if (scene.images[new_image].point3d_ids[k] != kInvalidId) {
      near = {new_image, static_cast<int>(k)};
      break;
    }
  }
  for (const auto& [id, point] : scene.points) {
    if (local.variable_point_ids.count(id) || point.track.size() < 3) continue;
    far = point.track.front();
    break;
  }
  ASSERT_NE(near.image_id, kInvalidId);
  ASSERT_NE(far.image_id, kInvalidId);
  const int near_point = scene.images[near.image_id].point3d_ids[near.keypoint_index];
  const int far_point = scene.images[far.image_id].point3d_ids[far.keypoint_index];
  scene.images[near.image_id].keypoints[near.keypoint_index] += Eigen::Vector2d(25, -20);
  scene.images[far.image_id].keypoints[far.keypoint_index] += Eigen::Vector2d(25, -20);
  const size_t observations_before = mapper.NumObservations();

  mapper.LocalAdjust(new_image);
  // The bad observation near the new image is gone (its keypoint may have rejoined its
  // track's point only if it agrees, which it cannot); the far one stays for a global step.
  EXPECT_NE(scene.images[near.image_id].point3d_ids[near.keypoint_index], near_point);
  EXPECT_EQ(scene.images[far.image_id].point3d_ids[far.keypoint_index], far_point);
  EXPECT_GE(mapper.NumObservations() + 1, observations_before);
  EXPECT_LT(MeanReprojectionErrorPx(scene), 0.5);
  ExpectCountsMatchRecount(mapper, scene, test.tracks);
}

TEST(IncrementalMapper, DriverStepsKeepCountsEqualToRecount) {
  const testing::MapperTestScene test = testing::MakeMapperTestScene(SmallScene());
  Scene scene = test.input;
  IncrementalMapperOptions options;
  IncrementalMapper mapper(options, test.tracks, test.pairs, &scene);
  ASSERT_TRUE(mapper.FindAndRegisterInitialPair());
  ExpectCountsMatchRecount(mapper, scene, test.tracks);
  const auto kTrivial = BundleAdjustmentOptions::LossType::kTrivial;
  for (int step = 0;; ++step) {
    const std::vector<int> next = mapper.NextImages();
    if (next.empty()) break;
    ASSERT_TRUE(mapper.RegisterImage(next.front()));
    ExpectCountsMatchRecount(mapper, scene, test.tracks);
    mapper.TriangulateImage(next.front());
    ExpectCountsMatchRecount(mapper, scene, test.tracks);
    if (step % 3 == 0) {
      mapper.GlobalAdjust(20, 1e-6, kTrivial, /*retriangulate_all=*/false);
    } else {
      mapper.LocalAdjust(next.front());
    }
    ExpectCountsMatchRecount(mapper, scene, test.tracks);
  }
  EXPECT_EQ(scene.NumRegisteredImages(), 12);
}

TEST(IncrementalMapper, RegistersEverySyntheticImageAccurately) {
  const testing::MapperTestScene test = testing::MakeMapperTestScene(SmallScene());
  Scene scene = test.input;
  IncrementalMapperOptions options;
  const MapperSummary summary = RunIncrementalMapper(options, test.tracks, test.pairs, &scene);
  ASSERT_TRUE(summary.success);
  EXPECT_EQ(summary.num_registered, 12);
  EXPECT_GT(summary.num_points, 400);
  EXPECT_LT(testing::MaxRelativeRotationErrorDeg(test.truth, scene), 0.1);
  EXPECT_LT(MeanReprojectionErrorPx(scene), 0.1);
}

// While the model grows, local adjustments hold every intrinsic and global ones the distortion
// (refine_distortion_while_growing: a nadir survey's k1 trades against a bowl of the block);
// once every image is in (FinishGrowing), global adjustments refine the distortion too.
TEST(IncrementalMapper, DistortionIsHeldWhileGrowingAndRefinedAfterwards) {
  const testing::MapperTestScene test = testing::MakeMapperTestScene(SmallScene());
  Scene scene = test.input;
  const int k1 = scene.cameras[0].ExtraIndices().front();
  scene.cameras[0].params[k1] += 0.01;  // a wrong start, which adjustments would move
  const double start_k1 = scene.cameras[0].params[k1];
  IncrementalMapperOptions options;
  ASSERT_FALSE(options.refine_distortion_while_growing);
  IncrementalMapper mapper(options, test.tracks, test.pairs, &scene);
  ASSERT_TRUE(mapper.FindAndRegisterInitialPair());
  const auto kTrivial = BundleAdjustmentOptions::LossType::kTrivial;
  for (int step = 0;; ++step) {
    const std::vector<int> next = mapper.NextImages();
    if (next.empty()) break;
    ASSERT_TRUE(mapper.RegisterImage(next.front()));
    mapper.TriangulateImage(next.front());
    if (step % 2 == 0) {
      const std::vector<double> before = scene.cameras[0].params;
      mapper.LocalAdjust(next.front());
      EXPECT_EQ(scene.cameras[0].params, before) << "local adjustment moved the intrinsics";
    } else {
      mapper.GlobalAdjust(20, 1e-6, kTrivial, /*retriangulate_all=*/false);
    }
    EXPECT_EQ(scene.cameras[0].params[k1], start_k1) << "step " << step;
  }
  mapper.FinishGrowing();
  mapper.GlobalAdjust(50, 1e-8, kTrivial, /*retriangulate_all=*/true);
  const double true_k1 = test.truth.cameras[0].params[k1];
  EXPECT_LT(std::abs(scene.cameras[0].params[k1] - true_k1), 0.1 * std::abs(start_k1 - true_k1));
}

// A stalled model (no image sees abs_pose_min_num_inliers points, as after a sharp turn in a
// video) retries with abs_pose_stalled_min_num_inliers, and is strict again afterwards.
TEST(IncrementalMapper, RelaxedRegistrationAcceptsFewerPointsOnlyWhileRelaxed) {
  const testing::MapperTestScene test = testing::MakeMapperTestScene(SmallScene());
  Scene scene = test.input;
  IncrementalMapperOptions options;
  options.abs_pose_min_num_inliers = 100000;  // more points than any image sees
  options.abs_pose_stalled_min_num_inliers = 15;
  IncrementalMapper mapper(options, test.tracks, test.pairs, &scene);
  ASSERT_TRUE(mapper.RegisterInitialPair(testing::FindPair(test, 0, 2), 8));
  EXPECT_TRUE(mapper.NextImages().empty());
  EXPECT_FALSE(mapper.registration_relaxed());
  mapper.SetRegistrationRelaxed(true);
  EXPECT_TRUE(mapper.registration_relaxed());
  const std::vector<int> next = mapper.NextImages();
  ASSERT_FALSE(next.empty());
  EXPECT_EQ(next.front(), 1);
  EXPECT_TRUE(mapper.RegisterImage(1));
  mapper.SetRegistrationRelaxed(false);
  EXPECT_FALSE(mapper.registration_relaxed());
  EXPECT_TRUE(mapper.NextImages().empty());
}

// The driver relaxes once per stall: every image registers, one retry each; without the retry
// (stalled count not below the strict one) the model stops at its initial pair.
TEST(IncrementalMapper, DriverRetriesAStalledModelWithFewerPoints) {
  const testing::MapperTestScene test = testing::MakeMapperTestScene(SmallScene());
  IncrementalMapperOptions options;
  options.num_threads = 1;
  options.abs_pose_min_num_inliers = 100000;
  options.abs_pose_stalled_min_num_inliers = 15;
  Scene relaxed = test.input;
  EXPECT_EQ(RunIncrementalMapper(options, test.tracks, test.pairs, &relaxed).num_registered, 12);
  EXPECT_LT(testing::MaxRelativeRotationErrorDeg(test.truth, relaxed), 0.1);
  options.abs_pose_stalled_min_num_inliers = options.abs_pose_min_num_inliers;
  Scene strict = test.input;
  EXPECT_EQ(RunIncrementalMapper(options, test.tracks, test.pairs, &strict).num_registered, 2);
}

TEST(IncrementalMapper, SameSeedSameModel) {
  const testing::MapperTestScene test = testing::MakeMapperTestScene(SmallScene());
  Scene a = test.input, b = test.input;
  IncrementalMapperOptions options;
  options.num_threads = 1;
  RunIncrementalMapper(options, test.tracks, test.pairs, &a);
  RunIncrementalMapper(options, test.tracks, test.pairs, &b);
  ASSERT_EQ(a.points.size(), b.points.size());
  for (size_t i = 0; i < a.images.size(); ++i) {
    EXPECT_EQ((a.images[i].cam_from_world.translation - b.images[i].cam_from_world.translation).norm(), 0.0) << i;
  }
}

// The small scene with more points (the principal-point rule wants 300 per image), its camera's
// principal point in the input at the image centre, while the truth's is 7 px right and 5 px
// up of it (synthetic_scene.h).
testing::MapperTestScene CentredPrincipalPointScene() {
  testing::SyntheticSceneOptions options = SmallScene();
  options.num_points = 1500;
  testing::MapperTestScene test = testing::MakeMapperTestScene(options);
  Camera& camera = test.input.cameras[0];
  const std::vector<int> pp = camera.PrincipalPointIndices();
  camera.params[pp[0]] = camera.width / 2.0;
  camera.params[pp[1]] = camera.height / 2.0;
  return test;
}

Eigen::Vector2d PrincipalPointOffset(const Scene& scene, const Scene& truth) {
  return scene.cameras[0].PrincipalPoint() - truth.cameras[0].PrincipalPoint();
}

TEST(IncrementalMapper, AutoPrincipalPointMovesToTheTruthWhereTheViewsConstrainIt) {
  const testing::MapperTestScene test = CentredPrincipalPointScene();
  ASSERT_GT(PrincipalPointOffset(test.input, test.truth).norm(), 8);
  Scene off = test.input, automatic = test.input;
  IncrementalMapperOptions options;
  options.principal_point = IncrementalMapperOptions::PrincipalPoint::kOff;
  ASSERT_EQ(RunIncrementalMapper(options, test.tracks, test.pairs, &off).num_registered, 12);
  EXPECT_EQ(PrincipalPointOffset(off, test.input).norm(), 0);

  options.principal_point = IncrementalMapperOptions::PrincipalPoint::kAuto;
  ASSERT_EQ(RunIncrementalMapper(options, test.tracks, test.pairs, &automatic).num_registered, 12);
  // Exact keypoints: the refined principal point is the true one, and the poses improve.
  EXPECT_LT(PrincipalPointOffset(automatic, test.truth).norm(), 0.2);
  EXPECT_LT(MeanReprojectionErrorPx(automatic), 0.1 * MeanReprojectionErrorPx(off));
  EXPECT_LT(testing::MaxRelativeRotationErrorDeg(test.truth, automatic),
            0.5 * testing::MaxRelativeRotationErrorDeg(test.truth, off));
}

TEST(IncrementalMapper, AutoPrincipalPointStaysNearATrueCentre) {
  // The input's principal point is the true one: auto may keep it or refine it, but only by
  // noise (the keypoints are exact, so by almost nothing).
  const testing::MapperTestScene test = CentredPrincipalPointScene();
  // The true points seen through the centred camera.
  Scene truth = test.truth;
  truth.cameras[0] = test.input.cameras[0];
  testing::MapperTestScene centred = test;
  for (const auto& [id, point] : truth.points) {
    for (const TrackElement& e : point.track) {
      Eigen::Vector2d& uv = centred.input.images[e.image_id].keypoints[e.keypoint_index];
      ASSERT_TRUE(truth.cameras[0].Project(truth.images[e.image_id].cam_from_world * point.position, &uv));
    }
  }
  Scene automatic = centred.input;
  IncrementalMapperOptions options;
  ASSERT_EQ(RunIncrementalMapper(options, centred.tracks, centred.pairs, &automatic).num_registered, 12);
  EXPECT_LT(PrincipalPointOffset(automatic, truth).norm(), 0.2);
  EXPECT_LT(testing::MaxRelativeRotationErrorDeg(truth, automatic), 0.01);
}

// New points are triangulated in parallel and added in the listed tracks' order: any thread
// count gives the same scene to the bit, and a track listed twice gets one point.
TEST(IncrementalMapper, RetriangulationGivesTheSameSceneForAnyThreadCount) {
  testing::SyntheticSceneOptions scene_options = SmallScene();
  scene_options.num_points = 3000;  // several parallel items of tracks
  const testing::MapperTestScene test = testing::MakeMapperTestScene(scene_options);
  std::vector<int> listed(test.tracks.tracks.size());
  std::iota(listed.begin(), listed.end(), 0);
  listed.insert(listed.end(), listed.begin(), listed.begin() + 500);
  std::vector<Scene> scenes;
  for (const int threads : {1, 4}) {
    Scene scene = test.input;
    for (size_t i = 0; i < scene.images.size(); ++i) {
      scene.images[i].registered = true;
      scene.images[i].cam_from_world = test.truth.images[i].cam_from_world;
    }
    IncrementalMapperOptions options;
    options.num_threads = threads;
    options.track_triangulation = TrackTriangulation::kLargestAgreeingSubset;
    IncrementalMapper mapper(options, test.tracks, test.pairs, &scene);
    mapper.RetriangulateTracks(listed);
    scenes.push_back(scene);
  }
  ASSERT_GT(scenes[0].points.size(), 2500u);
  // Added in the listed order, one point per track: point ids follow the track ids.
  int previous_track = -1;
  for (const auto& [id, point] : scenes[0].points) {
    const TrackElement& e = point.track.front();
    const int track = test.tracks.track_of[e.image_id][e.keypoint_index];
    EXPECT_GT(track, previous_track) << "point " << id;
    previous_track = track;
  }
  ASSERT_EQ(scenes[1].points.size(), scenes[0].points.size());
  for (const auto& [id, point] : scenes[0].points) {
    const Point3D& other = scenes[1].points.at(id);
    EXPECT_EQ(std::memcmp(point.position.data(), other.position.data(), 3 * sizeof(double)), 0) << id;
    ASSERT_EQ(point.track.size(), other.track.size()) << id;
    for (size_t k = 0; k < point.track.size(); ++k) {
      EXPECT_EQ(point.track[k].image_id, other.track[k].image_id);
      EXPECT_EQ(point.track[k].keypoint_index, other.track[k].keypoint_index);
    }
  }
}

}  // namespace
}  // namespace proj
