// The parts of a cluster run's partitioned mapping on shared storage (README "Cluster"): task i
// of N (`sfm map --part i/N -o PARTS`) maps part i of the partition (partitioned_mapping.h) and
// writes its model into PARTS/part-i-of-N/: a COLMAP binary model, then part.txt, written
// last, which makes it a finished part (a task killed mid-way leaves none, or a temporary
// folder the next attempt replaces). `sfm map --merge-parts PARTS` reads all N and refuses a
// missing part, or a part made from another database or partition (part.txt names the view
// graph's size and the part's images).
#pragma once

#include <string>
#include <vector>

#include "sfm/partition/part_merge.h"
#include "sfm/scene/view_graph.h"
#include "sfm/stages/shard.h"

namespace proj {

// "part-3-of-8" for part 3/8.
std::string PartDirectoryName(const Shard& part);

// Writes `model` (images of the whole view graph `graph_scene`, `num_pairs` verified pairs:
// recorded to check the merge's input) as part `part` into `parts_dir` (created if missing);
// the part's folder is replaced whole. Throws InputError naming the path when it cannot be
// written.
void WritePartModel(const std::string& parts_dir, const Shard& part, const PartModel& model,
                    const Scene& graph_scene, size_t num_pairs);

// The N of the parts in `parts_dir` (part-i-of-N folders). Throws InputError naming the folder
// when it holds none, or parts of different counts.
int PartCountInFolder(const std::string& parts_dir);

// The N parts in `parts_dir` of the partition `partition` of the view graph (graph_scene,
// num_pairs), by part index (poses and intrinsics). Throws InputError naming the folder when a
// part is missing or unfinished, or when a part's record does not match this view graph and
// partition.
std::vector<PartModel> ReadPartModels(const std::string& parts_dir, const std::vector<std::vector<int>>& partition,
                                      const Scene& graph_scene, size_t num_pairs);

}  // namespace proj
