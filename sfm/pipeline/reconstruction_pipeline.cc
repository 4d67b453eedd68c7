#include "sfm/pipeline/reconstruction_pipeline.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "core/check.h"
#include "core/logging.h"
#include "core/parallel_for.h"
#include "core/progress.h"
#include "io/image_folder.h"
#include "sfm/pipeline/keypoint_colors.h"
#include "sfm/pipeline/pair_verification.h"
#include "sfm/track_builder.h"

namespace proj {

void ReconstructionOptions::Check() const {
  if (correspondences == CorrespondenceSource::kKltTracks) {
    klt.Check();
  }
  if (correspondences == CorrespondenceSource::kDescriptors || keyframe_sift.enabled) {
    extraction.Check();
  }
  keyframe_sift.Check();
  PROJ_REQUIRE(!keyframe_sift.enabled || correspondences == CorrespondenceSource::kKltTracks,
               "--klt-keyframe-sift needs --matcher klt");
  pair_selection.Check();
  matching.Check();
  two_view.Check();
  mapper.Check();
  PROJ_REQUIRE(default_focal_factor > 0, "default focal factor must be > 0");
}

namespace {

// One camera per (size, focal prior, camera label); --single-camera: one for all.
void AssignCameras(const ReconstructionOptions& options, const std::vector<ImageRecord>& records,
                   Scene* scene) {
  std::map<std::tuple<int, int, long long, std::string>, int> camera_of_key;
  for (size_t i = 0; i < records.size(); ++i) {
    const ImageRecord& record = records[i];
    const double focal = record.exif_focal_px.value_or(
        options.default_focal_factor * std::max(record.width, record.height));
    auto key = std::make_tuple(record.width, record.height, std::llround(focal * 10),
                               record.camera_label);
    if (options.single_camera) {
      PROJ_REQUIRE(records[0].width == record.width && records[0].height == record.height,
                   "--single-camera needs images of one size, but '"
                       << records[0].name << "' is " << records[0].width << "x"
                       << records[0].height << " and '" << record.name << "' is "
                       << record.width << "x" << record.height);
      key = std::make_tuple(0, 0, 0LL, std::string());
    }
    auto [it, inserted] = camera_of_key.emplace(key, static_cast<int>(scene->cameras.size()));
    if (inserted) {
      scene->cameras.push_back(
          Camera::FromFocal(options.camera_model, record.width, record.height, focal));
    }
    scene->images[i].camera_id = it->second;
  }
}

}  // namespace

Scene SceneFromRecords(const ReconstructionOptions& options,
                       const std::vector<ImageRecord>& records) {
  Scene scene;
  scene.images.resize(records.size());
  for (size_t i = 0; i < records.size(); ++i) {
    SceneImage& image = scene.images[i];
    image.name = records[i].name;
    for (const auto& kp : records[i].features.keypoints) image.keypoints.emplace_back(kp.x, kp.y);
    image.point3d_ids.assign(image.keypoints.size(), kInvalidId);
  }
  AssignCameras(options, records, &scene);
  return scene;
}

std::vector<Camera> ImageCameras(const ReconstructionOptions& options,
                                 const std::vector<ImageRecord>& records) {
  const Scene scene = SceneFromRecords(options, records);
  std::vector<Camera> cameras;
  for (const SceneImage& image : scene.images) cameras.push_back(scene.cameras[image.camera_id]);
  return cameras;
}

KltStageResult TrackAndVerifyFrames(const ReconstructionOptions& options,
                                    const DecodedSequence& sequence, KltTracker* tracker) {
  return TrackAndVerifyDecodedSequence(options.klt, options.two_view, sequence,
                                       ImageCameras(options, sequence.images), tracker);
}

namespace {

// The pairs with a geometry (non-degenerate), with their inliers.
std::vector<VerifiedPair> VerifiedPairs(const std::vector<ImagePair>& pairs,
                                        std::vector<TwoViewGeometry> geometries) {
  std::vector<VerifiedPair> verified;
  for (size_t p = 0; p < pairs.size(); ++p) {
    if (geometries[p].configuration == TwoViewConfiguration::kDegenerate) continue;
    verified.push_back({pairs[p], geometries[p].configuration, std::move(geometries[p].inlier_matches)});
  }
  return verified;
}

// Each image's keypoints converted once, then every pair (seeded by its index).
std::vector<VerifiedPair> VerifyPairs(const ReconstructionOptions& options, const Scene& scene,
                                      const std::vector<ImagePair>& pairs,
                                      const std::vector<std::vector<FeatureMatch>>& matches) {
  const int threads = options.matching.num_threads;
  std::vector<TwoViewPoints> points(scene.images.size());
  ParallelFor(0, static_cast<int>(scene.images.size()), threads, [&](int i, int) {
    points[i] = MakeTwoViewPoints(scene.cameras[scene.images[i].camera_id], scene.images[i].keypoints);
  });
  return VerifiedPairs(pairs, VerifyPairList(options.two_view, threads, points, pairs, matches));
}

// Matches the descriptors of the records' features for every pair (moved out and back, so
// the matcher sees one contiguous list without copies).
std::vector<std::vector<FeatureMatch>> MatchDescriptors(const DescriptorMatchOptions& options,
                                                        const std::vector<ImagePair>& pairs,
                                                        ReconstructionResult* result) {
  std::vector<FeatureSet> features;
  features.reserve(result->records.size());
  for (auto& record : result->records) features.push_back(std::move(record.features));
  auto matcher = CreateDescriptorMatcher(options);
  result->matcher = matcher->Description();
  Progress progress("matching", static_cast<int>(pairs.size()), "pairs");
  auto matches = matcher->MatchPairs(features, pairs, &progress);
  for (size_t i = 0; i < features.size(); ++i) result->records[i].features = std::move(features[i]);
  return matches;
}

// --matcher klt: decoding, tracking with the pairs verified meanwhile, SIFT matches between
// keyframes (--klt-keyframe-sift), keypoint colours. Fills result's records, skipped files,
// times, descriptions and keyframe counts; *putative and *geometries get every pair.
void CorrespondencesFromSequence(const ReconstructionOptions& options,
                                 const std::vector<std::string>& paths, const std::string& images_dir,
                                 ReconstructionResult* result, std::vector<PairMatches>* putative,
                                 std::vector<TwoViewGeometry>* geometries) {
  const DecodedSequence decoded = DecodeImageSequence(options.klt, paths);
  result->times.Add("decoding", decoded.decode_seconds);
  result->skipped = decoded.skipped;
  PROJ_REQUIRE(decoded.images.size() >= 2,
               "only " << decoded.images.size() << " of " << paths.size() << " files in '"
                       << images_dir << "' could be read as images; at least two are needed");
  KltStageResult tracked = TrackAndVerifyFrames(options, decoded);
  result->times.Add("klt_tracking", tracked.tracking_seconds);
  result->times.Add("geometric_verification", tracked.verification_seconds);
  result->extractor = "klt: " + tracked.tracker_description;
  result->matcher = "klt tracks";
  result->records = std::move(tracked.images);
  *putative = std::move(tracked.putative_pairs);
  *geometries = std::move(tracked.geometries);
  if (options.keyframe_sift.enabled) {
    KeyframeSiftSettings settings;
    settings.keyframes = options.keyframe_sift;
    settings.extraction = options.extraction;
    settings.matching = options.matching;
    settings.two_view = options.two_view;
    settings.max_klt_gap = options.klt.sequence.max_frame_gap;
    settings.first_pair_index = putative->size();
    KeyframeSiftResult keyframes =
        AddKeyframeSift(settings, ImageCameras(options, result->records), &result->records);
    result->times.Add("keyframe_extraction", keyframes.extraction_seconds);
    result->times.Add("keyframe_matching", keyframes.matching_seconds);
    result->times.Add("keyframe_verification", keyframes.verification_seconds);
    result->extractor += "; keyframes: " + keyframes.extractor_description;
    result->matcher += " + keyframe pairs: " + keyframes.matcher_description;
    result->statistics.num_keyframes = static_cast<int>(keyframes.keyframes.size());
    result->statistics.num_keyframe_pairs_matched = static_cast<int>(keyframes.putative_pairs.size());
    result->statistics.num_keyframe_pairs_verified = keyframes.num_verified_pairs;
    for (auto& pair : keyframes.putative_pairs) putative->push_back(std::move(pair));
    for (auto& geometry : keyframes.geometries) geometries->push_back(std::move(geometry));
  }
  SampleKeypointColors(options.klt.num_threads, &result->records);
}

}  // namespace

ReconstructionResult ReconstructFolder(const ReconstructionOptions& options,
                                       const std::string& images_dir) {
  options.Check();
  ReconstructionResult result;
  Timer total;
  const std::vector<std::string> paths = ListImageFiles(images_dir);
  result.statistics.num_input_files = static_cast<int>(paths.size());
  PROJ_REQUIRE(paths.size() >= 2, "'" << images_dir << "' holds " << paths.size()
                                      << " image file(s) (.jpg, .jpeg, .png); at least two are needed");

  Timer timer;
  std::vector<ImagePair> pairs;
  std::vector<std::vector<FeatureMatch>> matches;
  std::vector<TwoViewGeometry> klt_geometries;  // KLT: verified in the sequence stages
  if (options.correspondences == CorrespondenceSource::kKltTracks) {
    std::vector<PairMatches> putative;
    CorrespondencesFromSequence(options, paths, images_dir, &result, &putative, &klt_geometries);
    for (auto& pair : putative) {
      pairs.push_back(pair.pair);
      matches.push_back(std::move(pair.matches));
    }
  } else {
    ExtractionResult extraction = ExtractFeatures(options.extraction, paths);
    result.times.Add("feature_extraction", timer.ElapsedSeconds());
    result.extractor = extraction.extractor_description;
    result.skipped = std::move(extraction.skipped);
    result.records = std::move(extraction.images);
  }
  result.statistics.num_usable_images = static_cast<int>(result.records.size());
  for (const auto& record : result.records) result.statistics.num_features += record.features.size();
  PROJ_REQUIRE(result.records.size() >= 2,
               "only " << result.records.size() << " of " << paths.size() << " files in '"
                       << images_dir << "' could be read as images; at least two are needed");
  PROJ_LOG(kInfo, "features: " << result.statistics.num_features << " in "
                               << result.records.size() << " images");
  result.scene = SceneFromRecords(options, result.records);
  result.statistics.num_cameras = static_cast<int>(result.scene.cameras.size());

  if (options.correspondences == CorrespondenceSource::kDescriptors) {
    timer.Restart();
    pairs = SelectImagePairs(options.pair_selection, static_cast<int>(result.records.size()));
    matches = MatchDescriptors(options.matching, pairs, &result);
    result.times.Add("matching", timer.ElapsedSeconds());
  }
  result.statistics.num_pairs_matched = static_cast<int>(pairs.size());
  for (const auto& m : matches) result.statistics.num_putative_matches += m.size();

  std::vector<VerifiedPair> verified;
  if (options.correspondences == CorrespondenceSource::kKltTracks) {
    verified = VerifiedPairs(pairs, std::move(klt_geometries));
  } else {
    timer.Restart();
    verified = VerifyPairs(options, result.scene, pairs, matches);
    result.times.Add("geometric_verification", timer.ElapsedSeconds());
  }
  result.statistics.num_pairs_verified = static_cast<int>(verified.size());
  for (const auto& v : verified) result.statistics.num_verified_matches += v.inlier_matches.size();
  PROJ_LOG(kInfo, "verified pairs: " << verified.size() << "/" << pairs.size() << " ("
                                     << result.statistics.num_verified_matches << " matches)");

  timer.Restart();
  std::vector<int> num_keypoints;
  std::vector<PairMatches> verified_matches;
  for (const auto& image : result.scene.images) num_keypoints.push_back(static_cast<int>(image.keypoints.size()));
  for (const auto& v : verified) verified_matches.push_back({v.pair, v.inlier_matches});
  const TrackSet tracks = BuildTracks(num_keypoints, verified_matches);
  result.statistics.num_tracks = static_cast<int>(tracks.tracks.size());
  PROJ_LOG(kInfo, "tracks: " << tracks.tracks.size() << " (" << tracks.num_dropped_inconsistent
                             << " inconsistent dropped)");
  result.mapper = RunIncrementalMapper(options.mapper, tracks, verified, &result.scene);
  ColorPoints(result.records, &result.scene);
  result.times.Add("mapping", timer.ElapsedSeconds());
  result.times.Add("total", total.ElapsedSeconds());
  return result;
}

void ColorPoints(const std::vector<ImageRecord>& records, Scene* scene) {
  for (auto& [id, point] : scene->points) {
    Eigen::Vector3d sum = Eigen::Vector3d::Zero();
    for (const auto& element : point.track) {
      sum += records[element.image_id].colors[element.keypoint_index].cast<double>();
    }
    if (!point.track.empty()) {
      const Eigen::Vector3d mean = sum / static_cast<double>(point.track.size());
      for (int c = 0; c < 3; ++c) point.color[c] = static_cast<uint8_t>(std::lround(mean[c]));
    }
  }
}

}  // namespace proj
