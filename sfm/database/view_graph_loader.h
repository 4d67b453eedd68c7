// Loads the view graph (sfm/scene/view_graph.h) from the scene database, whoever filled it
// (descriptor matching, KLT tracking, COLMAP).
#pragma once

#include <vector>

#include "sfm/database/scene_database.h"
#include "sfm/scene/view_graph.h"

namespace proj {

// The images `image_ids` (all of the database's when empty), in increasing id, with their
// cameras (focal lengths from EXIF in scene.focal_priors_px), keypoints and the verified pairs
// between them. Throws InputError when an image
// named in `image_ids` is not in the database.
ViewGraph LoadViewGraph(const SceneDatabase& database, const std::vector<int>& image_ids);

// A verified pair (not degenerate) of the whole view graph, its images numbered as
// LoadViewGraph(database, {}) numbers them, and its inlier count.
struct PairInlierCount {
  ImagePair pair;
  int num_inliers = 0;
};

// Every image of the database (as LoadViewGraph(database, {}): names, cameras, focal priors)
// without keypoints, no pairs, and the pairs' inlier counts without their matches: what a
// partition of the view graph needs, at a fraction of its size. LoadViewGraphPart then reads
// one part's keypoints and pairs into it.
ViewGraph LoadViewGraphOutline(const SceneDatabase& database, std::vector<PairInlierCount>* pair_counts);

// Reads into `graph` (from LoadViewGraphOutline) the keypoints of the images `image_indices`
// and the verified pairs between two of them (those of `pair_counts`), so that it holds what
// LoadViewGraph would for those images; the others stay without keypoints. A cluster task
// mapping one part of a survey reads that part, not the whole view graph.
void LoadViewGraphPart(const SceneDatabase& database, const std::vector<PairInlierCount>& pair_counts,
                       const std::vector<int>& image_indices, ViewGraph* graph);

}  // namespace proj
