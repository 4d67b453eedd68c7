// A synthetic drone survey with exact ground truth: a lawnmower pattern of flight lines over
// the terrain world (terrain_world.h), nadir or oblique camera, survey-like overlap, and GPS
// fixes with realistic noise written into each JPEG's EXIF. The world frame is the ENU frame
// of a true WGS84 origin (recorded), so ground-truth cameras and GPS can be compared after a
// georeferenced reconstruction. Same options => identical files, whatever num_threads.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "datasets/synthetic/terrain_world.h"
#include "geometry/geodesy/local_enu_frame.h"
#include "io/exif.h"
#include "io/strecha_camera.h"

namespace proj {

// Faults injected into the written GPS, to exercise the handling of bad GPS input.
enum class GpsFault {
  kNone,
  kMissing,   // every 7th image carries no GPS
  kJump,      // the middle image's position is 400 m off
  kAltitude,  // the image at a third of the flight has its altitude 150 m too high
  kHover,     // every image carries the first image's fix (a hovering drone's log)
  // Geotagged from a log with a wrong clock offset: each image carries the fix taken
  // kTimeOffsetShots shots later (the last ones the last fix): along the flight lines every
  // fix is ahead of its camera, alternately north and south, and a line's last images carry
  // fixes of the next line. No similarity fits the model to them.
  kTimeOffset,
  // The altitudes drift as one slow error, not noise: a random walk of kAltitudeDriftStepM a
  // shot on top of the white noise (about 4 m over 200 shots), as a GPS altitude or a
  // barometer drifts over a flight. What the dome correction (sfm/mapper/gps_dome.h), which
  // trusts the fixes' heights on average over the block, makes of it.
  kAltitudeDrift,
};
constexpr int kTimeOffsetShots = 3;
constexpr double kAltitudeDriftStepM = 0.3;

struct SyntheticFlightOptions {
  int num_images = 150;
  int width = 1280;  // pixels
  int height = 960;
  double focal_px = 1100;       // fx = fy, principal point at the centre
  double radial_k1 = 0;         // SIMPLE_RADIAL distortion (< 0: barrel); in (-0.25, 0.25)
  double altitude_m = 80;       // flight height above the terrain datum (z = 0)
  double forward_overlap = 0.75;  // along the flight line, of a nadir footprint
  double side_overlap = 0.6;      // between flight lines
  double pitch_deg = 0;  // camera tilt from nadir towards the flight direction (oblique)
  double attitude_jitter_deg = 2;  // random roll, pitch and yaw of each shot
  double gps_horizontal_std_m = 1.5;  // white noise of the written fixes
  double gps_vertical_std_m = 3.0;
  GpsFault gps_fault = GpsFault::kNone;
  bool write_gps = true;  // false: no GPS in the EXIF (the flight is the same otherwise)
  // Ground control points written to gcp_list.txt (synthetic_gcps.h); 0: none.
  int num_gcps = 8;
  // Also write the true surface model and orthophoto (flight_truth.h) into out_dir/truth/,
  // in cells of truth_cell_m (0: the ground sample distance, altitude_m / focal_px).
  bool truth_rasters = false;
  double truth_cell_m = 0;
  // The datum of the written altitudes: EGM96 ("above sea level", as DJI drones write them;
  // ellipsoidal, GPSAltitudeRef 2, when PROJ's geoid grid is missing) or the ellipsoid.
  VerticalDatum gps_altitude_datum = VerticalDatum::kEgm96;
  double shot_interval_s = 2.0;  // capture times (DateTimeOriginal): this apart along a line,
  double turn_s = 12.0;          // plus this between lines
  EnuFrame origin{46.8428, -92.0016, 190.0};  // the world frame's WGS84 origin (ellipsoidal)
  uint64_t seed = 1;
  int jpeg_quality = 92;
  int num_threads = 0;  // <= 0: all hardware threads
  synthetic::TerrainWorldOptions world;
  void Check() const;  // throws InputError naming the field
};

struct SyntheticFlightShot {
  std::string name;  // "0000.jpg", ... in flight order
  StrechaCamera camera;  // ground truth, world = ENU of options.origin
  std::optional<GpsPosition> gps;  // the (noisy, possibly faulty) fix written to the file
  double capture_time_s = 0;       // seconds since 1970 (2026-07-01 10:00:00 at the first)
};

// Cameras and GPS fixes only (nothing rendered).
std::vector<SyntheticFlightShot> PlanSyntheticFlight(const SyntheticFlightOptions& options);

// Renders and writes:
//   out_dir/images/NNNN.jpg                   JPEG with EXIF make, model, 35 mm focal, GPS,
//                                             capture time
//   out_dir/gt_dense_cameras/NNNN.jpg.camera  ground truth (io/strecha_camera.h)
//   out_dir/gt_enu_origin.txt                 "latitude_deg longitude_deg altitude_m" of the
//                                             world frame's origin
//   out_dir/gcp_list.txt                      options.num_gcps ground control points with
//                                             their exact marks (synthetic_gcps.h)
//   out_dir/truth/                            with options.truth_rasters: the true surface
//                                             model and orthophoto (flight_truth.h)
// Atomic files; throws InputError when out_dir cannot be written or out_dir/images holds
// images this flight would not overwrite. Returns the mean render time per image, seconds.
double WriteSyntheticFlight(const SyntheticFlightOptions& options, const std::string& out_dir);

}  // namespace proj
