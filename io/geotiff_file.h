// Georeferenced rasters as Cloud-Optimized GeoTIFFs (GDAL's COG driver: 512x512 tiles,
// DEFLATE, overviews down to one tile, the layout QGIS, web viewers and cloud storage read
// in parts), for the map products (the surface model, the orthophoto). Rasters are plain
// row-major buffers with GDAL's geotransform: pixel (col, row) has its top-left corner at
// (t[0] + col * t[1] + row * t[2], t[3] + col * t[4] + row * t[5]) in the CRS; north-up
// rasters have t[2] = t[4] = 0 and t[5] < 0. The CRS is an authority code GDAL reads
// ("EPSG:32615", or a compound "EPSG:32615+5773" for heights in EGM96).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace proj {

using GeoTransform = std::array<double, 6>;

// Writes a one-band float32 raster (`values`: width * height, row-major, row 0 first),
// nodata NaN (declared in the file, so GDAL and QGIS show those pixels as empty). DEFLATE
// with the floating-point predictor. Atomic (io/atomic_file.h). Throws InputError naming
// the file and the reason (a CRS code GDAL does not know, a folder that is not writable);
// sizes that do not match are a bug (PROJ_CHECK).
void WriteFloatGeoTiff(const std::string& path, int width, int height, const std::vector<float>& values,
                       const GeoTransform& transform, const std::string& crs_code);

// Writes a four-band RGBA uint8 raster (`rgba`: width * height * 4, pixel-interleaved,
// row-major); alpha 0 marks pixels without data. Otherwise as WriteFloatGeoTiff.
void WriteRgbaGeoTiff(const std::string& path, int width, int height, const std::vector<uint8_t>& rgba,
                      const GeoTransform& transform, const std::string& crs_code);

// A GeoTIFF read back (the first band as float, all bands as bytes when they are bytes).
struct GeoTiffRaster {
  int width = 0;
  int height = 0;
  int num_bands = 0;
  std::string band_type;         // GDAL's name of the first band's type: "Float32", "Byte"
  std::vector<float> band1;      // the first band, row-major
  std::vector<uint8_t> bytes;    // Byte rasters: all bands, pixel-interleaved; else empty
  bool has_nodata = false;       // the first band declares a nodata value
  double nodata = 0;
  GeoTransform transform{};
  std::string crs_wkt;           // WKT2
  int horizontal_epsg = 0;       // of the projected CRS (0 when there is none)
  int vertical_epsg = 0;         // of a compound CRS's vertical part (0 when there is none)
  bool tiled = false;            // the first band's blocks are square tiles, not strips
  int num_overviews = 0;         // of the first band
  std::string layout;            // IMAGE_STRUCTURE metadata LAYOUT: "COG" for a COG
};

// Throws InputError naming the file when GDAL cannot open it or it has no band.
GeoTiffRaster ReadGeoTiff(const std::string& path);

}  // namespace proj
