// A surface model (sfm's dsm.tif) against a reference cloud rasterised the same way (issue 25;
// methods in bench/RESULTS-drone.md):
//
//   dsm_compare OURS_DSM.tif REFERENCE.las [--cell-percentile 90] [--fill-limit-m 5]
//       [--shift-m E,N,Z] [--json FILE]
//
// The reference's points (in the same CRS as ours: the bench checks that model.laz and our
// points.las declare the same) go onto our DSM's grid with our gridding (mvs/surface_model_
// builder.h: per cell the same percentile of the heights, holes up to the same limit filled),
// then over the cells known in both: the median and 90th percentile of |ours - reference| as
// placed; after removing the median vertical difference (a vertical fit); and, with
// --shift-m (the shift of our cloud that the cloud comparison's rigid fit found:
// bench/dense_cloud_accuracy reference's "fit"."shift_m"), with the reference moved by minus
// that shift before it is rasterised (the fit's rotation, hundredths of a degree, left out).
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "io/geotiff_file.h"
#include "io/las_file.h"
#include "mvs/surface_model_builder.h"

namespace proj {
namespace {

struct Differences {
  size_t cells = 0;
  double median_m = 0, p90_m = 0, median_signed_m = 0;
};

double Quantile(std::vector<double> values, double share) {
  const size_t rank = static_cast<size_t>(std::lround(share * (values.size() - 1)));
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(rank), values.end());
  return values[rank];
}

Differences Compare(const std::vector<float>& ours, const std::vector<float>& reference, double offset_m) {
  std::vector<double> absolute, signed_differences;
  for (size_t i = 0; i < ours.size(); ++i) {
    if (!std::isfinite(ours[i]) || !std::isfinite(reference[i])) continue;
    const double difference = ours[i] - reference[i] - offset_m;
    signed_differences.push_back(difference);
    absolute.push_back(std::abs(difference));
  }
  Differences result;
  result.cells = absolute.size();
  if (absolute.empty()) return result;
  result.median_m = Quantile(absolute, 0.5);
  result.p90_m = Quantile(absolute, 0.9);
  result.median_signed_m = Quantile(signed_differences, 0.5);
  return result;
}

std::string Json(const Differences& d) {
  char text[200];
  std::snprintf(text, sizeof(text), "{\"cells\": %zu, \"median_m\": %.4f, \"p90_m\": %.4f, \"median_signed_m\": %.4f}",
                d.cells, d.median_m, d.p90_m, d.median_signed_m);
  return text;
}

int Run(int argc, char** argv) {
  std::string ours_path, reference_path, json_path;
  double percentile = 90, fill_limit_m = 5;
  std::vector<double> shift;
  CLI::App app{"A DSM against a reference cloud rasterised onto its grid the same way"};
  app.add_option("OURS_DSM", ours_path, "Our dsm.tif")->required();
  app.add_option("REFERENCE", reference_path, "Reference cloud (LAS) in the DSM's CRS")->required();
  app.add_option("--cell-percentile", percentile, "As sfm's --dsm-cell-percentile")->capture_default_str();
  app.add_option("--fill-limit-m", fill_limit_m, "As sfm's --dsm-fill-limit-m")->capture_default_str();
  app.add_option("--shift-m", shift, "Shift of our cloud found by the cloud comparison's rigid fit (E,N,Z)")
      ->delimiter(',')
      ->expected(3);
  app.add_option("--json", json_path, "Write the figures here too");
  CLI11_PARSE(app, argc, argv);

  const GeoTiffRaster ours = ReadGeoTiff(ours_path);
  mvs::GroundGrid grid;
  grid.west_m = ours.transform[0];
  grid.cell_m = ours.transform[1];
  grid.north_m = ours.transform[3];
  grid.width = ours.width;
  grid.height = ours.height;
  LasPointCloud reference = ReadLasFile(reference_path);
  std::printf("ours: %s, %d x %d cells of %.4g m, EPSG %d (+%d)\nreference: %s, %zu points, %s %s\n",
              ours_path.c_str(), grid.width, grid.height, grid.cell_m, ours.horizontal_epsg, ours.vertical_epsg,
              reference_path.c_str(), reference.positions.size(), reference.crs_name.c_str(),
              reference.vertical_crs_name.c_str());
  const auto rasterise = [&](const Eigen::Vector3d& move) {
    std::vector<Eigen::Vector3d> moved = reference.positions;
    for (Eigen::Vector3d& p : moved) p += move;
    mvs::SurfaceModel model = mvs::RasterizeHeights(moved, grid, percentile);
    mvs::FillHoles(fill_limit_m / grid.cell_m, &model);
    return model.height_m;
  };
  const std::vector<float> placed_reference = rasterise(Eigen::Vector3d::Zero());
  const Differences placed = Compare(ours.band1, placed_reference, 0);
  const Differences vertical = Compare(ours.band1, placed_reference, placed.median_signed_m);
  std::printf("as placed:        %zu cells in both, |ours - reference| median %.3f m, p90 %.3f m (signed median %.3f m)\n",
              placed.cells, placed.median_m, placed.p90_m, placed.median_signed_m);
  std::printf("vertical fit:     median %.3f m, p90 %.3f m\n", vertical.median_m, vertical.p90_m);
  std::string json = "{\n  \"ours\": \"" + ours_path + "\",\n  \"cell_m\": " + std::to_string(grid.cell_m) +
                     ",\n  \"as_placed\": " + Json(placed) + ",\n  \"vertical_fit\": " + Json(vertical);
  if (shift.size() == 3) {
    // Ours moved by `shift` onto the reference is the reference moved by -shift onto ours.
    const Differences fitted = Compare(ours.band1, rasterise(-Eigen::Vector3d(shift[0], shift[1], shift[2])), 0);
    std::printf("cloud's rigid fit: %zu cells, median %.3f m, p90 %.3f m (shift %.3f, %.3f, %.3f m)\n", fitted.cells,
                fitted.median_m, fitted.p90_m, shift[0], shift[1], shift[2]);
    json += ",\n  \"cloud_fit\": " + Json(fitted);
  }
  json += "\n}\n";
  if (!json_path.empty()) std::ofstream(json_path) << json;
  return 0;
}

}  // namespace
}  // namespace proj

int main(int argc, char** argv) {
  try {
    return proj::Run(argc, argv);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "dsm_compare: %s\n", error.what());
    return 2;
  }
}
