#include <filesystem>
#include <memory>
#include <optional>

#include "core/logging.h"
#include "io/atomic_file.h"
#include "sfm/app/dense_options.h"
#include "sfm/app/products_options.h"
#include "sfm/app/pipeline_commands.h"
#include "sfm/app/pipeline_options.h"
#include "sfm/pipeline/reconstruction_pipeline.h"

namespace proj::app {
namespace {

struct ReconstructArgs {
  std::string images_dir;
  std::string out_dir;
  PipelineArgs pipeline;
  bool dense = false;
  mvs::DenseOptions dense_options;  // device, GPUs and threads: the run's
  bool products = false;
  mvs::MapProductsOptions products_options;
};

PipelineOutcome Run(const ReconstructArgs& args, const std::string& command_line) {
  const ReconstructionOptions options = args.pipeline.Finalize();
  std::optional<mvs::DenseOptions> dense;
  std::optional<mvs::MapProductsOptions> products;
  if (args.dense || args.products) {
    dense = args.dense_options;
    dense->Check();  // before hours of sparse work
  }
  if (args.products) {
    products = args.products_options;
    products->Check();
  }
  EnsureWritableDirectory(args.out_dir);  // fail before hours of work, not after
  const std::string database = args.pipeline.database_path.empty()
                                   ? (std::filesystem::path(args.out_dir) / "database.db").string()
                                   : args.pipeline.database_path;
  return OutcomeOfRun(
      ReconstructFolder(options, {args.images_dir, database, args.out_dir, command_line}, dense, products),
      args.out_dir, args.pipeline.accept_suspect_model);
}

}  // namespace

PipelineRunner AddReconstructPipeline(CLI::App& app) {
  auto args = std::make_shared<ReconstructArgs>();
  app.add_option("IMAGES_DIR", args->images_dir,
                 "Folder of photos (.jpg, .jpeg, .png) and videos (.mp4, .mov, .mkv, ...), or one video")
      ->required();
  app.add_option("-o,--output", args->out_dir, "Output folder (created if missing)")->required();
  AddDatabaseOption(app, &args->pipeline, /*required=*/false);
  AddRunOptions(app, &args->pipeline);
  AddGpusOption(app, &args->pipeline);
  AddExtractionOptions(app, &args->pipeline);
  AddMatchingOptions(app, &args->pipeline, /*with_klt=*/true);
  AddMapperOptions(app, &args->pipeline);
  app.add_flag("--dense", args->dense,
               "Then dense reconstruction into OUT/dense: depth maps by PatchMatch stereo on "
               "--device and --gpus (see sfm dense --help)");
  AddDenseOptions(app, &args->dense_options);
  app.add_flag("--products", args->products,
               "Then the map products of the georeferenced model (photos with GPS, or --gcp): OUT/dsm.tif, "
               "the digital surface model as a Cloud-Optimized GeoTIFF in the model's UTM zone; implies "
               "--dense. Not the default for GPS-tagged folders: the dense stage takes long on a CPU. "
               "`sfm products OUT` makes them later from the output folder (see sfm products --help)");
  AddProductsOptions(app, &args->products_options);
  return [args]() {
    return Run(*args, "sfm reconstruct " + args->images_dir + " -o " + args->out_dir);
  };
}

}  // namespace proj::app
