#include "sfm/pipeline/reconstruction_pipeline.h"

#include <filesystem>
#include <sstream>
#include <utility>

#include "core/check.h"
#include "core/logging.h"
#include "core/timer.h"
#include "cuda/device_selection.h"
#include "mvs/dense_reconstruction.h"
#include "mvs/dense_workspace.h"
#include "sfm/gcp/gcp_file.h"
#include "sfm/mapper/scene_geometry.h"
#include "sfm/outputs/gcp_report.h"
#include "sfm/outputs/georeferenced_outputs.h"
#include "sfm/outputs/keypoint_colors.h"
#include "sfm/outputs/quality_report.h"
#include "sfm/outputs/report_json.h"
#include "sfm/reconstruction_io/colmap_model.h"
#include "sfm/stages/input_stage.h"
#include "sfm/stages/mapping_stage.h"
#include "sfm/stages/pair_stage.h"

namespace proj {

ReconstructionResult BuildReconstruction(const ReconstructionOptions& unresolved, const std::string& input,
                                         const std::string& database_path) {
  unresolved.Check();
  const ReconstructionOptions options = unresolved.Resolve();
  ReconstructionResult result;
  result.database_path = database_path;
  Timer total;
  if (!options.ground_control.gcp_path.empty()) {  // a bad GCP file fails before the work
    CheckGcpNames(ReadGcpFile(options.ground_control.gcp_path), options.ground_control.check_names);
  }
  SceneDatabase database(database_path, SceneDatabase::Mode::kReadWrite);
  PROJ_LOG(kInfo, "scene database: " << database_path);
  ExtractionStageSummary extraction = RunExtractionStage(options, input, &database);
  const std::vector<int> image_ids = extraction.image_ids;
  AddStageSummary(std::move(extraction), &result);
  PROJ_REQUIRE(image_ids.size() >= 2, "only " << image_ids.size() << " of " << result.statistics.num_input_files
                                              << " files in '" << input
                                              << "' could be read as images; at least two are needed");
  AddStageSummary(RunMatchingStages(options, image_ids, &database), &result);
  AddStageSummary(RunMappingStage(options, image_ids, database), &result);
  result.times.Add("total", total.ElapsedSeconds());
  return result;
}

ReconstructionResult ReconstructFolder(const ReconstructionOptions& options, const ReconstructionPaths& paths,
                                       const std::optional<mvs::DenseOptions>& dense,
                                       const std::optional<mvs::MapProductsOptions>& products) {
  const RunDescription run{paths.input, ComputeDeviceSummary(options.run.device, options.run.gpus),
                           paths.command_line};
  PROJ_LOG(kInfo, "device: " << run.device);
  ReconstructionResult result = BuildReconstruction(options, paths.input, paths.database);
  FinishReconstruction(run, paths.output, options.run.num_threads, &result);
  if (dense && result.mapper.success) {
    mvs::DenseOptions dense_options = *dense;
    dense_options.device = options.run.device;
    dense_options.gpus = options.run.gpus;
    dense_options.num_threads = options.run.num_threads;
    RunDenseStage(dense_options, run, paths.output, &result);
    if (products) {
      mvs::MapProductsOptions products_options = *products;
      products_options.num_threads = options.run.num_threads;
      RunProductsStage(products_options, run, paths.output, &result);
    }
  }
  return result;
}

void RunDenseStage(const mvs::DenseOptions& options, const RunDescription& run, const std::string& out_dir,
                   ReconstructionResult* result) {
  const std::string dense_root = (std::filesystem::path(out_dir) / "dense").string();
  // The model as written (OUT/model), not as held: `sfm dense OUT/model` reads that one, and
  // resume.txt's hashes of the poses would differ in the last bits (text and quaternions)
  // and redo maps a finished run already has.
  const Scene written = ReadColmapModel((std::filesystem::path(out_dir) / "model").string());
  result->dense = mvs::ReconstructDense(written, result->images, dense_root, options);
  if (IsGeoreferenced(*result)) {
    const mvs::DenseCloud& cloud = result->dense->cloud;
    WriteGeoreferencedPointsLas(*result->enu_frame, cloud.positions, cloud.colors, "sfm dense cloud",
                                mvs::DenseWorkspace(dense_root).PointsLasPath());
  }
  result->times.Add("dense", result->dense->total_seconds);
  WriteReport(*result, run, (std::filesystem::path(out_dir) / "report.json").string());
  WriteReportPageWithDenseCloud(*result, run, out_dir);  // report.html with the dense cloud
}

void RunProductsStage(const mvs::MapProductsOptions& options, const RunDescription& run, const std::string& out_dir,
                      ReconstructionResult* result) {
  PROJ_CHECK(result->dense.has_value(), "the map products need the dense stage");
  PROJ_REQUIRE(IsGeoreferenced(*result), "no map products: " << NotGeoreferencedReason());
  result->products = mvs::MakeMapProducts(result->scene, result->dense->cloud, *result->enu_frame,
                                          result->dense->max_image_size_px,
                                          (std::filesystem::path(out_dir) / "dense").string(), out_dir, options);
  result->times.Add("products", result->products->seconds);
  WriteReport(*result, run, (std::filesystem::path(out_dir) / "report.json").string());
  WriteReportPageWithDenseCloud(*result, run, out_dir);
}

void FinishReconstruction(const RunDescription& run, const std::string& out_dir, int num_threads,
                          ReconstructionResult* result) {
  if (!result->mapper.success) {
    WriteReport(*result, run, out_dir + "/report.json");
    PROJ_LOG(kError, NoModelMessage(*result));
    return;
  }
  Timer timer;
  // A video given as the input is no folder: its picked frames' folder holds its images.
  std::error_code not_a_folder;
  const bool input_is_folder = std::filesystem::is_directory(run.images_dir, not_a_folder);
  result->images = ImageSource({input_is_folder ? run.images_dir : "", result->frames_dir});
  if (result->images.empty()) {
    PROJ_LOG(kWarning, "no --image-path: the points are written grey");
    for (auto& [id, point] : result->scene.points) point.color.setConstant(128);
  } else {
    ColorPointsFromImages(result->images, num_threads, &result->scene);
    for (ComponentModel& component : result->components) {
      ColorPointsFromImages(result->images, num_threads, &component.scene);
    }
  }
  result->times.Add("colours", timer.ElapsedSeconds());
  WriteReconstructionOutputs(*result, run, out_dir);
  std::vector<char> in_a_component(result->scene.images.size(), 0);
  for (size_t i = 0; i < result->components.size(); ++i) {
    const ComponentModel& component = result->components[i];
    PROJ_LOG(kInfo, "component " << i + 2 << ": " << component.scene.NumRegisteredImages() << " images, "
                                 << component.scene.points.size() << " points -> "
                                 << (std::filesystem::path(out_dir) / ComponentModelPath(i)).string());
    for (size_t j = 0; j < component.image_ids.size(); ++j) {
      if (component.scene.images[j].registered) in_a_component[component.image_ids[j]] = 1;
    }
  }
  for (size_t i = 0; i < result->scene.images.size(); ++i) {
    const SceneImage& image = result->scene.images[i];
    if (!image.registered && !in_a_component[i]) PROJ_LOG(kWarning, "not registered: '" << image.name << "'");
  }
  if (result->quality.verdict != QualityVerdict::kGood) PROJ_LOG(kWarning, QualitySummaryLine(*result));
}

std::string NotGeoreferencedReason() {
  return "the model is not georeferenced (its photos have no GPS position and no --gcp file was given), so "
         "it has no map coordinate system; georeference it with --gcp, or use the dense cloud "
         "(dense/points.ply) in the model's own frame";
}

std::string NoModelMessage(const ReconstructionResult& result) {
  return "no model could be built: " + result.mapper.failure_reason;
}

std::string ReconstructionSummary(const ReconstructionResult& result, const std::string& out_dir) {
  const Scene& scene = result.scene;
  std::ostringstream summary;
  summary << "registered " << scene.NumRegisteredImages() << "/" << scene.images.size() << " images";
  if (!result.skipped.empty()) summary << " (" << result.skipped.size() << " files skipped)";
  summary << ", " << scene.points.size() << " points, mean reprojection error "
          << MeanReprojectionErrorPx(scene) << " px, mean track length " << MeanTrackLength(scene);
  if (result.ground_control) summary << "\n" << GcpSummaryLine(*result.ground_control);
  summary << "\n" << QualitySummaryLine(result);
  summary << "\ntimes:";
  // The stages and the mapper's steps; CPU seconds and sub-steps are in report.json.
  for (const auto& [stage, seconds] : result.times.entries()) {
    if (stage.find('.') != std::string::npos || stage.rfind("mapping_cpu", 0) == 0) continue;
    summary << " " << stage << " " << seconds << " s;";
  }
  summary << "\noutput: " << out_dir << "/points.ply, cameras.ply, model/, report.json, report.html";
  if (!result.components.empty()) {
    int num_images = 0;
    for (const ComponentModel& component : result.components) num_images += component.scene.NumRegisteredImages();
    summary << "\nother components: " << result.components.size() << " models of " << num_images
            << " images in " << out_dir << "/models/ (model/ is the largest)";
  }
  if (!result.rejected_components.empty()) {
    summary << "\nnot kept: " << result.rejected_components.size()
            << " models of other components failed their quality checks (report.json \"rejected_components\")";
  }
  if (result.dense) summary << "\n" << mvs::DenseSummaryLine(*result.dense) << "\noutput: " << result.dense->workspace << "/";
  if (result.products) summary << "\nmap products: " << result.products->dsm_path;
  return summary.str();
}

}  // namespace proj
