// Ground control points in OpenDroneMap's gcp_list.txt format:
//   line 1: the coordinate reference system: EPSG:xxxx, a PROJ string, or "WGS84 UTM 32N"
//   then one observation a line: geo_x geo_y geo_z im_x im_y image_name [gcp_name] [extras]
// (fields separated by blanks; blank lines and lines starting with '#' are skipped). geo_* are
// the point's surveyed coordinates in the CRS (longitude first for a geographic CRS; z taken
// as a height above the ellipsoid unless the CRS has a vertical part); im_x, im_y its pixel in
// the image, with the image's top-left corner at (0, 0) (so a pixel centre at (0.5, 0.5), the
// keypoints' convention). Observations of one point share its name, or, unnamed, its
// coordinates. Errors are InputErrors that name the file and line.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "geometry/geodesy/crs_transform.h"
#include "geometry/geodesy/local_enu_frame.h"

namespace proj {

struct GcpObservation {
  std::string image_name;  // relative to the images folder
  Eigen::Vector2d pixel = Eigen::Vector2d::Zero();
  int line = 0;  // in the file, from 1
};

struct GroundControlPoint {
  std::string name;  // the file's gcp_name, or "(x, y, z)" for an unnamed point
  Eigen::Vector3d crs_position = Eigen::Vector3d::Zero();  // as the file states it
  Wgs84Position wgs84;  // the same, converted (ellipsoidal height)
  int line = 0;         // of its first observation
  std::vector<GcpObservation> observations;  // at least two, in distinct images
};

struct GcpFile {
  std::string path;  // for messages
  std::string crs;   // the first line, as written (trimmed)
  std::vector<GroundControlPoint> points;  // in order of first appearance
};

// Parses the text of a GCP file; `path` only names it in messages. Throws InputError
// "PATH:LINE: reason" for an unknown CRS, a malformed line, coordinates outside the CRS, a
// name given two positions, an image named twice for one point, or a point seen in one image
// only.
GcpFile ParseGcpFile(const std::string& text, const std::string& path);
// The same with the CRS converter from `converter_for(crs_text)` (which throws InputError for
// an unknown CRS) instead of a new one: building one searches PROJ's database (tens of
// milliseconds), which a caller parsing many files (the fuzzer) does once per CRS.
GcpFile ParseGcpFile(const std::string& text, const std::string& path,
                     const std::function<const CrsToWgs84&(const std::string&)>& converter_for);
// Reads and parses; InputError also when the file cannot be read.
GcpFile ReadGcpFile(const std::string& path);

// Checks every observation against the images of the run (name -> width, height in pixels):
// InputError "PATH:LINE: ..." for an image that is not among them or a pixel outside it.
void CheckGcpObservations(const GcpFile& file, const std::map<std::string, Eigen::Vector2i>& image_sizes);

// Checks that each name is a point of the file (for --gcp-check); InputError naming the file.
void CheckGcpNames(const GcpFile& file, const std::vector<std::string>& names);

}  // namespace proj
