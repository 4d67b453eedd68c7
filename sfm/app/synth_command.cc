#include <iostream>
#include <memory>

#include "core/logging.h"
#include "datasets/synthetic/synthetic_flight.h"
#include "datasets/synthetic/synthetic_object.h"
#include "datasets/synthetic/synthetic_scene.h"
#include "datasets/synthetic/synthetic_street.h"
#include "sfm/app/cli_help.h"
#include "sfm/app/commands.h"

namespace proj::app {
namespace {

const EnumNames<GpsFault> kGpsFaultNames = {{"none", GpsFault::kNone},
                                            {"missing", GpsFault::kMissing},
                                            {"jump", GpsFault::kJump},
                                            {"altitude", GpsFault::kAltitude},
                                            {"hover", GpsFault::kHover},
                                            {"time-offset", GpsFault::kTimeOffset},
                                            {"altitude-drift", GpsFault::kAltitudeDrift}};

// --flight and its options (a drone survey over terrain, synthetic_flight.h).
void AddFlightOptions(CLI::App& app, bool* flight_mode, SyntheticFlightOptions* flight) {
  app.add_flag("--flight", *flight_mode,
               "Render a drone survey (lawnmower flight lines over terrain with buildings) with "
               "GPS in the EXIF; OUT_DIR/gt_enu_origin.txt holds the world frame's WGS84 origin");
  app.add_option("--altitude-m", flight->altitude_m, "Flight: height above the terrain datum, m")
      ->capture_default_str();
  app.add_option("--pitch-deg", flight->pitch_deg,
                 "Flight: camera tilt from nadir towards the flight direction (0 = nadir, "
                 "e.g. 30 for an oblique survey), degrees")
      ->capture_default_str();
  app.add_option("--forward-overlap", flight->forward_overlap, "Flight: overlap along the lines")
      ->capture_default_str();
  app.add_option("--side-overlap", flight->side_overlap, "Flight: overlap between lines")
      ->capture_default_str();
  app.add_option("--gps-noise-m", flight->gps_horizontal_std_m,
                 "Flight: horizontal GPS noise (standard deviation; vertical is twice), m")
      ->capture_default_str();
  app.add_flag("!--no-gps", flight->write_gps, "Flight: write no GPS into the EXIF (for --gcp runs)");
  app.add_option("--gcps", flight->num_gcps,
                 "Flight: ground control points on open ground, with their exact marks, in "
                 "OUT_DIR/gcp_list.txt (UTM zone of the origin; 0: none)")
      ->capture_default_str();
  app.add_flag("--truth-rasters", flight->truth_rasters,
               "Flight: also write the true surface model and orthophoto over the imaged area into "
               "OUT_DIR/truth/ (dsm.bin, orthophoto.png, truth.json with the grid in the world's ENU "
               "frame and its WGS84 origin), for bench/products_synth_eval.py");
  app.add_option("--truth-cell-m", flight->truth_cell_m,
                 "Flight: cell size of the truth rasters, m (0: the ground sample distance)")
      ->capture_default_str();
  AddEnumOption(app, "--gps-fault", &flight->gps_fault, kGpsFaultNames,
                "Flight: bad GPS to inject: missing (every 7th image untagged), jump (middle "
                "image 400 m off), altitude (one image 150 m high), hover (one fix for all), "
                "time-offset (each image tagged with the fix taken 3 shots later: a geotagging "
                "clock offset), altitude-drift (the altitudes drift by a random walk of 0.3 m a "
                "shot: about 4 m over 200 shots)");
}

}  // namespace

CommandRunner AddSynthCommand(CLI::App& app) {
  auto out_dir = std::make_shared<std::string>();
  auto options = std::make_shared<SyntheticSceneOptions>();
  auto flight = std::make_shared<SyntheticFlightOptions>();
  auto flight_mode = std::make_shared<bool>(false);
  auto street = std::make_shared<SyntheticStreetOptions>();
  auto object = std::make_shared<SyntheticObjectOptions>();
  app.add_option("OUT_DIR", *out_dir,
                 "Output folder: OUT_DIR/images/*.jpg, OUT_DIR/gt_dense_cameras/*.camera and (not "
                 "with --flight) OUT_DIR/depth/*.jpg.bin, the true depth of each pixel (camera-frame "
                 "z, 0 for the sky) in COLMAP's depth map format")
      ->required();
  auto* sequence = app.add_flag("--sequence", options->sequence,
                                "Render a long sequence with small motion between frames (for --matcher klt)");
  auto* street_flag = app.add_flag(
      "--street", "Render a car's forward drive along a street (~1 m per frame, a 90-degree turn, a "
                  "stop; 1226x370 unless --width/--height)");
  street_flag->excludes(sequence);
  auto radial_k1 = std::make_shared<double>(0.0);
  app.add_option("--radial-k1", *radial_k1, "--street or --flight: SIMPLE_RADIAL distortion k1 (< 0: barrel)")
      ->capture_default_str();
  app.add_flag("--loop", street->loop,
               "--street: drive around a block (four left turns) back to the start instead of the "
               "L, for loop closure");
  app.add_flag("--street-gps", street->write_gps,
               "--street: GPS in each frame's EXIF, the true position plus noise (1.5 m horizontal, 3 m "
               "vertical)");
  app.add_option("--step-m", street->step_m, "--street: distance driven between frames, metres")
      ->capture_default_str();
  auto* object_flag = app.add_flag(
      "--object", "Render a small matte, weakly textured object on a black background from views spread "
                  "over a sphere around it (default 300 views, 640x480, no EXIF): dense view sets with "
                  "few features per image");
  object_flag->excludes(sequence)->excludes(street_flag);
  app.add_option("--object-focal-px", object->focal_px,
                 "--object: true focal length, px (the guess without EXIF is 1.2 x the longer side: the "
                 "default is 4x that at 640x480)")
      ->capture_default_str();
  AddFlightOptions(app, flight_mode.get(), flight.get());
  auto count = std::make_shared<int>(0);
  app.add_option("--num-images", *count,
                 "Number of images (default 12, 80 with --sequence, 56 with --street, 150 with --flight, 300 with "
                 "--object)");
  auto* width = app.add_option("--width", options->width, "Image width, px")->capture_default_str();
  auto* height = app.add_option("--height", options->height, "Image height, px")->capture_default_str();
  app.add_option("--seed", options->seed, "Scene seed")->capture_default_str();
  return [=]() {
    if (*flight_mode) {
      flight->width = options->width;
      flight->height = options->height;
      flight->focal_px = options->focal_px * options->width / 1280.0;
      flight->seed = options->seed;
      flight->radial_k1 = *radial_k1;
      if (*count > 0) flight->num_images = *count;
      WriteSyntheticFlight(*flight, *out_dir);
    } else if (street_flag->count() > 0) {
      if (*count > 0) street->num_frames = *count;
      if (width->count() > 0) street->width = options->width;
      if (height->count() > 0) street->height = options->height;
      street->seed = options->seed;
      street->radial_k1 = *radial_k1;
      WriteSyntheticStreet(*street, *out_dir);
    } else if (object_flag->count() > 0) {
      if (*count > 0) object->num_views = *count;
      if (width->count() > 0) object->width = options->width;
      if (height->count() > 0) object->height = options->height;
      object->seed = options->seed;
      WriteSyntheticObject(*object, *out_dir);
    } else {
      if (*count > 0) (options->sequence ? options->num_frames : options->num_images) = *count;
      WriteSyntheticScene(*options, *out_dir);
    }
    std::cout << "synthetic scene written to " << *out_dir << "/images and " << *out_dir
              << "/gt_dense_cameras" << std::endl;
    return kExitSuccess;
  };
}

}  // namespace proj::app
