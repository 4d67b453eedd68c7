#include "sfm/stages/keyframe_sift_stage.h"

#include <algorithm>
#include <cstdlib>
#include <utility>

#include <Eigen/Core>

#include "core/check.h"
#include "core/logging.h"
#include "core/parallel_for.h"
#include "core/progress.h"
#include "core/timer.h"
#include "sfm/stages/pair_verification.h"

namespace proj {

void KeyframeSiftOptions::Check() const {
  PROJ_REQUIRE(keyframe_interval >= 1,
               "--klt-keyframe-interval must be at least 1 (got " << keyframe_interval << ")");
}

std::vector<int> SelectKeyframes(int num_frames, int keyframe_interval) {
  PROJ_REQUIRE(keyframe_interval >= 1, "keyframe interval must be at least 1");
  std::vector<int> keyframes;
  for (int f = 0; f < num_frames; f += keyframe_interval) keyframes.push_back(f);
  if (num_frames > 0 && keyframes.back() != num_frames - 1) keyframes.push_back(num_frames - 1);
  return keyframes;
}

std::vector<ImagePair> SelectKeyframePairs(const std::vector<int>& keyframes, int max_klt_gap) {
  std::vector<ImagePair> pairs;
  for (size_t a = 0; a < keyframes.size(); ++a) {
    for (size_t b = a + 1; b < keyframes.size(); ++b) {
      if (keyframes[b] - keyframes[a] > max_klt_gap) pairs.push_back({keyframes[a], keyframes[b]});
    }
  }
  return pairs;
}

std::vector<ImagePair> SelectSimilarKeyframePairs(const std::vector<int>& keyframes,
                                                  const std::vector<DescriptorList>& descriptors,
                                                  int max_klt_gap, const LoopClosureOptions& options) {
  PROJ_CHECK(keyframes.size() == descriptors.size(), "one descriptor list per keyframe");
  const std::vector<std::vector<float>> vectors = ComputeImageVectors(
      static_cast<int>(keyframes.size()), [&](int k) { return descriptors[k]; }, options.retrieval);
  std::vector<int> queries(keyframes.size());
  for (size_t k = 0; k < queries.size(); ++k) queries[k] = static_cast<int>(k);
  std::vector<ImagePair> pairs;
  for (const ImagePair& pair :
       MostSimilarPairs(vectors, queries, options.pairs.num_candidates, options.pairs.min_similarity,
                        [&](int a, int b) { return std::abs(keyframes[a] - keyframes[b]) > max_klt_gap; })) {
    pairs.push_back({keyframes[pair.image1], keyframes[pair.image2]});
  }
  return pairs;
}

namespace {

// SIFT features of the keyframes of `records` that can be read again; fills result->keyframes
// (features[k] belongs to image result->keyframes[k]) and the extraction fields.
std::vector<FeatureSet> ExtractKeyframeFeatures(const KeyframeSiftSettings& settings,
                                                const std::vector<ImageRecord>& records,
                                                KeyframeSiftResult* result) {
  const std::vector<int> candidates =
      SelectKeyframes(static_cast<int>(records.size()), settings.keyframes.keyframe_interval);
  std::vector<std::string> paths;
  for (const int f : candidates) paths.push_back(records[f].path);
  PROJ_LOG(kInfo, "keyframe SIFT: " << candidates.size() << " keyframes (one in "
                                    << settings.keyframes.keyframe_interval << " frames, and the last)");
  ExtractionResult extraction = ExtractFeatures(settings.extraction, paths);
  result->extractor_description = extraction.extractor_description;
  // The readable files come back in the order of `paths`.
  std::vector<FeatureSet> features;
  size_t next = 0;
  for (const int f : candidates) {
    if (next < extraction.images.size() && extraction.images[next].path == records[f].path) {
      result->keyframes.push_back(f);
      result->num_sift_features += extraction.images[next].features.size();
      features.push_back(std::move(extraction.images[next].features));
      ++next;
    }
  }
  return features;
}

// Each keyframe's SIFT keypoints under its camera, for verification.
std::vector<TwoViewPoints> KeyframePoints(const std::vector<FeatureSet>& features,
                                          const std::vector<int>& keyframes,
                                          const std::vector<Camera>& cameras, int num_threads) {
  std::vector<TwoViewPoints> points(features.size());
  ParallelFor(0, static_cast<int>(features.size()), num_threads, [&](int k, int) {
    std::vector<Eigen::Vector2d> pixels;
    pixels.reserve(features[k].keypoints.size());
    for (const Keypoint& keypoint : features[k].keypoints) {
      pixels.emplace_back(keypoint.x, keypoint.y);
    }
    points[k] = MakeTwoViewPoints(cameras[keyframes[k]], std::move(pixels));
  });
  return points;
}

void OffsetMatches(int offset1, int offset2, std::vector<FeatureMatch>* matches) {
  for (FeatureMatch& match : *matches) {
    match.index1 += offset1;
    match.index2 += offset2;
  }
}

}  // namespace

KeyframeSiftResult AddKeyframeSift(const KeyframeSiftSettings& settings,
                                   const std::vector<Camera>& cameras,
                                   std::vector<ImageRecord>* records) {
  settings.keyframes.Check();
  PROJ_REQUIRE(cameras.size() == records->size(),
               "keyframe SIFT: " << records->size() << " images, " << cameras.size() << " cameras");
  KeyframeSiftResult result;
  Timer timer;
  std::vector<FeatureSet> features = ExtractKeyframeFeatures(settings, *records, &result);
  result.extraction_seconds = timer.ElapsedSeconds();

  // Pairs in frame indices (the result's) and in keyframe indices (the matcher's).
  timer.Restart();
  const std::vector<int>& keyframes = result.keyframes;
  std::vector<ImagePair> frame_pairs;
  if (settings.loop_closure.enabled) {
    std::vector<DescriptorList> descriptors;
    for (const FeatureSet& set : features) descriptors.push_back(set.descriptors);
    frame_pairs = SelectSimilarKeyframePairs(keyframes, descriptors, settings.max_klt_gap, settings.loop_closure);
  } else {
    frame_pairs = SelectKeyframePairs(keyframes, settings.max_klt_gap);
  }
  auto position = [&](int frame) {
    return static_cast<int>(std::lower_bound(keyframes.begin(), keyframes.end(), frame) -
                            keyframes.begin());
  };
  std::vector<ImagePair> keyframe_pairs;
  for (const ImagePair& pair : frame_pairs) {
    keyframe_pairs.push_back({position(pair.image1), position(pair.image2)});
  }
  auto matcher = CreateDescriptorMatcher(settings.matching);
  result.matcher_description = matcher->Description();
  std::vector<std::vector<FeatureMatch>> matches;
  {
    Progress progress("matching keyframes", static_cast<int>(keyframe_pairs.size()), "pairs");
    matches = matcher->MatchPairs(features, keyframe_pairs, &progress);
  }
  result.matching_seconds = timer.ElapsedSeconds();

  timer.Restart();
  const int threads = settings.matching.num_threads;
  std::vector<size_t> seed_indices(keyframe_pairs.size());
  for (size_t p = 0; p < seed_indices.size(); ++p) seed_indices[p] = settings.first_pair_index + p;
  Progress progress("verifying keyframe pairs", static_cast<int>(keyframe_pairs.size()), "pairs");
  result.geometries = VerifyPairList(settings.two_view, threads,
                                     KeyframePoints(features, keyframes, cameras, threads),
                                     keyframe_pairs, matches, seed_indices, &progress);
  result.verification_seconds = timer.ElapsedSeconds();

  // Merge: KLT points first, then SIFT keypoints; matches move to the merged indices.
  std::vector<int> offsets(keyframes.size());
  for (size_t k = 0; k < keyframes.size(); ++k) {
    FeatureSet& merged = (*records)[keyframes[k]].features;
    offsets[k] = merged.size();
    merged.descriptors.clear();
    merged.keypoints.insert(merged.keypoints.end(), features[k].keypoints.begin(),
                            features[k].keypoints.end());
  }
  for (size_t p = 0; p < frame_pairs.size(); ++p) {
    const int offset1 = offsets[keyframe_pairs[p].image1];
    const int offset2 = offsets[keyframe_pairs[p].image2];
    OffsetMatches(offset1, offset2, &matches[p]);
    OffsetMatches(offset1, offset2, &result.geometries[p].inlier_matches);
    result.putative_pairs.push_back({frame_pairs[p], std::move(matches[p])});
    if (result.geometries[p].configuration != TwoViewConfiguration::kDegenerate) {
      ++result.num_verified_pairs;
      result.max_verified_gap =
          std::max(result.max_verified_gap, frame_pairs[p].image2 - frame_pairs[p].image1);
    }
  }
  PROJ_LOG(kInfo, "keyframe SIFT: " << result.keyframes.size() << " keyframes, "
                                    << result.num_sift_features << " features; "
                                    << result.num_verified_pairs << "/" << frame_pairs.size()
                                    << " pairs more than " << settings.max_klt_gap
                                    << " frames apart verified, widest " << result.max_verified_gap
                                    << " frames");
  return result;
}

}  // namespace proj
