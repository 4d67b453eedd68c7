#include <filesystem>
#include <iostream>
#include <memory>

#include "core/check.h"
#include "io/image_encode.h"
#include "sfm/app/commands.h"
#include "sfm/reconstruction_io/colmap_text.h"
#include "sfm/render/scene_render.h"

namespace proj::app {

CommandRunner AddRenderCommand(CLI::App& app) {
  auto model_dir = std::make_shared<std::string>();
  auto out_path = std::make_shared<std::string>();
  auto view = std::make_shared<ViewOptions>();
  auto style = std::make_shared<RenderStyle>();
  auto no_cameras = std::make_shared<bool>(false);
  app.add_option("MODEL_DIR", *model_dir, "COLMAP text model folder (OUT_DIR/model)")->required();
  app.add_option("OUT_PNG", *out_path, "PNG file to write")->required();
  app.add_option("--width", view->width_px, "Picture width, px")->capture_default_str();
  app.add_option("--height", view->height_px, "Picture height, px")->capture_default_str();
  app.add_option("--point-size", style->point_size_px, "Point diameter, px")->capture_default_str();
  app.add_option("--azimuth", view->azimuth_deg,
                 "Turn of the viewpoint about the up axis, degrees (0: from the cameras' side)")
      ->capture_default_str();
  app.add_option("--elevation", view->elevation_deg, "Height of the viewpoint above the horizon, degrees")
      ->capture_default_str();
  app.add_option("--fov", view->vertical_fov_deg, "Vertical field of view, degrees")->capture_default_str();
  app.add_flag("--no-cameras", *no_cameras, "Draw only the points, no camera frustums");
  return [=]() {
    view->Check();
    style->draw_cameras = !*no_cameras;
    style->Check();
    PROJ_REQUIRE(std::filesystem::is_directory(*model_dir),
                 "model folder '" << *model_dir << "' does not exist or is not a folder");
    const Scene scene = ReadColmapText(*model_dir);
    WritePng(*out_path, RenderScene(scene, AutomaticView(scene, *view), *style));
    std::cout << "rendered " << scene.points.size() << " points and " << scene.NumRegisteredImages()
              << " cameras to " << *out_path << std::endl;
    return kExitSuccess;
  };
}

}  // namespace proj::app
