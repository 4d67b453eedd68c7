#include "sfm/outputs/html_report.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iomanip>
#include <sstream>
#include <vector>

#include "core/check.h"
#include "io/atomic_file.h"
#include "io/base64.h"
#include "io/image_encode.h"
#include "sfm/mapper/scene_geometry.h"
#include "sfm/outputs/gcp_report.h"
#include "sfm/outputs/georeferenced_outputs.h"
#include "sfm/outputs/output_writer.h"
#include "sfm/outputs/report_assets.h"
#include "sfm/render/scene_render.h"

namespace proj {
namespace {

constexpr char kStyle[] = R"(
body { font: 14px/1.45 system-ui, sans-serif; margin: 0 auto; max-width: 1200px; padding: 0 16px 32px; color: #1d1f24; }
h1 { font-size: 22px; margin: 16px 0 2px; } h2 { font-size: 17px; margin: 24px 0 8px; }
.sub { color: #5b6070; margin: 0; word-break: break-all; }
#viewer { height: 560px; background: #181a1f; border-radius: 6px; overflow: hidden; }
#viewer.absent { height: auto; }
#viewer-status { color: #5b6070; margin: 6px 0 0; }
.missing { padding: 24px; color: #e8e8e8; }
img.picture { max-width: 100%; border-radius: 6px; }
table { border-collapse: collapse; } td, th { padding: 3px 12px 3px 0; text-align: left; border-bottom: 1px solid #e3e5ea; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.no { color: #b3261e; }
.columns { display: flex; gap: 48px; flex-wrap: wrap; }
.map { position: relative; display: inline-block; } .map img { display: block; border: 1px solid #c9ccd3; }
.north { position: absolute; top: 6px; right: 8px; font-weight: 600; background: #fffc; padding: 0 5px; border-radius: 4px; }
.scale { margin: 6px 0 0; } .scale span { display: inline-block; height: 6px; border: 2px solid #1d1f24; border-top: 0; vertical-align: middle; }
)";

std::string Escape(const std::string& text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

template <typename T>
std::string Fixed(T value, int decimals) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(decimals) << value;
  return out.str();
}

template <typename T>
std::string Base64Of(const std::vector<T>& values) {
  return EncodeBase64(reinterpret_cast<const uint8_t*>(values.data()), values.size() * sizeof(T));
}

std::string JsonVector(const Eigen::Vector3d& v) {
  std::ostringstream out;
  out << std::setprecision(17) << "[" << v.x() << ", " << v.y() << ", " << v.z() << "]";
  return out.str();
}

// Every k-th of `count` items so that at most `max_count` remain (deterministic).
size_t Stride(size_t count, int max_count) {
  return std::max<size_t>(1, (count + max_count - 1) / max_count);
}

// The 3D view's model as JSON (the format is described in report_viewer.js). Positions are
// relative to the view's target, so float32 keeps them precise for scenes far from the origin.
// The "dense" object only when `dense` has points: the page of a sparse model is unchanged.
std::string ModelJson(const Scene& scene, const RenderView& view, double fov_deg,
                      const RenderStyle& style, const HtmlReportOptions& options,
                      const mvs::DenseCloud* dense) {
  const Eigen::Matrix3d cam_from_world = view.cam_from_world.rotation.toRotationMatrix();
  const Eigen::Vector3d position = view.cam_from_world.Center();
  const Eigen::Vector3d target = position + view.target_distance * cam_from_world.row(2).transpose();
  const size_t stride = Stride(scene.points.size(), options.max_view_points);
  std::vector<float> points;
  std::vector<uint8_t> colors;
  size_t index = 0;
  for (const auto& [id, point] : scene.points) {
    if (index++ % stride != 0) continue;
    for (int axis = 0; axis < 3; ++axis) {
      points.push_back(static_cast<float>(point.position[axis] - target[axis]));
      colors.push_back(point.color[axis]);
    }
  }
  std::vector<float> frustums;
  int num_cameras = 0;
  auto add_segment = [&](const Eigen::Vector3d& a, const Eigen::Vector3d& b) {
    for (const Eigen::Vector3d* p : {&a, &b}) {
      for (int axis = 0; axis < 3; ++axis) frustums.push_back(static_cast<float>((*p)[axis] - target[axis]));
    }
  };
  for (const auto& image : scene.images) {
    std::array<Eigen::Vector3d, 4> corners;
    const double depth = style.frustum_depth_share * view.target_distance;
    if (!image.registered || !FrustumCorners(scene, image, depth, &corners)) continue;
    ++num_cameras;
    for (int i = 0; i < 4; ++i) {
      add_segment(image.cam_from_world.Center(), corners[i]);
      add_segment(corners[i], corners[(i + 1) % 4]);
    }
  }
  std::ostringstream json;
  json << "{\"origin\": " << JsonVector(target) << ",\n\"points_total\": " << scene.points.size()
       << ", \"num_cameras\": " << num_cameras << ",\n\"view\": {\"position\": "
       << JsonVector(position) << ", \"target\": " << JsonVector(target)
       << ", \"up\": " << JsonVector(-cam_from_world.row(1).transpose()) << ", \"fov_deg\": " << fov_deg
       << "},\n\"points\": \"" << Base64Of(points) << "\",\n\"colors\": \"" << Base64Of(colors)
       << "\",\n\"frustums\": \"" << Base64Of(frustums) << "\"";
  if (dense != nullptr && dense->size() > 0) {
    const size_t dense_stride = Stride(dense->size(), options.max_dense_view_points);
    const bool has_colors = dense->colors.size() == dense->size();
    std::vector<float> dense_points;
    std::vector<uint8_t> dense_colors;
    dense_points.reserve(3 * (dense->size() / dense_stride + 1));
    dense_colors.reserve(3 * (dense->size() / dense_stride + 1));
    for (size_t i = 0; i < dense->size(); i += dense_stride) {
      for (int axis = 0; axis < 3; ++axis) {
        dense_points.push_back(static_cast<float>(dense->positions[i][axis] - target[axis]));
        dense_colors.push_back(has_colors ? dense->colors[i][axis] : 200);
      }
    }
    json << ",\n\"dense\": {\"points_total\": " << dense->size() << ", \"points\": \""
         << Base64Of(dense_points) << "\",\n\"colors\": \"" << Base64Of(dense_colors) << "\"}";
  }
  json << "}";
  return json.str();
}

// The import map that resolves the viewer's imports to the bundled three.js, as data URIs.
std::string ImportMap() {
  auto data_uri = [](const char* text) { return "data:text/javascript;base64," + EncodeBase64(text); };
  return "<script type=\"importmap\">{\"imports\": {\"three\": \"" +
         data_uri(report_assets::kThreeModuleJs) +
         "\", \"three/addons/controls/OrbitControls.js\": \"" +
         data_uri(report_assets::kOrbitControlsJs) + "\"}}</script>\n";
}

void WriteRow(std::ostream& out, const std::string& label, const std::string& value) {
  out << "<tr><td>" << Escape(label) << "</td><td class=\"num\">" << Escape(value) << "</td></tr>\n";
}

void WriteSummary(const ReconstructionResult& result, const RunDescription& run, std::ostream& out) {
  const Scene& scene = result.scene;
  const auto& stats = result.statistics;
  out << "<div class=\"columns\"><div><h2>Summary</h2><table>\n";
  WriteRow(out, "registered images", std::to_string(scene.NumRegisteredImages()) + " of " +
                                         std::to_string(scene.images.size()));
  WriteRow(out, "points", std::to_string(scene.points.size()));
  WriteRow(out, "mean reprojection error", Fixed(MeanReprojectionErrorPx(scene), 3) + " px");
  WriteRow(out, "mean track length", Fixed(MeanTrackLength(scene), 2));
  WriteRow(out, "input files", std::to_string(stats.num_input_files));
  WriteRow(out, "usable images", std::to_string(stats.num_usable_images));
  WriteRow(out, "cameras (intrinsics)", std::to_string(stats.num_cameras));
  WriteRow(out, "features", std::to_string(stats.num_features));
  WriteRow(out, "pairs matched / verified", std::to_string(stats.num_pairs_matched) + " / " +
                                                std::to_string(stats.num_pairs_verified));
  WriteRow(out, "putative / verified matches", std::to_string(stats.num_putative_matches) + " / " +
                                                   std::to_string(stats.num_verified_matches));
  if (stats.num_keyframes > 0) WriteRow(out, "keyframes", std::to_string(stats.num_keyframes));
  WriteRow(out, "tracks", std::to_string(stats.num_tracks));
  WriteRow(out, "matched features in tracks", std::to_string(stats.num_features_in_tracks) + " / " +
                                                  std::to_string(stats.num_matched_features));
  WriteRow(out, "bundle adjustments global / local", std::to_string(result.mapper.num_global_ba) +
                                                         " / " + std::to_string(result.mapper.num_local_ba));
  WriteRow(out, "device", run.device);
  if (!result.extractor.empty()) WriteRow(out, "features / matcher", result.extractor + " / " + result.matcher);
  out << "</table></div>\n<div><h2>Stage times</h2><table>\n";
  for (const auto& [stage, seconds] : result.times.entries()) WriteRow(out, stage, Fixed(seconds, 2) + " s");
  out << "</table></div></div>\n";
}

void WriteImageTable(const Scene& scene, std::ostream& out) {
  out << "<h2>Images</h2><table><tr><th>image</th><th>status</th><th>camera</th><th>keypoints</th>"
         "<th>observations</th><th>mean reprojection error (px)</th></tr>\n";
  for (size_t image_id = 0; image_id < scene.images.size(); ++image_id) {
    const SceneImage& image = scene.images[image_id];
    if (image.name.empty()) continue;  // a gap in a model's image ids
    int observations = 0;
    double error_sum = 0;
    for (size_t k = 0; k < image.point3d_ids.size(); ++k) {
      const auto point = scene.points.find(image.point3d_ids[k]);
      if (!image.registered || point == scene.points.end()) continue;
      ++observations;
      error_sum += ReprojectionErrorPx(scene, static_cast<int>(image_id), static_cast<int>(k),
                                       point->second.position);
    }
    out << "<tr><td>" << Escape(image.name) << "</td>"
        << (image.registered ? "<td>registered</td>" : "<td class=\"no\">not registered</td>")
        << "<td class=\"num\">" << image.camera_id + 1 << "</td><td class=\"num\">"
        << image.keypoints.size() << "</td><td class=\"num\">" << observations
        << "</td><td class=\"num\">" << (observations ? Fixed(error_sum / observations, 3) : "")
        << "</td></tr>\n";
  }
  out << "</table>\n";
}

// The model's self-check (quality_report.h): the verdict first, since a model that is not
// good must not be taken for one.
void WriteQualitySection(const ReconstructionResult& result, std::ostream& out) {
  if (!result.mapper.success) return;
  const ModelQuality& quality = result.quality;
  const bool good = quality.verdict == QualityVerdict::kGood;
  out << "<h2>Model quality</h2>\n<p" << (good ? "" : " class=\"no\"") << ">Verdict: <b>"
      << QualityVerdictName(quality.verdict) << "</b>"
      << (good ? "" : ". Do not use this model as it is: it disagrees with its evidence.") << "</p>\n";
  if (!quality.reasons.empty()) {
    out << "<ul>\n";
    for (const std::string& reason : quality.reasons) out << "<li>" << Escape(reason) << "</li>\n";
    out << "</ul>\n";
  }
  if (!good && !quality.worst_images.empty()) {
    out << "<p>Farthest from their GPS fixes:";
    for (size_t i = 0; i < quality.worst_images.size(); ++i) out << (i ? ", " : " ") << Escape(quality.worst_images[i]);
    out << ".</p>\n";
  }
  if (quality.pairs.checked) {
    out << "<p>Image pairs: the model contradicts " << quality.pairs.num_contradicted_pairs << " of its "
        << quality.pairs.num_strong_pairs << " strongest pairs.</p>\n";
  }
  if (quality.gps.checked) {
    out << "<p>GPS: the cameras lie a median " << Fixed(quality.gps.median_m, 2) << " m from their "
        << quality.gps.num_fixes << " fixes (all of them; limit " << Fixed(quality.gps.limit_m, 2) << " m).</p>\n";
  }
  if (result.rebuilt_with_gps && result.first_attempt) {
    out << "<p>This model is the second attempt, mapped with the GPS as a constraint from the start: the first was "
        << QualityVerdictName(result.first_attempt->verdict) << " (";
    for (size_t i = 0; i < result.first_attempt->reasons.size(); ++i) {
      out << (i ? "; " : "") << Escape(result.first_attempt->reasons[i]);
    }
    out << ").</p>\n";
  }
}

// Every model written (the main one and the other connected components', model_components.h)
// with its verdict, and the components not kept for failing their self-check; nothing when
// the run built one model.
void WriteModelsSection(const ReconstructionResult& result, std::ostream& out) {
  if (!result.mapper.success || (result.components.empty() && result.rejected_components.empty())) return;
  out << "<h2>Models</h2>\n<table><tr><th>model</th><th>images</th><th>points</th>"
         "<th>mean reprojection error</th><th>georeferenced</th><th>verdict</th></tr>\n";
  const auto row = [&](const std::string& path, const Scene& scene, bool georeferenced, const ModelQuality& quality) {
    out << "<tr><td>" << Escape(path) << "</td><td>" << scene.NumRegisteredImages() << "</td><td>"
        << scene.points.size() << "</td><td>" << Fixed(MeanReprojectionErrorPx(scene), 3) << " px</td><td>"
        << (georeferenced ? "yes" : "no") << "</td><td"
        << (quality.verdict == QualityVerdict::kGood ? "" : " class=\"no\"") << ">"
        << QualityVerdictName(quality.verdict)
        << (quality.reasons.empty() ? "" : ": " + Escape(JoinReasons(quality.reasons))) << "</td></tr>\n";
  };
  row("model", result.scene, IsGeoreferenced(result), result.quality);
  for (size_t i = 0; i < result.components.size(); ++i) {
    const ComponentModel& component = result.components[i];
    row(ComponentModelPath(i), component.scene, IsComponentGeoreferenced(result, component), component.quality);
  }
  out << "</table>\n";
  if (result.rejected_components.empty()) return;
  out << "<p class=\"no\">Not kept (a model of these images disagreed with its evidence, even mapped again "
         "with the GPS as a constraint; its images are left unregistered):</p>\n<ul>\n";
  for (const RejectedComponent& rejected : result.rejected_components) {
    out << "<li>" << rejected.num_registered << " of " << rejected.image_ids.size() << " images, "
        << QualityVerdictName(rejected.quality.verdict) << ": " << Escape(JoinReasons(rejected.quality.reasons))
        << "</li>\n";
  }
  out << "</ul>\n";
}

// The alignment to GPS: per image with a fix, its residual (estimated centre - fix).
void WriteGpsTable(const ReconstructionResult& result, std::ostream& out) {
  if (!result.enu_frame || result.scene.position_priors.empty()) return;
  const PriorAlignment& alignment = result.mapper.georeference;
  out << "<h2>GPS</h2>\n";
  if (!IsGeoreferenced(result)) {
    out << "<p>Not georeferenced: " << Escape(alignment.failure_reason) << "</p>\n";
    return;
  }
  out << "<p>Georeferenced: " << alignment.NumInliers() << " of " << alignment.residuals.size()
      << " registered images with GPS agree with the model; residual RMS "
      << Fixed(alignment.inlier_rms_m, 2) << " m, max " << Fixed(alignment.inlier_max_m, 2)
      << " m (over those); over all: median " << Fixed(alignment.all_median_m, 2) << " m, RMS "
      << Fixed(alignment.all_rms_m, 2) << " m, max " << Fixed(alignment.all_max_m, 2) << " m.</p>\n<table><tr><th>image</th><th>east (m)</th><th>north (m)</th>"
         "<th>up (m)</th><th>distance (m)</th><th>GPS used</th></tr>\n";
  for (const PriorResidual& r : alignment.residuals) {
    out << "<tr><td>" << Escape(result.scene.images[r.image_id].name) << "</td>";
    for (int k = 0; k < 3; ++k) out << "<td class=\"num\">" << Fixed(r.residual_m[k], 2) << "</td>";
    out << "<td class=\"num\">" << Fixed(r.residual_m.norm(), 2) << "</td>"
        << (r.inlier ? "<td>yes</td>" : "<td class=\"no\">outlier</td>") << "</tr>\n";
  }
  out << "</table>\n";
}

// The ground control points (--gcp): per point, its residual (triangulated - surveyed).
void WriteGcpTable(const ReconstructionResult& result, std::ostream& out) {
  if (!result.ground_control) return;
  const GroundControlSummary& gcp = *result.ground_control;
  out << "<h2>Ground control points</h2>\n<p>" << Escape(GcpSummaryLine(gcp)) << "</p>\n";
  if (!gcp.georeferenced) return;
  out << "<table><tr><th>point</th><th>role</th><th>marks</th><th>east (m)</th><th>north (m)</th>"
         "<th>up (m)</th><th>distance (m)</th></tr>\n";
  for (const GcpResidual& point : gcp.points) {
    out << "<tr><td>" << Escape(point.name) << "</td><td>" << (point.role == GcpRole::kControl ? "control" : "check")
        << "</td><td class=\"num\">" << point.num_registered_marks << "/" << point.num_marks << "</td>";
    if (!point.triangulated) {
      out << "<td class=\"no\" colspan=\"4\">not triangulated</td></tr>\n";
      continue;
    }
    for (int k = 0; k < 3; ++k) out << "<td class=\"num\">" << Fixed(point.residual_enu_m[k], 3) << "</td>";
    out << "<td class=\"num\">" << Fixed(point.residual_enu_m.norm(), 3) << "</td></tr>\n";
  }
  out << "</table>\n";
}

void WriteSkipped(const ReconstructionResult& result, std::ostream& out) {
  out << "<h2>Skipped files</h2>\n";
  if (result.skipped.empty()) {
    out << "<p>None: every file in the folder could be read.</p>\n";
    return;
  }
  out << "<table><tr><th>file</th><th>reason</th></tr>\n";
  for (const auto& skipped : result.skipped) {
    out << "<tr><td>" << Escape(skipped.name) << "</td><td>" << Escape(skipped.reason) << "</td></tr>\n";
  }
  out << "</table>\n";
}

// "2,712,345"
std::string Grouped(long long value) {
  std::string digits = std::to_string(value < 0 ? -value : value);
  for (int k = static_cast<int>(digits.size()) - 3; k > 0; k -= 3) digits.insert(k, ",");
  return (value < 0 ? "-" : "") + digits;
}

// The dense stage's numbers (report.json's "dense" object) and how much of its cloud the 3D
// view shows.
void WriteDenseSection(const mvs::DenseSummary& dense, const mvs::DenseCloud* cloud,
                       const HtmlReportOptions& options, bool has_viewer, std::ostream& out) {
  const size_t num_points = cloud != nullptr ? cloud->size() : 0;
  out << "<h2>Dense cloud</h2><table>\n";
  std::string points = Grouped(static_cast<long long>(num_points));
  if (num_points > 0 && has_viewer) {
    const size_t stride = Stride(num_points, options.max_dense_view_points);
    const size_t shown = (num_points + stride - 1) / stride;  // as ModelJson keeps them
    points += " (" + Grouped(static_cast<long long>(shown)) + " shown in the 3D view)";
  }
  WriteRow(out, "dense points", points);
  WriteRow(out, "depth maps computed / reused", std::to_string(dense.num_depth_maps_computed) + " / " +
                                                    std::to_string(dense.num_depth_maps_reused));
  WriteRow(out, "images without a depth map", std::to_string(dense.skipped.size()) + " of " +
                                                  std::to_string(dense.num_images));
  WriteRow(out, "max image size", std::to_string(dense.max_image_size_px) + " px");
  WriteRow(out, "seconds per depth map (median)", Fixed(dense.depth_map_seconds_median, 2) + " s");
  WriteRow(out, "undistortion / depth maps / fusion", Fixed(dense.undistort_seconds, 2) + " / " +
                                                          Fixed(dense.depth_maps_seconds, 2) + " / " +
                                                          Fixed(dense.fusion_seconds, 2) + " s");
  WriteRow(out, "device", dense.device);
  WriteRow(out, "workspace", dense.workspace);
  out << "</table>\n";
  if (dense.skipped.empty()) return;
  out << "<table><tr><th>image without a depth map</th><th>reason</th></tr>\n";
  for (const auto& skipped : dense.skipped) {
    out << "<tr><td>" << Escape(skipped.name) << "</td><td>" << Escape(skipped.reason) << "</td></tr>\n";
  }
  out << "</table>\n";
}

// The longest of 1, 2, 5 x 10^k metres that fits `max_m`.
double ScaleBarLength(double max_m) {
  const double decade = std::pow(10.0, std::floor(std::log10(max_m)));
  for (const double factor : {5.0, 2.0, 1.0}) {
    if (factor * decade <= max_m) return factor * decade;
  }
  return decade;
}

std::string MetresText(double metres) {
  return metres >= 1000 ? Fixed(metres / 1000, metres >= 10000 ? 0 : 1) + " km"
                        : Fixed(metres, metres >= 1 ? 0 : 2) + " m";
}

// The map products: their files and grid, and a north-up picture (the orthophoto when there
// is one, else the coloured, shaded surface model) with a scale bar.
void WriteProductsSection(const mvs::MapProductsSummary& products, std::ostream& out) {
  out << "<h2>Map products</h2>\n";
  const Image& picture = products.preview.image;
  if (!picture.empty()) {
    const std::vector<uint8_t> png = EncodePng(picture);
    const double bar_m = ScaleBarLength(picture.width * products.preview.metres_per_px / 4);
    const double bar_px = bar_m / products.preview.metres_per_px;
    out << "<div class=\"map\"><img alt=\""
        << (products.orthophoto_path.empty() ? "surface model: heights coloured and shaded" : "orthophoto")
        << "\" width=\"" << picture.width << "\" height=\"" << picture.height << "\" src=\"data:image/png;base64,"
        << EncodeBase64(png.data(), png.size()) << "\"><span class=\"north\">N &uarr;</span></div>\n"
        << "<p class=\"scale\"><span style=\"width: " << Fixed(bar_px, 0) << "px\"></span> " << MetresText(bar_m)
        << " &middot; " << (products.orthophoto_path.empty() ? "surface model (low: green, high: brown to white)"
                                                              : "orthophoto")
        << ", north up</p>\n";
  }
  out << "<table>\n";
  WriteRow(out, "surface model", products.dsm_path);
  WriteRow(out, "orthophoto", products.orthophoto_path.empty() ? "none" : products.orthophoto_path);
  WriteRow(out, "CRS", products.crs_name + " (" + products.crs_code + ")");
  WriteRow(out, "heights", products.vertical_datum);
  WriteRow(out, "cell size", Fixed(products.grid.cell_m, 3) + " m (ground sample distance " +
                                 Fixed(products.ground_sample_distance_m, 3) + " m)");
  WriteRow(out, "grid", std::to_string(products.grid.width) + " x " + std::to_string(products.grid.height) +
                            " cells, " + MetresText(products.grid.width * products.grid.cell_m) + " x " +
                            MetresText(products.grid.height * products.grid.cell_m));
  WriteRow(out, "heights from / to", Fixed(products.height_min_m, 2) + " / " + Fixed(products.height_max_m, 2) + " m");
  WriteRow(out, "cells filled / nodata", std::to_string(products.num_cells_filled) + " / " +
                                             Fixed(100 * products.nodata_share, 1) + "%");
  WriteRow(out, "time", Fixed(products.seconds, 2) + " s");
  out << "</table>\n";
}

// The page around its tables (`write_tables`): head, 3D view, picture, then the tables, then
// the 3D view's data and script.
template <typename WriteTables>
void WritePage(const Scene& scene, const RunDescription& run, const std::string& title,
               const mvs::DenseCloud* dense_cloud, const std::string& path,
               const HtmlReportOptions& options, const WriteTables& write_tables) {
  options.Check();
  ViewOptions view_options;
  view_options.width_px = options.picture_width_px;
  view_options.height_px = options.picture_height_px;
  const RenderView view = AutomaticView(scene, view_options);
  const RenderStyle style;
  const std::vector<uint8_t> png = EncodePng(RenderScene(scene, view, style));
  const bool has_viewer = std::strlen(report_assets::kThreeModuleJs) > 0;

  WriteFileAtomically(path, [&](std::ostream& out) {
    out << "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
        << "<meta name=\"generator\" content=\"sfm\">\n<title>sfm report: "
        << Escape(run.images_dir) << "</title>\n<style>" << kStyle << "</style>\n";
    if (has_viewer) out << ImportMap();
    out << "</head><body>\n<h1>" << Escape(title) << "</h1>\n<p class=\"sub\">"
        << Escape(run.images_dir) << "</p>\n<p class=\"sub\"><code>" << Escape(run.command_line)
        << "</code></p>\n<h2>3D view</h2>\n<div id=\"viewer\"" << (has_viewer ? "" : " class=\"absent\"")
        << ">";
    if (!has_viewer) {
      out << "<p class=\"missing\">The interactive 3D view is missing: this build of sfm has no "
             "three.js (npm could not fetch it when sfm was built). The picture below shows the "
             "model.</p>";
    }
    out << "</div>\n<p id=\"viewer-status\">"
        << (has_viewer ? "Loading the 3D view..." : "") << "</p>\n";
    out << "<h2>Picture</h2>\n<img class=\"picture\" alt=\"points and cameras\" width=\""
        << view.width_px << "\" height=\"" << view.height_px << "\" src=\"data:image/png;base64,"
        << EncodeBase64(png.data(), png.size()) << "\">\n";
    write_tables(has_viewer, out);
    if (has_viewer) {
      out << "<script id=\"model-data\" type=\"application/json\">"
          << ModelJson(scene, view, view_options.vertical_fov_deg, style, options, dense_cloud)
          << "</script>\n<script type=\"module\">\n"
          << report_assets::kViewerJs << "</script>\n";
      out << "<p class=\"sub\">3D view: three.js " << report_assets::kThreeVersion
          << " (MIT licence, three.js authors).</p>\n";
    }
    out << "</body></html>\n";
  });
}

}  // namespace

void HtmlReportOptions::Check() const {
  PROJ_REQUIRE(max_view_points >= 1, "HtmlReportOptions.max_view_points must be >= 1");
  PROJ_REQUIRE(max_dense_view_points >= 1, "HtmlReportOptions.max_dense_view_points must be >= 1");
  // The picture's size is checked by AutomaticView.
}

void WriteHtmlReport(const ReconstructionResult& result, const RunDescription& run,
                     const std::string& path, const HtmlReportOptions& options,
                     const mvs::DenseCloud* dense_cloud) {
  WritePage(result.scene, run, "Reconstruction report", dense_cloud, path, options,
            [&](bool has_viewer, std::ostream& out) {
              WriteQualitySection(result, out);
              WriteSummary(result, run, out);
              WriteModelsSection(result, out);
              if (result.dense) WriteDenseSection(*result.dense, dense_cloud, options, has_viewer, out);
              if (result.products) WriteProductsSection(*result.products, out);
              WriteImageTable(result.scene, out);
              WriteGpsTable(result, out);
              WriteGcpTable(result, out);
              WriteSkipped(result, out);
            });
}

void WriteDenseHtmlReport(const Scene& scene, const mvs::DenseSummary& dense,
                          const mvs::DenseCloud& dense_cloud, const RunDescription& run,
                          const std::string& path, const HtmlReportOptions& options) {
  WritePage(scene, run, "Dense reconstruction report", &dense_cloud, path, options,
            [&](bool has_viewer, std::ostream& out) {
              out << "<h2>Model</h2><table>\n";
              WriteRow(out, "registered images", std::to_string(scene.NumRegisteredImages()) + " of " +
                                                     std::to_string(scene.images.size()));
              WriteRow(out, "sparse points", std::to_string(scene.points.size()));
              WriteRow(out, "mean reprojection error", Fixed(MeanReprojectionErrorPx(scene), 3) + " px");
              out << "</table>\n";
              WriteDenseSection(dense, &dense_cloud, options, has_viewer, out);
              WriteImageTable(scene, out);
            });
}

void WriteProductsHtmlReport(const Scene& scene, const mvs::MapProductsSummary& products, const RunDescription& run,
                             const std::string& path, const HtmlReportOptions& options) {
  WritePage(scene, run, "Map products report", nullptr, path, options, [&](bool, std::ostream& out) {
    WriteProductsSection(products, out);
    WriteImageTable(scene, out);
  });
}

}  // namespace proj
