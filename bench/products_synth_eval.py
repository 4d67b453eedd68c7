#!/usr/bin/python3
"""The map products of a synthetic flight against its truth (issue 25):

  products_synth_eval.py OUT FLIGHT [--search-m 3] [--patch 48] [--min-ncc 0.7] [--json FILE]

OUT/dsm.tif (float32, NaN or a stated nodata) and OUT/orthophoto.tif (RGBA uint8), in a UTM
CRS (compound with a vertical CRS when the heights are above the geoid), as the products
stage writes them; FLIGHT from `sfm synth --flight --truth-rasters` (FLIGHT/truth/truth.json,
dsm.bin, orthophoto.png: the true surface and texture on a grid in the flight's ENU frame,
whose WGS84 origin truth.json gives, heights ellipsoidal). Either product may be missing.

Frames: a map position (easting, northing, height) goes to WGS84 through osr (the geoid grid
for EGM96 heights), to ECEF and to the truth's ENU frame in closed form. Over a survey this is
affine to far below a millimetre; the script fits that affine on a lattice of exactly
converted points and prints its worst residual.

Surface model: over the cells known in both, |height - true height| (the true height at the
cell centre's position, nearest truth cell), median and 90th percentile in metres and in
ground sample distances (GSD = altitude / focal length, truth.json), as placed (the model is
georeferenced by noisy GPS) and after removing the best horizontal shift and vertical offset
(searched: the shift minimising the median absolute difference once its median is removed).

Orthophoto position: patches (--patch px) of the true orthophoto, resampled onto our grid, on
a lattice, each searched in ours within --search-m by normalised cross-correlation (subpixel
peak); textured patches whose best NCC reaches --min-ncc are kept. Reports the median and 90th
percentile of the offsets' lengths in our pixels, raw and after removing the global shift
(the median offset)."""
import argparse
import json
import math
import os
import sys

import numpy as np
from osgeo import gdal, osr
from scipy import ndimage, signal

gdal.UseExceptions()
A, F = 6378137.0, 1 / 298.257223563
E2 = F * (2 - F)


def read_float_raster(path):
    """COLMAP's .bin: ASCII "W&H&C&", then float32 little-endian, channel-planar."""
    with open(path, "rb") as f:
        data = f.read()
    fields, offset = [], 0
    for _ in range(3):
        end = data.index(b"&", offset)
        fields.append(int(data[offset:end]))
        offset = end + 1
    width, height, channels = fields
    return np.frombuffer(data, dtype="<f4", offset=offset).reshape(channels, height, width)


def ecef(lat_deg, lon_deg, h):
    lat, lon = np.radians(lat_deg), np.radians(lon_deg)
    n = A / np.sqrt(1 - E2 * np.sin(lat) ** 2)
    return np.stack([(n + h) * np.cos(lat) * np.cos(lon), (n + h) * np.cos(lat) * np.sin(lon),
                     (n * (1 - E2) + h) * np.sin(lat)], axis=-1)


def enu_rotation(lat_deg, lon_deg):
    lat, lon = math.radians(lat_deg), math.radians(lon_deg)
    return np.array([[-math.sin(lon), math.cos(lon), 0.0],
                     [-math.sin(lat) * math.cos(lon), -math.sin(lat) * math.sin(lon), math.cos(lat)],
                     [math.cos(lat) * math.cos(lon), math.cos(lat) * math.sin(lon), math.sin(lat)]])


class MapToTruth:
    """Affine map (easting, northing, height) -> the truth's ENU, fitted on exact conversions."""

    def __init__(self, dataset, origin, extent, heights):
        srs = osr.SpatialReference()
        srs.ImportFromWkt(dataset.GetProjection())
        srs.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)
        wgs84 = osr.SpatialReference()
        wgs84.ImportFromEPSG(4979)  # geographic 3D: ellipsoidal heights
        wgs84.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)
        transform = osr.CoordinateTransformation(srs, wgs84)
        west, east, south, north = extent
        e, n, h = np.meshgrid(np.linspace(west, east, 12), np.linspace(south, north, 12), heights)
        points = np.stack([e.ravel(), n.ravel(), h.ravel()], axis=1)
        geo = np.array(transform.TransformPoints(points.tolist()))
        o = ecef(origin["latitude_deg"], origin["longitude_deg"], origin["altitude_m"])
        enu = (ecef(geo[:, 1], geo[:, 0], geo[:, 2]) - o) @ enu_rotation(origin["latitude_deg"],
                                                                           origin["longitude_deg"]).T
        design = np.hstack([points - points.mean(axis=0), np.ones((len(points), 1))])
        self.centre = points.mean(axis=0)
        self.matrix, *_ = np.linalg.lstsq(design, enu, rcond=None)
        self.residual_m = float(np.abs(design @ self.matrix - enu).max())
        self.vertical = srs.IsCompound() or srs.GetAttrValue("VERT_CS") is not None

    def __call__(self, e, n, h):
        design = np.stack([e - self.centre[0], n - self.centre[1], h - self.centre[2], np.ones_like(e)], axis=-1)
        return design @ self.matrix


def cell_centres(transform, width, height):
    cols, rows = np.meshgrid(np.arange(width) + 0.5, np.arange(height) + 0.5)
    return transform[0] + cols * transform[1], transform[3] + rows * transform[5]


def stats(values):
    values = np.abs(values)
    return float(np.median(values)), float(np.percentile(values, 90))


class Truth:
    def __init__(self, flight):
        folder = os.path.join(flight, "truth")
        self.info = json.load(open(os.path.join(folder, "truth.json")))
        self.grid = self.info["grid"]
        self.heights = read_float_raster(os.path.join(folder, self.info["dsm"]))[0]
        self.colour = gdal.Open(os.path.join(folder, self.info["orthophoto"])).ReadAsArray().astype(np.float32)
        self.gsd_m = self.info["gsd_m"]

    def fractional(self, x, y):
        """Truth grid coordinates (column, row; centres at + 0.5) of ENU x, y."""
        return (x - self.grid["west_m"]) / self.grid["cell_m"], (self.grid["north_m"] - y) / self.grid["cell_m"]

    def height_at(self, x, y):
        col, row = self.fractional(x, y)
        c, r = np.floor(col).astype(int), np.floor(row).astype(int)
        inside = (c >= 0) & (c < self.grid["width"]) & (r >= 0) & (r < self.grid["height"])
        out = np.full(x.shape, np.nan, dtype=np.float64)
        out[inside] = self.heights[r[inside], c[inside]]
        return out


def evaluate_dsm(path, truth, origin, report):
    ds = gdal.Open(path)
    band = ds.GetRasterBand(1)
    heights = band.ReadAsArray().astype(np.float64)
    nodata = band.GetNoDataValue()
    if nodata is not None and not math.isnan(nodata):
        heights[heights == nodata] = np.nan
    t = ds.GetGeoTransform()
    e, n = cell_centres(t, ds.RasterXSize, ds.RasterYSize)
    known = np.isfinite(heights)
    finite = heights[known]
    to_truth = MapToTruth(ds, origin, (e.min(), e.max(), n.min(), n.max()),
                          [float(finite.min()) - 5, float(finite.max()) + 5])
    enu = to_truth(e[known], n[known], heights[known])
    true_z = truth.height_at(enu[:, 0], enu[:, 1])
    both = np.isfinite(true_z)
    enu, true_z = enu[both], true_z[both]
    difference = enu[:, 2] - true_z
    median, p90 = stats(difference)
    gsd = truth.gsd_m
    result = {"cell_m": t[1], "cells_compared": int(both.sum()), "map_to_truth_residual_m": to_truth.residual_m,
              "as_placed": {"median_m": median, "p90_m": p90, "median_gsd": median / gsd, "p90_gsd": p90 / gsd,
                            "mean_offset_m": float(np.median(difference))}}
    # Best horizontal shift (ours relative to the truth) and vertical offset, by a search.
    rng = np.random.default_rng(0)
    sample = rng.choice(len(true_z), size=min(len(true_z), 200000), replace=False)
    xs, ys, zs = enu[sample, 0], enu[sample, 1], enu[sample, 2]

    def cost(dx, dy):
        tz = truth.height_at(xs - dx, ys - dy)
        ok = np.isfinite(tz)
        d = zs[ok] - tz[ok]
        return float(np.median(np.abs(d - np.median(d)))), float(np.median(d))

    best = (cost(0, 0)[0], 0.0, 0.0)
    step = truth.grid["cell_m"]
    for span, stride in ((3.0, 4 * step), (4 * step, step), (step, step / 4)):
        cx, cy = best[1], best[2]
        for dx in np.arange(cx - span, cx + span + 1e-9, stride):
            for dy in np.arange(cy - span, cy + span + 1e-9, stride):
                c = cost(dx, dy)[0]
                if c < best[0]:
                    best = (c, float(dx), float(dy))
    dx, dy = best[1], best[2]
    tz = truth.height_at(enu[:, 0] - dx, enu[:, 1] - dy)
    ok = np.isfinite(tz)
    d = enu[ok, 2] - tz[ok]
    dz = float(np.median(d))
    median, p90 = stats(d - dz)
    result["aligned"] = {"shift_east_m": dx, "shift_north_m": dy, "offset_up_m": dz, "median_m": median,
                         "p90_m": p90, "median_gsd": median / gsd, "p90_gsd": p90 / gsd}
    report["dsm"] = result
    a = result["as_placed"]
    b = result["aligned"]
    print(f"DSM ({ds.RasterXSize}x{ds.RasterYSize} cells of {t[1]:.3f} m, {result['cells_compared']} compared, "
          f"GSD {gsd:.4f} m):")
    print(f"  as placed:  |dh| median {a['median_m']:.3f} m ({a['median_gsd']:.2f} GSD), "
          f"p90 {a['p90_m']:.3f} m ({a['p90_gsd']:.2f} GSD); median dh {a['mean_offset_m']:+.3f} m")
    print(f"  aligned (shift {dx:+.2f}, {dy:+.2f} m, offset {dz:+.3f} m): |dh| median {b['median_m']:.3f} m "
          f"({b['median_gsd']:.2f} GSD), p90 {b['p90_m']:.3f} m ({b['p90_gsd']:.2f} GSD)")


def grey(rgb):
    return 0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2]


def ncc_search(window, template):
    """NCC of `template` at every placement inside `window` ('valid')."""
    t = template - template.mean()
    t_norm = math.sqrt(float((t * t).sum()))
    n = template.size
    numerator = signal.fftconvolve(window, t[::-1, ::-1], mode="valid")
    ones = np.ones(template.shape)
    sums = signal.fftconvolve(window, ones, mode="valid")
    squares = signal.fftconvolve(window * window, ones, mode="valid")
    variance = np.maximum(squares - sums * sums / n, 1e-9)
    return numerator / (np.sqrt(variance) * t_norm)


def subpixel(scores, r, c):
    def vertex(a, b, cc):
        denominator = a - 2 * b + cc
        return 0.0 if abs(denominator) < 1e-12 else 0.5 * (a - cc) / denominator
    return r + vertex(scores[r - 1, c], scores[r, c], scores[r + 1, c]), c + vertex(scores[r, c - 1], scores[r, c],
                                                                                    scores[r, c + 1])


def evaluate_orthophoto(path, truth, origin, args, report):
    ds = gdal.Open(path)
    rgba = ds.ReadAsArray().astype(np.float32)
    t = ds.GetGeoTransform()
    cell = t[1]
    e, n = cell_centres(t, ds.RasterXSize, ds.RasterYSize)
    h0 = float(np.median(truth.heights[np.isfinite(truth.heights)]))  # horizontal positions barely move with h
    to_truth = MapToTruth(ds, origin, (e.min(), e.max(), n.min(), n.max()), [h0 - 50, h0 + 50])
    enu = to_truth(e, n, np.full(e.shape, h0))
    col, row = truth.fractional(enu[..., 0], enu[..., 1])
    # The truth resampled onto our grid, low-passed first when our cells are larger.
    ratio = cell / truth.grid["cell_m"]
    true_grey = grey(truth.colour)
    if ratio > 1.2:
        true_grey = ndimage.gaussian_filter(true_grey, 0.5 * ratio)
    inside = (col >= 0.5) & (col <= truth.grid["width"] - 0.5) & (row >= 0.5) & (row <= truth.grid["height"] - 0.5)
    resampled = ndimage.map_coordinates(true_grey, [row - 0.5, col - 0.5], order=1, mode="nearest")
    ours = grey(rgba[:3])
    ours_known = (rgba[3] > 0) if rgba.shape[0] == 4 else np.ones(ours.shape, bool)
    p = args.patch
    reach = max(2, int(math.ceil(args.search_m / cell)))
    offsets, tried = [], 0
    for r0 in range(reach, ours.shape[0] - p - reach, p):
        for c0 in range(reach, ours.shape[1] - p - reach, p):
            if not inside[r0:r0 + p, c0:c0 + p].all():
                continue
            window_known = ours_known[r0 - reach:r0 + p + reach, c0 - reach:c0 + p + reach]
            if not window_known.all():
                continue
            template = resampled[r0:r0 + p, c0:c0 + p]
            if template.std() < args.min_texture:
                continue
            tried += 1
            scores = ncc_search(ours[r0 - reach:r0 + p + reach, c0 - reach:c0 + p + reach], template)
            r, c = np.unravel_index(int(np.argmax(scores)), scores.shape)
            if scores[r, c] < args.min_ncc or r in (0, scores.shape[0] - 1) or c in (0, scores.shape[1] - 1):
                continue
            sr, sc = subpixel(scores, r, c)
            offsets.append((sc - reach, sr - reach))  # (east, south) in our pixels
    offsets = np.array(offsets).reshape(-1, 2)
    result = {"cell_m": cell, "patches_tried": tried, "patches_matched": len(offsets),
              "map_to_truth_residual_m": to_truth.residual_m}
    if len(offsets) == 0:
        print(f"orthophoto: no patch matched of {tried} tried")
        report["orthophoto"] = result
        return
    shift = np.median(offsets, axis=0)
    raw = np.linalg.norm(offsets, axis=1)
    relative = np.linalg.norm(offsets - shift, axis=1)
    result.update({"raw_median_px": float(np.median(raw)), "raw_p90_px": float(np.percentile(raw, 90)),
                   "shift_east_px": float(shift[0]), "shift_north_px": float(-shift[1]),
                   "median_px": float(np.median(relative)), "p90_px": float(np.percentile(relative, 90))})
    report["orthophoto"] = result
    print(f"orthophoto ({ds.RasterXSize}x{ds.RasterYSize} cells of {cell:.3f} m): {len(offsets)} of {tried} "
          f"textured {p}x{p} patches matched (NCC >= {args.min_ncc})")
    print(f"  raw offset: median {result['raw_median_px']:.2f} px, p90 {result['raw_p90_px']:.2f} px "
          f"(median {result['raw_median_px'] * cell:.3f} m)")
    print(f"  global shift {shift[0] * cell:+.3f} m east, {-shift[1] * cell:+.3f} m north removed: "
          f"median {result['median_px']:.2f} px, p90 {result['p90_px']:.2f} px "
          f"({result['median_px'] * cell:.3f} m, {result['p90_px'] * cell:.3f} m)")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out")
    parser.add_argument("flight")
    parser.add_argument("--search-m", type=float, default=3.0, help="search reach of a patch, metres")
    parser.add_argument("--patch", type=int, default=48, help="patch size, our pixels")
    parser.add_argument("--min-ncc", type=float, default=0.7, help="least NCC of a kept match")
    parser.add_argument("--min-texture", type=float, default=6.0, help="least grey std of a patch")
    parser.add_argument("--json", help="also write the figures here")
    args = parser.parse_args()
    truth = Truth(args.flight)
    origin = truth.info["origin_wgs84"]
    report = {"gsd_m": truth.gsd_m}
    found = False
    for name, evaluate in (("dsm.tif", evaluate_dsm), ("orthophoto.tif", evaluate_orthophoto)):
        path = os.path.join(args.out, name)
        if not os.path.exists(path):
            print(f"{path}: missing, not measured")
            continue
        found = True
        if evaluate is evaluate_dsm:
            evaluate(path, truth, origin, report)
        else:
            evaluate(path, truth, origin, args, report)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=2)
    return 0 if found else 1


if __name__ == "__main__":
    sys.exit(main())
