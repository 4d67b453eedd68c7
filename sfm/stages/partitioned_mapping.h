// Partitioned mapping (README "Large surveys"): the view graph cut into overlapping parts
// (sfm/partition/image_partition.h: by GPS position, else by the graph), each part mapped on
// its own by the run's mapper and aligned to its GPS, several parts at once on one machine or
// one part per task of a cluster job (`sfm map --part i/N`), then the parts' poses merged by
// their shared images (part_merge.h) and the whole model completed (merged_model.h): points
// over the whole scene's tracks, images no part registered, a final adjustment of everything.
// A part's work grows with the part's size, not the survey's: the incremental mapper's steps
// that grow with the model (candidate ranking, global adjustments while growing) stay small,
// and only the merged model's adjustments see every image.
#pragma once

#include <string>
#include <vector>

#include "sfm/database/view_graph_loader.h"
#include "sfm/mapper/incremental_mapper.h"
#include "sfm/partition/image_partition.h"
#include "sfm/partition/merged_model.h"
#include "sfm/partition/part_merge.h"
#include "sfm/scene/view_graph.h"

namespace proj {

struct ReconstructionOptions;

struct PartitionedMappingOptions {
  // Views graphs of more images than this are cut into parts of at most about this many
  // (before the overlap is added); 0: never; kAutomatic: parts of auto_part_images when the
  // view graph holds more than auto_min_images (--partition-max-images).
  static constexpr int kAutomatic = -1;
  int max_part_images = kAutomatic;
  // The automatic choice, from a synthetic flight on one H200 (bench/RESULTS-mapping.md
  // "Scaling"): 10,000 images in 20 parts of 500 mapped in 443 s, every image registered
  // (one run of the whole: about half an hour, extrapolated); its first 1,000 images mapped
  // whole in 70 s at 67.5 mm, in 2 parts in 59 s at 87.7 mm: below a few thousand images one
  // run of the whole is about as fast and more accurate.
  int auto_min_images = 2500;
  int auto_part_images = 500;
  int num_parts = 0;  // > 0: exactly this many parts, whatever the size (--num-parts)
  // Parts mapped at once on one machine, each with an equal share of the run's threads; 0:
  // one per 4 threads (at most the number of parts).
  int parallel_parts = 0;
  PartitionOptions partition;  // its num_parts is set per run (NumParts)
  PartMergeOptions merge;
  MergedModelOptions merged;

  // The number of parts for a view graph of `num_images` images mapped with `num_threads`
  // threads (resolved); 1: not partitioned. Parts counted from their size are rounded up to a
  // whole number of rounds of ParallelParts: 10 parts with 4 at a time would map in 3 rounds,
  // the last half idle, where 12 smaller ones take the same 3 rounds of less work each.
  int NumParts(int num_images, int num_threads) const;
  // Parts mapped at once out of `num_parts` with `num_threads` threads (resolved).
  int ParallelParts(int num_parts, int num_threads) const;
  void Check() const;  // throws InputError naming the option
};

// The partition of a view graph into `num_parts` parts: by the images' GPS priors (their East
// and North) where most have one, else by the verified pairs weighted by inlier matches.
ImagePartition PartitionViewGraph(const PartitionedMappingOptions& options, int num_parts, const Scene& scene,
                                  const std::vector<VerifiedPair>& pairs);
// The same from the pairs weighted by their inlier matches (WeightedPairs), which a cluster task
// reads without the matches (view_graph_loader.h, LoadViewGraphOutline). `scene` needs its
// images and GPS priors only.
ImagePartition PartitionViewGraph(const PartitionedMappingOptions& options, int num_parts, const Scene& scene,
                                  const std::vector<WeightedImagePair>& weighted);
std::vector<WeightedImagePair> WeightedPairs(const std::vector<VerifiedPair>& pairs);
std::vector<WeightedImagePair> WeightedPairs(const std::vector<PairInlierCount>& counts);

// One part mapped alone: the sub view graph of `image_ids`, its own tracks, the run's mapper
// and the alignment to the part's GPS (MapAndGeoreference), with `num_threads` threads. The
// returned model keeps poses and intrinsics, and its points when `keep_points` (to write it).
PartModel MapPart(const ReconstructionOptions& options, const Scene& scene, const std::vector<VerifiedPair>& pairs,
                  const std::vector<int>& image_ids, int num_threads, bool keep_points, MapperSummary* summary);

struct PartitionedMappingTrace {
  ImagePartition partition;
  std::vector<MapperSummary> parts;  // by part (in-process mapping only)
  PartMergeSummary merge;
  double parts_seconds = 0;  // wall time of all parts
  double merge_seconds = 0;  // merging the poses and completing the model
};

// The parts' models merged into `scene` (the whole view graph's, nothing registered) and the
// model completed over `tracks` and `pairs`, then aligned to the GPS priors
// (GeoreferenceModel). Logs what each part contributed; a part that could not be merged is a
// warning naming it and why (its images are registered later if the merged model can).
MapperSummary MergeAndCompleteParts(const ReconstructionOptions& options, const std::vector<PartModel>& parts,
                                    const std::vector<int>& core_part, const TrackSet& tracks,
                                    const std::vector<VerifiedPair>& pairs, Scene* scene,
                                    PartitionedMappingTrace* trace);

// The whole partitioned mapping on this machine: the partition into `num_parts`, the parts
// mapped options.partitioning.parallel_parts at a time, then MergeAndCompleteParts. Same
// contract as MapAndGeoreference.
MapperSummary MapPartitioned(const ReconstructionOptions& options, int num_parts, const TrackSet& tracks,
                             const std::vector<VerifiedPair>& pairs, Scene* scene, PartitionedMappingTrace* trace);

}  // namespace proj
