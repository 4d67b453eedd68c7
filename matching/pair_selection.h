// Which image pairs to match: all pairs; each image with the next K in name order; or, for
// GPS-tagged images, each image with its nearest neighbours by position plus the next few in
// name order (spatial). `auto` picks spatial when most images have a usable position.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "matching/matching_types.h"

namespace proj {

enum class PairSelection { kExhaustive, kSequential, kSpatial, kAuto };

struct PairSelectionOptions {
  PairSelection mode = PairSelection::kAuto;
  int overlap = 10;  // sequential: each image is paired with the next `overlap` images
  // Spatial: each image with a position is paired with its `spatial_neighbors` nearest images
  // by horizontal distance, up to `spatial_max_distance_m` away (0: no limit) ...
  int spatial_neighbors = 20;
  double spatial_max_distance_m = 0;
  // ... and every image (with a position or not) with the next `spatial_sequential_overlap`
  // in name order, which also links images without GPS.
  int spatial_sequential_overlap = 5;
  // Auto: spatial when at least this fraction of the images have a position, else exhaustive.
  double auto_min_gps_fraction = 0.5;
  // Positions all within this horizontal radius of their median are degenerate (a hovering
  // drone, one fix copied to every file): spatial falls back to exhaustive.
  double min_position_spread_m = 1.0;
  void Check() const;
};

struct PairSelectionReport {
  std::vector<ImagePair> pairs;  // image1 < image2, each pair once, sorted
  PairSelection mode = PairSelection::kExhaustive;  // the mode used (never kAuto)
  std::string note;  // why auto or spatial chose what it did ("" when the mode was explicit)
};

// `positions_m`: per image (in name order) its position in a local metric frame whose z is up
// (ENU), or nullopt when unknown. Spatial and auto need them; the other modes ignore them.
PairSelectionReport SelectImagePairs(const PairSelectionOptions& options,
                                     const std::vector<std::optional<Eigen::Vector3d>>& positions_m);

// Without positions (auto and spatial then select exhaustively).
std::vector<ImagePair> SelectImagePairs(const PairSelectionOptions& options, int num_images);

const char* PairSelectionName(PairSelection mode);

}  // namespace proj
