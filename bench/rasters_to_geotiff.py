#!/usr/bin/python3
"""Turns the rasters bench/orthophoto_on_truth writes (DIR/dsm.bin, DIR/orthophoto.bin in
io/float_raster_file.h's layout, DIR/grid.json) into the GeoTIFFs the products stage writes:
DIR/dsm.tif (float32, NaN nodata) and DIR/orthophoto.tif (RGBA uint8), north-up, with the grid's
geotransform and CRS, so bench/products_synth_eval.py reads both kinds the same way.

  rasters_to_geotiff.py DIR"""
import json
import os
import sys

import numpy as np
from osgeo import gdal, osr

from products_synth_eval import read_float_raster  # same folder

gdal.UseExceptions()


def write_geotiff(path, bands, dtype, grid, nodata=None, alpha=False):
    driver = gdal.GetDriverByName("GTiff")
    height, width = bands[0].shape
    ds = driver.Create(path + ".tmp", width, height, len(bands), dtype, ["TILED=YES", "COMPRESS=DEFLATE"])
    ds.SetGeoTransform([grid["west_m"], grid["cell_m"], 0, grid["north_m"], 0, -grid["cell_m"]])
    srs = osr.SpatialReference()
    srs.SetFromUserInput(grid["crs"])
    ds.SetProjection(srs.ExportToWkt())
    for i, band in enumerate(bands):
        out = ds.GetRasterBand(i + 1)
        out.WriteArray(band)
        if nodata is not None:
            out.SetNoDataValue(nodata)
    if alpha:
        for i, interp in enumerate([gdal.GCI_RedBand, gdal.GCI_GreenBand, gdal.GCI_BlueBand, gdal.GCI_AlphaBand]):
            ds.GetRasterBand(i + 1).SetColorInterpretation(interp)
    ds = None
    os.replace(path + ".tmp", path)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    folder = sys.argv[1]
    grid = json.load(open(os.path.join(folder, "grid.json")))
    dsm = read_float_raster(os.path.join(folder, "dsm.bin"))
    write_geotiff(os.path.join(folder, "dsm.tif"), [dsm[0].astype(np.float32)], gdal.GDT_Float32, grid,
                  nodata=float("nan"))
    rgba = read_float_raster(os.path.join(folder, "orthophoto.bin"))
    write_geotiff(os.path.join(folder, "orthophoto.tif"), [np.clip(b, 0, 255).astype(np.uint8) for b in rgba],
                  gdal.GDT_Byte, grid, alpha=True)
    print(f"wrote {folder}/dsm.tif and {folder}/orthophoto.tif ({grid['width']}x{grid['height']}, {grid['crs']})")


if __name__ == "__main__":
    main()
