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

}  // namespace proj
