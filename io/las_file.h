// ASPRS LAS 1.2 point clouds (uncompressed), point format 2 (X, Y, Z, RGB), with the CRS as a
// GeoTIFF key directory VLR (LASF_Projection 34735) naming an EPSG projected CRS and, when the
// heights have one, an EPSG vertical CRS (VerticalCSTypeGeoKey; with their names as citation
// keys in a GeoAsciiParams VLR, 34737), the form PDAL, LAStools, CloudCompare and QGIS read. Coordinates are stored as integers at a 1 mm
// resolution (scale 0.001) around an offset near the cloud's minimum.
//
// Why our own writer: PDAL, LASzip and libLAS are not Debian 12 packages (bookworm dropped
// them), and an uncompressed LAS is a 227-byte header, one VLR and fixed-size records.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <Eigen/Core>

namespace proj {

struct LasPointCloud {
  std::vector<Eigen::Vector3d> positions;  // in the CRS, metres
  std::vector<Eigen::Matrix<uint8_t, 3, 1>> colors;  // RGB, one per position
  int epsg = 0;  // projected CRS (e.g. 32615, WGS 84 / UTM zone 15N); 0: none recorded
  // Vertical CRS of the heights (e.g. 5773, EGM96 height); 0: none recorded, heights above
  // the ellipsoid of the projected CRS's datum. Written only with `epsg`.
  int vertical_epsg = 0;
  std::string crs_name;           // PCSCitationGeoKey, e.g. "WGS 84 / UTM zone 15N"; "" none
  std::string vertical_crs_name;  // VerticalCitationGeoKey, e.g. "EGM96 height"; "" none
  std::string system_identifier;  // the header's "system identifier" (at most 31 chars kept)
};

// Writes atomically (io/atomic_file.h). Throws InputError naming the path when it cannot be
// written, when positions and colors differ in size, or when a coordinate is not finite or too
// far from the others for the 1 mm integer grid.
void WriteLasFile(const std::string& path, const LasPointCloud& cloud);

// Reads a file written by WriteLasFile, or any uncompressed LAS 1.0-1.4 file with point format
// 0-3 (colours zero when absent) and at most 2^32 - 1 points, with the EPSG codes of its GeoTIFF
// ProjectedCSTypeGeoKey and VerticalCSTypeGeoKey and its citation keys when it has them. Throws InputError naming the path and the reason for
// a missing, truncated, compressed (LAZ) or otherwise unreadable file.
LasPointCloud ReadLasFile(const std::string& path);

}  // namespace proj
