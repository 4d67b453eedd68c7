#include "io/geotiff_file.h"

#include <cmath>
#include <limits>
#include <memory>
#include <mutex>

#include <cpl_error.h>
#include <cpl_string.h>
#include <gdal_priv.h>
#include <ogr_spatialref.h>

#include "core/check.h"
#include "io/atomic_file.h"

namespace proj {
namespace {

void RegisterGdalDrivers() {
  static std::once_flag once;
  std::call_once(once, [] { GDALAllRegister(); });
}

// GDAL reports errors through a handler (by default printed to stderr) and a per-thread last
// error: ours are turned into InputErrors naming the file, so they are kept off stderr.
class QuietGdalErrors {
 public:
  QuietGdalErrors() {
    CPLPushErrorHandler(CPLQuietErrorHandler);
    CPLErrorReset();
  }
  ~QuietGdalErrors() { CPLPopErrorHandler(); }
  QuietGdalErrors(const QuietGdalErrors&) = delete;
  QuietGdalErrors& operator=(const QuietGdalErrors&) = delete;
  static std::string LastMessage() {
    const char* message = CPLGetLastErrorMsg();
    return message != nullptr && *message != '\0' ? message : "unknown GDAL error";
  }
};

struct DatasetCloser {
  void operator()(GDALDataset* dataset) const { GDALClose(GDALDataset::ToHandle(dataset)); }
};
using DatasetPtr = std::unique_ptr<GDALDataset, DatasetCloser>;

OGRSpatialReference SpatialReferenceOf(const std::string& crs_code, const std::string& path) {
  OGRSpatialReference srs;
  PROJ_REQUIRE(srs.SetFromUserInput(crs_code.c_str()) == OGRERR_NONE,
               "cannot write '" << path << "': GDAL does not know the CRS '" << crs_code
                                << "': " << QuietGdalErrors::LastMessage());
  srs.SetAxisMappingStrategy(OAMS_TRADITIONAL_GIS_ORDER);  // easting, northing
  return srs;
}

// `fill(dataset)` writes the pixels of an in-memory raster of `num_bands` bands of `type`,
// which is then copied into a COG at `path`, atomically.
template <typename Fill>
void WriteCog(const std::string& path, int width, int height, int num_bands, GDALDataType type,
              bool float_predictor, const GeoTransform& transform, const std::string& crs_code,
              const Fill& fill) {
  RegisterGdalDrivers();
  const QuietGdalErrors quiet;
  GDALDriver* memory_driver = GetGDALDriverManager()->GetDriverByName("MEM");
  GDALDriver* cog_driver = GetGDALDriverManager()->GetDriverByName("COG");
  PROJ_CHECK(memory_driver != nullptr && cog_driver != nullptr, "GDAL lacks its MEM or COG driver");
  const OGRSpatialReference srs = SpatialReferenceOf(crs_code, path);
  DatasetPtr memory(memory_driver->Create("", width, height, num_bands, type, nullptr));
  PROJ_REQUIRE(memory != nullptr, "cannot write '" << path << "': " << QuietGdalErrors::LastMessage());
  GeoTransform copy = transform;
  PROJ_CHECK(memory->SetGeoTransform(copy.data()) == CE_None, "MEM raster refused a geotransform");
  PROJ_CHECK(memory->SetSpatialRef(&srs) == CE_None, "MEM raster refused a CRS");
  fill(memory.get());
  CPLStringList options;
  options.SetNameValue("COMPRESS", "DEFLATE");
  if (float_predictor) options.SetNameValue("PREDICTOR", "YES");  // the floating-point one for floats
  options.SetNameValue("BLOCKSIZE", "512");
  options.SetNameValue("OVERVIEWS", "AUTO");
  WriteFileAtomicallyAt(path, [&](const std::string& temp) {
    DatasetPtr cog(cog_driver->CreateCopy(temp.c_str(), memory.get(), /*bStrict=*/FALSE, options.List(),
                                          nullptr, nullptr));
    PROJ_REQUIRE(cog != nullptr, "cannot write '" << path << "': " << QuietGdalErrors::LastMessage());
    cog->FlushCache();
    PROJ_REQUIRE(CPLGetLastErrorType() < CE_Failure,
                 "writing '" << path << "' failed: " << QuietGdalErrors::LastMessage());
  });
}

void CheckRasterIo(CPLErr error, const std::string& path) {
  PROJ_REQUIRE(error == CE_None, "cannot write '" << path << "': " << QuietGdalErrors::LastMessage());
}

int EpsgOf(const OGRSpatialReference& srs, const char* node) {
  const char* code = srs.GetAuthorityCode(node);
  return code != nullptr ? std::atoi(code) : 0;
}

}  // namespace

void WriteFloatGeoTiff(const std::string& path, int width, int height, const std::vector<float>& values,
                       const GeoTransform& transform, const std::string& crs_code) {
  PROJ_CHECK(width > 0 && height > 0 && values.size() == static_cast<size_t>(width) * height,
             "float raster of " << values.size() << " values for " << width << " x " << height);
  WriteCog(path, width, height, 1, GDT_Float32, /*float_predictor=*/true, transform, crs_code,
           [&](GDALDataset* dataset) {
             GDALRasterBand* band = dataset->GetRasterBand(1);
             PROJ_CHECK(band->SetNoDataValue(std::numeric_limits<double>::quiet_NaN()) == CE_None, "nodata refused");
             CheckRasterIo(band->RasterIO(GF_Write, 0, 0, width, height, const_cast<float*>(values.data()), width,
                                          height, GDT_Float32, 0, 0, nullptr),
                           path);
           });
}

void WriteRgbaGeoTiff(const std::string& path, int width, int height, const std::vector<uint8_t>& rgba,
                      const GeoTransform& transform, const std::string& crs_code) {
  PROJ_CHECK(width > 0 && height > 0 && rgba.size() == static_cast<size_t>(width) * height * 4,
             "RGBA raster of " << rgba.size() << " bytes for " << width << " x " << height);
  WriteCog(path, width, height, 4, GDT_Byte, /*float_predictor=*/false, transform, crs_code,
           [&](GDALDataset* dataset) {
             const GDALColorInterp interpretation[] = {GCI_RedBand, GCI_GreenBand, GCI_BlueBand, GCI_AlphaBand};
             for (int band = 0; band < 4; ++band) {
               dataset->GetRasterBand(band + 1)->SetColorInterpretation(interpretation[band]);
             }
             int bands[] = {1, 2, 3, 4};
             // Pixel-interleaved: 4 bytes from one pixel to the next, 1 from one band to the next.
             CheckRasterIo(dataset->RasterIO(GF_Write, 0, 0, width, height, const_cast<uint8_t*>(rgba.data()), width,
                                             height, GDT_Byte, 4, bands, 4, 4 * static_cast<GSpacing>(width), 1,
                                             nullptr),
                           path);
           });
}

GeoTiffRaster ReadGeoTiff(const std::string& path) {
  RegisterGdalDrivers();
  const QuietGdalErrors quiet;
  DatasetPtr dataset(GDALDataset::Open(path.c_str(), GDAL_OF_RASTER | GDAL_OF_READONLY));
  PROJ_REQUIRE(dataset != nullptr, "cannot read '" << path << "': " << QuietGdalErrors::LastMessage());
  GeoTiffRaster raster;
  raster.width = dataset->GetRasterXSize();
  raster.height = dataset->GetRasterYSize();
  raster.num_bands = dataset->GetRasterCount();
  PROJ_REQUIRE(raster.num_bands > 0, "cannot read '" << path << "': it has no raster band");
  GDALRasterBand* band = dataset->GetRasterBand(1);
  raster.band_type = GDALGetDataTypeName(band->GetRasterDataType());
  raster.band1.resize(static_cast<size_t>(raster.width) * raster.height);
  PROJ_REQUIRE(band->RasterIO(GF_Read, 0, 0, raster.width, raster.height, raster.band1.data(), raster.width,
                              raster.height, GDT_Float32, 0, 0, nullptr) == CE_None,
               "cannot read '" << path << "': " << QuietGdalErrors::LastMessage());
  if (band->GetRasterDataType() == GDT_Byte) {
    raster.bytes.resize(raster.band1.size() * raster.num_bands);
    PROJ_REQUIRE(dataset->RasterIO(GF_Read, 0, 0, raster.width, raster.height, raster.bytes.data(), raster.width,
                                   raster.height, GDT_Byte, raster.num_bands, nullptr, raster.num_bands,
                                   static_cast<GSpacing>(raster.num_bands) * raster.width, 1, nullptr) == CE_None,
                 "cannot read '" << path << "': " << QuietGdalErrors::LastMessage());
  }
  int has_nodata = 0;
  raster.nodata = band->GetNoDataValue(&has_nodata);
  raster.has_nodata = has_nodata != 0;
  if (dataset->GetGeoTransform(raster.transform.data()) != CE_None) raster.transform = {};
  if (const OGRSpatialReference* srs = dataset->GetSpatialRef()) {
    char* wkt = nullptr;
    const char* wkt_options[] = {"FORMAT=WKT2", nullptr};
    if (srs->exportToWkt(&wkt, wkt_options) == OGRERR_NONE && wkt != nullptr) raster.crs_wkt = wkt;
    CPLFree(wkt);
    raster.horizontal_epsg = EpsgOf(*srs, "PROJCS");
    raster.vertical_epsg = EpsgOf(*srs, "VERT_CS");
  }
  int block_x = 0, block_y = 0;
  band->GetBlockSize(&block_x, &block_y);
  raster.tiled = block_y > 1 && block_x == block_y;
  raster.num_overviews = band->GetOverviewCount();
  const char* layout = dataset->GetMetadataItem("LAYOUT", "IMAGE_STRUCTURE");
  raster.layout = layout != nullptr ? layout : "";
  return raster;
}

}  // namespace proj
