#include "sfm/stages/verification_stage.h"

#include <map>
#include <set>

#include "core/interrupt.h"
#include "core/logging.h"
#include "core/progress.h"
#include "sfm/stages/pair_chunks.h"
#include "sfm/stages/pair_verification.h"

namespace proj {

StageOptions VerificationFingerprint(const TwoViewGeometryOptions& options) {
  StageOptions fingerprint;
  fingerprint.Add("verification min inliers", options.min_num_inliers)
      .Add("verification max error px", options.max_error_px)
      .Add("verification E/F ratio", options.min_e_f_inlier_ratio)
      .Add("verification H ratio", options.max_h_inlier_ratio)
      .Add("verification panoramic angle", options.min_panoramic_tri_angle_deg)
      .Add("verification confidence", options.confidence)
      .Add("verification iterations", options.min_ransac_iterations)
      .Add("verification max iterations", options.max_ransac_iterations)
      .Add("--seed", options.seed);
  return fingerprint;
}

VerificationSummary VerifyImagePairs(const TwoViewGeometryOptions& options, int num_threads,
                                     int max_chunk_images, const StageOptions& upstream,
                                     OptionChangePolicy policy, const std::vector<ImagePair>& pairs,
                                     const SceneDatabase& features, SceneDatabase* database) {
  options.Check();
  VerificationSummary summary;
  {
    SceneDatabase::Transaction transaction(database);
    StageOptions fingerprint = VerificationFingerprint(options);
    fingerprint.Add(upstream);
    if (!ReconcileStageOptions(database, "verification", fingerprint, policy)) {
      database->DeleteTwoViewGeometries();
    }
    transaction.Commit();
  }
  std::set<int64_t> matched, verified;
  for (int64_t id : database->ReadMatchedPairIds()) matched.insert(id);
  for (int64_t id : database->ReadVerifiedPairIds()) verified.insert(id);
  std::vector<ImagePair> todo;
  for (const ImagePair& pair : pairs) {
    const int64_t id = PairIdFromImageIds(pair.image1, pair.image2);
    if (!matched.count(id)) continue;
    ++summary.num_pairs;
    if (!verified.count(id)) todo.push_back(pair);
  }
  summary.num_reused = summary.num_pairs - static_cast<int>(todo.size());
  PROJ_LOG(kInfo, "verification: " << summary.num_pairs << " matched pairs, " << summary.num_reused
                                   << " already verified, " << todo.size() << " to verify");
  if (todo.empty()) return summary;

  std::map<int, Camera> cameras;
  for (const DatabaseCamera& camera : features.ReadCameras()) cameras[camera.camera_id] = camera.camera;
  std::map<int, int> camera_of_image;
  for (const DatabaseImage& image : features.ReadImages()) camera_of_image[image.image_id] = image.camera_id;

  const PositionedPairs positioned = ToPositions(todo);
  ChunkCache<TwoViewPoints> cache([&](int position) {
    const int image_id = positioned.image_of_position[position];
    std::vector<Eigen::Vector2d> pixels;
    for (const Keypoint& keypoint : features.ReadKeypoints(image_id)) pixels.emplace_back(keypoint.x, keypoint.y);
    return MakeTwoViewPoints(cameras.at(camera_of_image.at(image_id)), std::move(pixels));
  });
  Progress progress("verifying pairs", static_cast<int>(todo.size()), "pairs");
  for (const PairChunk& chunk : ChunkPairs(positioned.pairs, max_chunk_images)) {
    ThrowIfInterrupted();  // between blocks: every finished block is committed
    cache.Prepare(chunk.images);
    std::vector<TwoViewPoints> points = cache.Take(chunk);
    std::vector<std::vector<FeatureMatch>> matches;
    std::vector<size_t> seeds;
    for (size_t p : chunk.pair_indices) {
      const ImagePair& pair = todo[p];
      matches.push_back(database->ReadMatches(pair.image1, pair.image2).value_or(std::vector<FeatureMatch>()));
      seeds.push_back(static_cast<size_t>(PairIdFromImageIds(pair.image1, pair.image2)));
    }
    const std::vector<TwoViewGeometry> geometries = VerifyPairList(
        options, num_threads, points, ChunkLocalPairs(chunk, positioned.pairs), matches, seeds, &progress);
    cache.Return(chunk, std::move(points));

    SceneDatabase::Transaction transaction(database);
    for (size_t k = 0; k < chunk.pair_indices.size(); ++k) {
      const ImagePair& pair = todo[chunk.pair_indices[k]];
      database->WriteTwoViewGeometry(pair.image1, pair.image2, geometries[k]);
    }
    transaction.Commit();
    summary.num_verified += static_cast<int>(chunk.pair_indices.size());
  }
  return summary;
}

}  // namespace proj
