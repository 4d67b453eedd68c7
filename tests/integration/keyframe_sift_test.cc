// --klt-keyframe-sift: SIFT matches between keyframes of a KLT sequence. A short synthetic
// sequence (24 frames of 640x480) along a 48 deg arc, so that the first and last keyframes
// are far apart for KLT (23 frames, 48 deg of azimuth) yet see the same objects.
#include <algorithm>
#include <set>
#include <vector>

#include <gtest/gtest.h>

#include "core/logging.h"
#include "datasets/synthetic/synthetic_scene.h"
#include "io/image_folder.h"
#include "sfm/pipeline/reconstruction_pipeline.h"
#include "sfm/scene/evaluation.h"
#include "sfm/stages/keyframe_sift_stage.h"
#include "sfm/stages/sequence_stage.h"
#include "tests/support/test_data.h"

namespace proj {
namespace {

constexpr int kNumFrames = 24;
const std::vector<int> kKeyframes = {0, 10, 20, 23};  // at the default interval

bool IsKeyframe(int frame) {
  return std::find(kKeyframes.begin(), kKeyframes.end(), frame) != kKeyframes.end();
}

std::string WriteWideSequence(const std::string& name) {
  SetLogLevel(LogLevel::kWarning);
  const std::string dir = testing::MakeTempDir(name);
  SyntheticSceneOptions scene;
  scene.sequence = true;
  scene.num_frames = kNumFrames;
  scene.width = 640;
  scene.height = 480;
  scene.focal_px = 550;  // the default field of view
  scene.sequence_arc_deg = 48;
  WriteSyntheticScene(scene, dir);
  return dir;
}

ReconstructionOptions KltOptions(bool keyframe_sift) {
  ReconstructionOptions options;
  options.run.device = ComputeDevice::kCpu;
  options.correspondences = CorrespondenceSource::kKltTracks;
  options.extraction.features.selection.max_features = 2048;
  options.keyframe_sift.enabled = keyframe_sift;
  return options.Resolve();
}

TEST(KeyframeSift, KeyframesAreEveryIntervalAndTheLast) {
  EXPECT_EQ(SelectKeyframes(24, 10), (std::vector<int>{0, 10, 20, 23}));
  EXPECT_EQ(SelectKeyframes(21, 10), (std::vector<int>{0, 10, 20}));
  EXPECT_EQ(SelectKeyframes(3, 1), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(SelectKeyframes(1, 10), (std::vector<int>{0}));
  EXPECT_THROW(SelectKeyframes(10, 0), InputError);
}

TEST(KeyframeSift, PairsAreTheKeyframesBeyondTheKltGap) {
  const std::vector<ImagePair> pairs = SelectKeyframePairs({0, 10, 20, 23}, 8);
  std::set<std::pair<int, int>> listed;
  for (const ImagePair& pair : pairs) listed.insert({pair.image1, pair.image2});
  // (20, 23) is 3 frames apart: KLT tracks link it.
  EXPECT_EQ(listed, (std::set<std::pair<int, int>>{{0, 10}, {0, 20}, {0, 23}, {10, 20}, {10, 23}}));
  EXPECT_EQ(pairs.size(), listed.size());
}

// The stage alone: verified wide-baseline pairs, and merged feature lists the KLT pairs and
// the keyframe pairs both index correctly.
TEST(KeyframeSift, StageAddsVerifiedWideBaselinePairsOnMergedFeatureLists) {
  const std::string dir = WriteWideSequence("keyframe_sift_stage");
  const ReconstructionOptions options = KltOptions(true);
  const DecodedSequence decoded = DecodeImageSequence(options.klt, ListImageFiles(dir + "/images"));
  const KltStageResult tracked = TrackAndVerifyFrames(options, decoded);
  KeyframeSiftSettings settings;
  settings.extraction = options.extraction;
  settings.matching = options.matching;
  settings.two_view = options.two_view;
  settings.max_klt_gap = options.klt.sequence.max_frame_gap;
  std::vector<ImageRecord> records = tracked.images;
  const KeyframeSiftResult result = AddKeyframeSift(settings, ImageCameras(options.cameras, records), &records);

  EXPECT_EQ(result.keyframes, kKeyframes);
  ASSERT_EQ(result.putative_pairs.size(), 5u);
  ASSERT_EQ(result.geometries.size(), 5u);
  EXPECT_GE(result.num_verified_pairs, 4);
  EXPECT_EQ(result.max_verified_gap, kNumFrames - 1);  // the first and the last frame
  for (int i = 0; i < kNumFrames; ++i) {
    const auto& klt = tracked.images[i].features.keypoints;
    const auto& merged = records[i].features.keypoints;
    ASSERT_GE(merged.size(), klt.size());
    for (size_t k = 0; k < klt.size(); ++k) {
      ASSERT_EQ(merged[k].x, klt[k].x);
      ASSERT_EQ(merged[k].y, klt[k].y);
    }
    EXPECT_EQ(merged.size() > klt.size(), IsKeyframe(i)) << "frame " << i;
  }
  for (size_t p = 0; p < result.putative_pairs.size(); ++p) {
    const ImagePair pair = result.putative_pairs[p].pair;
    EXPECT_GT(pair.image2 - pair.image1, settings.max_klt_gap);
    const int klt1 = tracked.images[pair.image1].features.size();
    const int klt2 = tracked.images[pair.image2].features.size();
    for (const FeatureMatch& match : result.geometries[p].inlier_matches) {
      ASSERT_GE(match.index1, klt1);
      ASSERT_LT(match.index1, records[pair.image1].features.size());
      ASSERT_GE(match.index2, klt2);
      ASSERT_LT(match.index2, records[pair.image2].features.size());
    }
    if (pair.image1 == 0 && pair.image2 == kNumFrames - 1) {
      EXPECT_NE(result.geometries[p].configuration, TwoViewConfiguration::kDegenerate);
      EXPECT_GE(result.geometries[p].inlier_matches.size(), 50u);
    }
  }
}

// Points observed in the first and the last frame and in no frame between but keyframes: KLT
// tracks are alive in contiguous runs of frames, so only keyframe SIFT links them so.
int PointsLinkingFirstAndLastFrameDirectly(const Scene& scene) {
  const int last = static_cast<int>(scene.images.size()) - 1;
  int count = 0;
  for (const auto& [id, point] : scene.points) {
    bool first = false, final = false, between = false;
    for (const TrackElement& element : point.track) {
      first |= element.image_id == 0;
      final |= element.image_id == last;
      between |= !IsKeyframe(element.image_id);
    }
    if (first && final && !between) ++count;
  }
  return count;
}

TEST(KeyframeSift, SequenceFullyRegisteredAndUnchangedWithoutTheFlag) {
  const std::string dir = WriteWideSequence("keyframe_sift_pipeline");
  const ReconstructionResult with = BuildReconstruction(KltOptions(true), dir + "/images", dir + "/with.db");
  ASSERT_TRUE(with.mapper.success) << with.mapper.failure_reason;
  const PoseEvaluation evaluation = EvaluateAgainstGroundTruth(with.scene, dir + "/gt_dense_cameras");
  EXPECT_EQ(evaluation.num_registered, kNumFrames);
  EXPECT_LT(evaluation.max_rotation_error_deg, 0.1);
  EXPECT_EQ(with.statistics.num_keyframes, 4);
  EXPECT_EQ(with.statistics.num_keyframe_pairs_matched, 5);
  EXPECT_GE(with.statistics.num_keyframe_pairs_verified, 4);
  EXPECT_GT(PointsLinkingFirstAndLastFrameDirectly(with.scene), 50);

  const ReconstructionResult without = BuildReconstruction(KltOptions(false), dir + "/images", dir + "/without.db");
  ASSERT_TRUE(without.mapper.success) << without.mapper.failure_reason;
  EXPECT_EQ(without.scene.NumRegisteredImages(), kNumFrames);
  EXPECT_EQ(without.statistics.num_keyframes, 0);
  EXPECT_EQ(without.statistics.num_keyframe_pairs_matched, 0);
  EXPECT_EQ(PointsLinkingFirstAndLastFrameDirectly(without.scene), 0);
  // The flag only adds: the KLT pairs and features are those of a run without it.
  EXPECT_EQ(with.statistics.num_pairs_matched,
            without.statistics.num_pairs_matched + with.statistics.num_keyframe_pairs_matched);
  EXPECT_EQ(with.statistics.num_pairs_verified,
            without.statistics.num_pairs_verified + with.statistics.num_keyframe_pairs_verified);
  EXPECT_GT(with.statistics.num_features, without.statistics.num_features);
  EXPECT_EQ(without.times.Get("keyframe_extraction"), 0.0);
}

}  // namespace
}  // namespace proj
