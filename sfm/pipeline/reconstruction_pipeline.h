// The reconstruction of a photo folder (or a video) as a sequence of stages around one scene
// database (sfm/database/scene_database.h), each a runner of sfm/stages that returns its own
// summary:
//   input    -> images, cameras, keypoints, descriptors    (input_stage.h: SIFT extraction,
//               or KLT tracking with its verification for --matcher klt)
//   pairs    -> putative matches and two-view geometries    (pair_stage.h)
//   mapping  -> view graph, tracks, the mapper's model      (mapping_stage.h)
//   outputs  -> colours, point clouds, COLMAP model, reports (sfm/outputs/output_writer.h)
//   dense    -> with --dense, depth maps and the dense cloud in OUT/dense
//               (mvs/dense_reconstruction.h), once the sparse outputs are safely written
//   products -> with --products (which implies --dense), the map products of a georeferenced
//               model: OUT/dsm.tif (mvs/map_products.h)
// Each stage reads what it needs from the database and writes its results there as they
// complete, so a killed run resumes where it stopped and a re-run on a grown folder only
// computes what is new.
#pragma once

#include <optional>
#include <string>

#include "mvs/dense_options.h"
#include "mvs/map_products.h"
#include "sfm/outputs/output_writer.h"
#include "sfm/stages/reconstruction_options.h"
#include "sfm/stages/reconstruction_result.h"

namespace proj {

// Where one run reads and writes.
struct ReconstructionPaths {
  std::string input;          // a folder of photos and videos, or one video
  std::string database;       // the scene database, created when missing
  std::string output;         // the output folder (created when missing)
  std::string command_line;   // recorded in report.json
};

// All stages with the database at `database_path` (created when missing), without outputs.
// Throws InputError for a missing or unreadable folder, fewer than two usable images or an
// unusable database. A run that cannot build a model returns result.mapper.success == false.
ReconstructionResult BuildReconstruction(const ReconstructionOptions& options, const std::string& input,
                                         const std::string& database_path);

// BuildReconstruction, then FinishReconstruction into paths.output, then, when `dense` is
// given and a model was built, RunDenseStage with the run's device, GPUs and threads, then,
// when `products` is given too, RunProductsStage.
ReconstructionResult ReconstructFolder(const ReconstructionOptions& options, const ReconstructionPaths& paths,
                                       const std::optional<mvs::DenseOptions>& dense = std::nullopt,
                                       const std::optional<mvs::MapProductsOptions>& products = std::nullopt);

// What a run does once the mapper has finished: point colours sampled from the images (the
// input folder `images_dir` and the picked video frames; grey without either), and every
// output written atomically into `out_dir` (output_writer.h), with a warning when the model's
// quality verdict is not good; report.json alone, saying why, when no model was built.
void FinishReconstruction(const RunDescription& run, const std::string& out_dir, int num_threads,
                          ReconstructionResult* result);

// The dense stage on a finished reconstruction (its outputs written): depth maps of
// result->scene's registered images, found through result->images, in OUT_DIR/dense; the
// summary goes into result->dense and its time into result->times, and report.json is
// written again with them. Throws as mvs::ReconstructDense.
void RunDenseStage(const mvs::DenseOptions& options, const RunDescription& run, const std::string& out_dir,
                   ReconstructionResult* result);

// The map products of a run whose dense stage ran (result->dense): OUT_DIR/dsm.tif of the
// dense cloud, in the model's map CRS; the summary goes into result->products and its time
// into result->times, and report.json and report.html are written again with them. Throws
// InputError when the model is not georeferenced (no GPS, no --gcp: no map CRS) or as
// mvs::MakeMapProducts.
void RunProductsStage(const mvs::MapProductsOptions& options, const RunDescription& run, const std::string& out_dir,
                      ReconstructionResult* result);

// Why a model without a map CRS gets no map products ("the model is not georeferenced ...").
std::string NotGeoreferencedReason();

// Why a run that built no model failed, as the run logs it ("no model could be built: ...").
std::string NoModelMessage(const ReconstructionResult& result);

// The closing lines a run prints: registered images, points, errors, the model's quality
// verdict, where the outputs went and the stage times in one line.
std::string ReconstructionSummary(const ReconstructionResult& result, const std::string& out_dir);

}  // namespace proj
