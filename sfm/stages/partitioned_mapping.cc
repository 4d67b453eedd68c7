#include "sfm/stages/partitioned_mapping.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>

#include "core/check.h"
#include "core/logging.h"
#include "core/parallel_for.h"
#include "core/progress.h"
#include "core/timer.h"
#include "sfm/stages/georeference_priors.h"
#include "sfm/stages/gps_rebuild.h"
#include "sfm/stages/reconstruction_options.h"

namespace proj {

int PartitionedMappingOptions::NumParts(int num_images, int num_threads) const {
  if (num_parts > 0) return num_parts;
  int part_images = max_part_images;
  if (part_images == kAutomatic) part_images = num_images > auto_min_images ? auto_part_images : 0;
  if (part_images <= 0 || num_images <= part_images) return 1;
  const int by_size = (num_images + part_images - 1) / part_images;
  const int at_once = ParallelParts(by_size, num_threads);
  return (by_size + at_once - 1) / at_once * at_once;
}

int PartitionedMappingOptions::ParallelParts(int num_parts, int num_threads) const {
  return std::max(1, std::min(num_parts, parallel_parts > 0 ? parallel_parts : num_threads / 4));
}

void PartitionedMappingOptions::Check() const {
  PROJ_REQUIRE(max_part_images == kAutomatic || max_part_images == 0 || max_part_images >= 10,
               "--partition-max-images must be -1 (automatic), 0 (never) or at least 10 (got " << max_part_images
                                                                                                << ")");
  PROJ_REQUIRE(auto_part_images >= 10 && auto_min_images >= auto_part_images,
               "the automatic partition needs parts of at least 10 images, fewer than the images it starts at");
  PROJ_REQUIRE(num_parts >= 0, "--num-parts must be >= 0 (got " << num_parts << ")");
  PROJ_REQUIRE(parallel_parts >= 0, "--parallel-parts must be >= 0 (got " << parallel_parts << ")");
  partition.Check();
  merge.Check();
  PROJ_REQUIRE(merged.shape_prior_factor >= 0 && std::isfinite(merged.shape_prior_factor),
               "--partition-shape-prior must be >= 0 (got " << merged.shape_prior_factor << ")");
}

std::vector<WeightedImagePair> WeightedPairs(const std::vector<PairInlierCount>& counts) {
  std::vector<WeightedImagePair> weighted;
  weighted.reserve(counts.size());
  for (const PairInlierCount& count : counts) {
    if (count.num_inliers > 0) weighted.push_back({count.pair.image1, count.pair.image2, count.num_inliers});
  }
  return weighted;
}

std::vector<WeightedImagePair> WeightedPairs(const std::vector<VerifiedPair>& pairs) {
  std::vector<PairInlierCount> counts;
  counts.reserve(pairs.size());
  for (const VerifiedPair& pair : pairs) {
    counts.push_back({pair.pair, static_cast<int>(pair.geometry.inlier_matches.size())});
  }
  return WeightedPairs(counts);
}

ImagePartition PartitionViewGraph(const PartitionedMappingOptions& options, int num_parts, const Scene& scene,
                                  const std::vector<WeightedImagePair>& weighted) {
  PartitionOptions partition = options.partition;
  partition.num_parts = num_parts;
  std::vector<std::optional<Eigen::Vector2d>> positions(scene.images.size());
  for (const auto& [image, prior] : scene.position_priors) positions[image] = prior.position.head<2>();
  return PartitionImages(partition, static_cast<int>(scene.images.size()), positions, weighted);
}

ImagePartition PartitionViewGraph(const PartitionedMappingOptions& options, int num_parts, const Scene& scene,
                                  const std::vector<VerifiedPair>& pairs) {
  return PartitionViewGraph(options, num_parts, scene, WeightedPairs(pairs));
}

PartModel MapPart(const ReconstructionOptions& options, const Scene& scene, const std::vector<VerifiedPair>& pairs,
                  const std::vector<int>& image_ids, int num_threads, bool keep_points, MapperSummary* summary) {
  SubViewGraph sub = ExtractSubViewGraph(scene, pairs, image_ids);
  const TrackSet tracks = BuildViewGraphTracks(sub.scene, sub.pairs);
  ReconstructionOptions part_options = options;
  part_options.mapper.num_threads = num_threads;
  part_options.mapper.hold_distortion = true;  // refined over all images once merged
  *summary = MapAndGeoreference(part_options, tracks, sub.pairs, &sub.scene);
  PartModel part;
  part.image_ids = image_ids;
  part.scene = std::move(sub.scene);
  // Unit quaternions, as a part file stores them (part_files.h): the merged model is then the
  // same whether its parts were mapped here or by the tasks of a cluster, to the last bit
  // (a nadir block's final adjustments amplify differences of 1e-16 to millimetres).
  for (SceneImage& image : part.scene.images) image.cam_from_world.rotation.normalize();
  if (!keep_points) {
    // The merge reads poses and intrinsics only; a part's keypoints and points are its bulk.
    part.scene.points.clear();
    for (SceneImage& image : part.scene.images) {
      image.keypoints = {};
      image.point3d_ids = {};
    }
  }
  return part;
}

MapperSummary MergeAndCompleteParts(const ReconstructionOptions& options, const std::vector<PartModel>& parts,
                                    const std::vector<int>& core_part, const TrackSet& tracks,
                                    const std::vector<VerifiedPair>& pairs, Scene* scene,
                                    PartitionedMappingTrace* trace) {
  const Timer timer;
  PartMergeOptions merge = options.partitioning.merge;
  merge.seed = options.mapper.seed;
  trace->merge = MergePartPoses(merge, parts, core_part, scene);
  for (const PartAlignmentRecord& record : trace->merge.parts) {
    if (record.merged) {
      PROJ_LOG(kInfo, "part " << record.part + 1 << "/" << parts.size() << ": " << record.num_registered
                              << " images registered, merged by " << record.num_inliers << " of "
                              << record.num_shared << " shared images (centres within "
                              << record.median_center_error << ", orientations within "
                              << record.median_rotation_error_deg << " deg, medians"
                              << (record.realigned ? "; aligned again to all parts" : "") << ")");
    } else {
      PROJ_LOG(kWarning, "part " << record.part + 1 << "/" << parts.size() << " (" << record.num_registered
                                 << " images registered) is not merged: " << record.failure_reason
                                 << "; its images are registered from the merged model where they can be");
    }
  }
  PROJ_LOG(kInfo, "merged " << trace->merge.NumMerged() << " of " << parts.size() << " parts: "
                            << trace->merge.num_registered << " images; completing the model over "
                            << tracks.tracks.size() << " tracks");
  MapperSummary summary;
  if (trace->merge.num_registered < 2) {
    summary.failure_reason = "no part of the partitioned mapping built a model";
    return summary;
  }
  summary = CompleteMergedModel(options.mapper, options.partitioning.merged, trace->merge.MedianCenterError(), tracks,
                                pairs, scene);
  GeoreferenceModel(options.mapper.priors, options.mapper.seed + 104729, scene, &summary);
  trace->merge_seconds = timer.ElapsedSeconds();
  return summary;
}

MapperSummary MapPartitioned(const ReconstructionOptions& options, int num_parts, const TrackSet& tracks,
                             const std::vector<VerifiedPair>& pairs, Scene* scene, PartitionedMappingTrace* trace) {
  trace->partition = PartitionViewGraph(options.partitioning, num_parts, *scene, pairs);
  const std::vector<std::vector<int>>& part_images = trace->partition.parts;
  const int count = static_cast<int>(part_images.size());
  size_t largest = 0;
  for (const auto& images : part_images) largest = std::max(largest, images.size());
  const int threads = ResolveNumThreads(options.run.num_threads);
  const int parallel = options.partitioning.ParallelParts(count, threads);
  const int threads_per_part = std::max(1, threads / parallel);
  PROJ_LOG(kInfo, "partitioned mapping: " << scene->images.size() << " images in " << count << " parts of up to "
                                          << largest << " images with their overlap (cut by "
                                          << (trace->partition.by_position ? "GPS position" : "the view graph")
                                          << "), " << parallel << " at a time, " << threads_per_part
                                          << " threads each");
  const Timer timer;
  std::vector<PartModel> parts(count);
  trace->parts.assign(count, MapperSummary());
  Progress progress("mapping parts", count, "parts");
  ParallelFor(0, count, parallel, [&](int p, int) {
    {
      const ScopedLogPrefix prefix("part " + std::to_string(p + 1) + "/" + std::to_string(count) + ": ");
      parts[p] = MapPart(options, *scene, pairs, part_images[p], threads_per_part, false, &trace->parts[p]);
      const MapperSummary& summary = trace->parts[p];
      PROJ_LOG(kInfo, summary.num_registered << "/" << part_images[p].size() << " images registered"
                                             << (summary.success ? "" : ": " + summary.failure_reason));
    }
    progress.Advance();  // the run's progress, without the part's prefix
  });
  trace->parts_seconds = timer.ElapsedSeconds();
  return MergeAndCompleteParts(options, parts, trace->partition.core_part, tracks, pairs, scene, trace);
}

}  // namespace proj
