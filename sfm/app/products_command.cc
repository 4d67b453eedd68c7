// sfm products OUT: the map products (mvs/map_products.h) of the georeferenced model of an
// sfm reconstruct output folder, from its dense cloud (computed first when missing).
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>

#include "core/check.h"
#include "core/compute_device.h"
#include "core/logging.h"
#include "cuda/device_selection.h"
#include "mvs/dense_cloud.h"
#include "mvs/dense_workspace.h"
#include "mvs/map_products_report.h"
#include "sfm/app/cli_help.h"
#include "sfm/app/commands.h"
#include "sfm/app/dense_options.h"
#include "sfm/app/dense_run.h"
#include "sfm/app/model_images.h"
#include "sfm/app/pipeline_options.h"
#include "sfm/app/products_options.h"
#include "sfm/outputs/html_report.h"
#include "sfm/pipeline/reconstruction_pipeline.h"
#include "sfm/reconstruction_io/colmap_model.h"

namespace proj::app {
namespace {
namespace fs = std::filesystem;

struct ProductsArguments {
  std::string out_dir;
  std::string image_path;
  std::string gpus = "all";
  mvs::DenseOptions dense;
  mvs::MapProductsOptions products;
};

int Run(ProductsArguments args) {
  args.dense.gpus = ParseGpuSelection(args.gpus);
  args.dense.Check();
  args.products.num_threads = args.dense.num_threads;
  args.products.Check();
  const std::string model_dir = (fs::path(args.out_dir) / "model").string();
  PROJ_REQUIRE(fs::is_directory(model_dir), "'" << args.out_dir
                                                << "' is no output folder of sfm reconstruct: it has no model/ folder");
  const std::optional<EnuFrame> frame = GeoreferenceOfModel(model_dir);
  PROJ_REQUIRE(frame.has_value(), "no map products for '" << args.out_dir << "': " << NotGeoreferencedReason()
                                                          << " (see its georeference.json)");
  const Scene scene = ReadColmapModel(model_dir);
  PROJ_REQUIRE(scene.NumRegisteredImages() > 0, "the model '" << model_dir << "' has no registered image");
  const mvs::DenseWorkspace workspace((fs::path(args.out_dir) / "dense").string());
  mvs::DenseCloud cloud;
  if (fs::exists(workspace.PointsPlyPath()) && fs::is_directory(workspace.SparseDir())) {
    PROJ_LOG(kInfo, "dense cloud: " << workspace.PointsPlyPath() << " (delete it to compute it again)");
    cloud = mvs::ReadDenseCloudPly(workspace.PointsPlyPath());
  } else {
    const ImageSource images = ModelImageSource(model_dir, args.image_path);
    cloud = DensifyModel(scene, images, model_dir, args.out_dir, args.dense).cloud;
  }
  const Scene dense_scene = ReadColmapModel(workspace.SparseDir());  // at the depth maps' size: its GSD
  const mvs::MapProductsSummary summary =
      mvs::MakeMapProducts(dense_scene, cloud, *frame, /*max_image_size_px=*/0, workspace.root(), args.out_dir,
                           args.products);
  mvs::WriteMapProductsReport(summary, (fs::path(args.out_dir) / "products.json").string());
  const RunDescription run{args.out_dir, ComputeDeviceSummary(args.dense.device, args.dense.gpus),
                           "sfm products " + args.out_dir};
  WriteProductsHtmlReport(scene, summary, run, (fs::path(args.out_dir) / "products.html").string());
  std::cout << "map products: " << summary.dsm_path << " (" << summary.grid.width << " x " << summary.grid.height
            << " cells of " << summary.grid.cell_m << " m, " << summary.crs_name << ")\noutput: products.json, "
            << "products.html" << std::endl;
  return kExitSuccess;
}

}  // namespace

CommandRunner AddProductsCommand(CLI::App& app) {
  auto args = std::make_shared<ProductsArguments>();
  app.add_option("OUT", args->out_dir, "Output folder of sfm reconstruct (its model/ and georeference.json)")
      ->required();
  app.add_option("--image-path", args->image_path,
                 "Folder of the model's images, when the dense cloud must be computed (default: the "
                 "folders in OUT/model/image_source.json)");
  AddProductsOptions(app, &args->products);
  AddDenseOptions(app, &args->dense);
  AddEnumOption(app, "--device", &args->dense.device, DeviceNames(),
                "Where depth maps are computed when the dense cloud is missing");
  app.add_option("--gpus", args->gpus, "GPUs depth maps spread over: all, N (the first N) or a list (0,2)")
      ->type_name("all|N|LIST")
      ->capture_default_str();
  app.add_option("--threads", args->dense.num_threads, "CPU threads, 0 = all cores")->capture_default_str();
  app.footer(
      "Writes OUT/dsm.tif: the digital surface model of the dense cloud OUT/dense/points.ply (computed "
      "first, resuming OUT/dense, when missing; the --dense-* options apply then): per cell the "
      "--dsm-cell-percentile of the heights of the points in it, small holes interpolated, the rest "
      "nodata (NaN); a Cloud-Optimized GeoTIFF (512 px tiles, DEFLATE, overviews) in the model's UTM "
      "zone (WGS 84 / UTM, the zone of its ENU origin), heights in the datum of the photos' GPS "
      "altitudes (EGM96 for DJI's above-sea-level altitudes: EPSG:326xx+5773), over the area the "
      "cameras saw. OUT/products.json holds the grid, CRS and counts; OUT/products.html a picture "
      "with a scale bar. Only for georeferenced models (photos with GPS, or --gcp): others have no "
      "map coordinate system.\n"
      "Exit codes: 0 products written, 2 bad usage or input (not an output folder, not "
      "georeferenced, empty dense cloud), 130 interrupted.");
  return [args]() { return Run(*args); };
}

}  // namespace proj::app
