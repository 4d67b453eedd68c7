// The images of a large survey cut into overlapping parts that are mapped on their own
// (partitioned mapping, sfm/partition/partitioned_mapping.h): each part a core of images that
// belong to it alone, grown by the images most strongly matched to it along each of its
// borders, so neighbouring parts share a strip of images by which their models are merged.
//
// Cores come from recursive bisection: of the images' GPS positions along their principal
// horizontal axis when most images have one (a survey's parts are then compact areas), else
// of the view graph by its level structure (breadth-first distances from two far-apart
// images, the classic bandwidth-reducing bisection: connected halves without eigenvectors, in
// time linear in the edges). Deterministic: every task of a cluster run computes the same
// partition from the same database and options.
#pragma once

#include <optional>
#include <vector>

#include <Eigen/Core>

namespace proj {

struct PartitionOptions {
  int num_parts = 1;  // >= 1
  // Each part grows by this share of its core's images (at least min_overlap_images), taking
  // the image with the most verified matches into the part first, shared out over the
  // neighbouring cores by the length of the border with each, at least
  // min_overlap_per_neighbour from each (or its whole border).
  double overlap_share = 0.2;  // >= 0
  int min_overlap_images = 10;  // >= 0
  int min_overlap_per_neighbour = 8;  // >= 0
  // GPS positions cut the cores when at least this share of the images has one.
  double min_position_share = 0.8;  // in [0, 1]

  void Check() const;  // throws InputError naming the field
};

// A verified pair of images (indices into the images) and its weight (inlier matches).
struct WeightedImagePair {
  int image1 = 0;
  int image2 = 0;
  int weight = 0;  // > 0
};

struct ImagePartition {
  // Per part its images (core and overlap) in increasing index; every image is in at least
  // one part.
  std::vector<std::vector<int>> parts;
  std::vector<int> core_part;  // per image the part whose core holds it
  bool by_position = false;    // cores cut by GPS positions (else by the view graph)
};

// Cuts `num_images` images into options.num_parts parts (fewer when there are fewer images).
// `positions` holds an East-North position (metres) per image with a GPS prior (empty: none);
// images without one join the core of the image they share most matches with. Pairs with an
// index out of range are an InputError.
ImagePartition PartitionImages(const PartitionOptions& options, int num_images,
                               const std::vector<std::optional<Eigen::Vector2d>>& positions,
                               const std::vector<WeightedImagePair>& pairs);

}  // namespace proj
