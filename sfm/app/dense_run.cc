#include "sfm/app/dense_run.h"

#include <filesystem>

#include "mvs/dense_reconstruction.h"
#include "mvs/dense_report.h"
#include "mvs/dense_workspace.h"
#include "sfm/outputs/georeferenced_outputs.h"
#include "sfm/outputs/output_writer.h"

namespace proj::app {

std::optional<EnuFrame> GeoreferenceOfModel(const std::string& model_dir) {
  const std::filesystem::path path =
      std::filesystem::absolute(model_dir).lexically_normal().parent_path() / "georeference.json";
  if (!std::filesystem::exists(path)) return std::nullopt;
  return ReadEnuFrameFromGeoreferenceJson(path.string());
}

mvs::DenseSummary DensifyModel(const Scene& scene, const ImageSource& images, const std::string& model_dir,
                               const std::string& out_dir, const mvs::DenseOptions& options) {
  const mvs::DenseWorkspace workspace((std::filesystem::path(out_dir) / "dense").string());
  const std::optional<EnuFrame> georeference = GeoreferenceOfModel(model_dir);
  const mvs::DenseSummary summary = mvs::ReconstructDense(scene, images, workspace.root(), options);
  if (georeference && !summary.cloud.positions.empty()) {
    WriteGeoreferencedPointsLas(*georeference, summary.cloud.positions, summary.cloud.colors, "sfm dense cloud",
                                workspace.PointsLasPath());
  }
  mvs::WriteDenseReport(summary, workspace.ReportPath());
  WriteDenseWorkspaceReportPage(scene, summary, model_dir, workspace.root());  // OUT/dense/report.html
  return summary;
}

}  // namespace proj::app
