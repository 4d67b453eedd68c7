// Writes a reconstruction to OUT_DIR, every file atomically:
//   points.ply   coloured sparse point cloud (binary little-endian; MeshLab, CloudCompare)
//   cameras.ply  camera frustums beside the points
//   model/       cameras.txt, images.txt, points3D.txt in COLMAP's text format (and .bin),
//                image_source.json: the image folders (sfm/image_source/image_source.h)
//   models/1, models/2, ...  the models of the images model/ leaves out (other connected
//                components, model_components.h), as model/, each with its georeference.json
//                when aligned to its GPS; none when model/ holds every component
//   report.json  stage times, counts, registration and accuracy statistics
//   report.html  the same as a page, with a picture and a 3D view (html_report.h); after the
//                dense stage, rewritten with the dense cloud (WriteReportPageWithDenseCloud)
//   georeference.json, points.las, cameras.csv  when the model is georeferenced by its images'
//                GPS (georeferenced_outputs.h)
#pragma once

#include <string>

#include "mvs/dense_summary.h"
#include "sfm/outputs/run_description.h"
#include "sfm/stages/reconstruction_result.h"

namespace proj {

// Where result.components[index] is written, relative to OUT_DIR: "models/<index + 1>".
std::string ComponentModelPath(size_t index);

// The set is written into OUT_DIR/.outputs.partial and moved into place once every file is
// complete, so OUT_DIR holds either the whole new set, or the old set (or nothing) when a
// write fails (InputError naming the file and the reason).
void WriteReconstructionOutputs(const ReconstructionResult& result, const RunDescription& run,
                                const std::string& out_dir);

// After the dense stage (result.dense set, its workspace OUT_DIR/dense): rewrites
// OUT_DIR/report.html, atomically, with the stage's numbers and, in the 3D view, the dense
// cloud OUT_DIR/dense/points.ply when there is one (subsampled, html_report.h). InputError
// naming the file when the cloud cannot be read or the page written.
void WriteReportPageWithDenseCloud(const ReconstructionResult& result, const RunDescription& run,
                                   const std::string& out_dir);

// The page of `sfm dense MODEL_DIR -o OUT`: DENSE_ROOT/report.html (OUT/dense/report.html)
// with the model's images, sparse points and cameras, the stage's numbers and the dense cloud
// DENSE_ROOT/points.ply when there is one. OUT/report.html, of the run that made the model,
// is left as it is. InputError as above.
void WriteDenseWorkspaceReportPage(const Scene& scene, const mvs::DenseSummary& dense,
                                   const std::string& model_dir, const std::string& dense_root);

}  // namespace proj
