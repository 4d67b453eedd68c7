// Writes a reconstruction to OUT_DIR, every file atomically:
//   points.ply   coloured sparse point cloud (binary little-endian; MeshLab, CloudCompare)
//   cameras.ply  camera frustums beside the points
//   model/       cameras.txt, images.txt, points3D.txt in COLMAP's text format (and .bin),
//                image_source.json: the image folders (sfm/image_source/image_source.h)
//   report.json  stage times, counts, registration and accuracy statistics
//   report.html  the same as a page, with a picture and a 3D view (html_report.h)
//   georeference.json, points.las, cameras.csv  when the model is georeferenced by its images'
//                GPS (georeferenced_outputs.h)
#pragma once

#include <string>

#include "sfm/outputs/run_description.h"
#include "sfm/stages/reconstruction_result.h"

namespace proj {

// The set is written into OUT_DIR/.outputs.partial and moved into place once every file is
// complete, so OUT_DIR holds either the whole new set, or the old set (or nothing) when a
// write fails (InputError naming the file and the reason).
void WriteReconstructionOutputs(const ReconstructionResult& result, const RunDescription& run,
                                const std::string& out_dir);

}  // namespace proj
