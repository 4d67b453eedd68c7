#!/usr/bin/env python3
"""Georeferencing error of a reconstructed synthetic flight, with no alignment at all: each
registered camera's estimated centre (OUT/cameras.csv, in the model's ENU frame, whose WGS84
origin and height datum georeference.json gives) against its true centre (FLIGHT's
gt_dense_cameras, in the world ENU frame of FLIGHT/gt_enu_origin.txt, ellipsoidal heights).
Frames are related through WGS84 ECEF in closed form (no PROJ needed on the GPU machine).

  flight_georeference_error.py RECON_DIR FLIGHT_DIR

Prints one line: median and max of the 3D, horizontal and vertical errors in metres. Exits 1
when the model is not georeferenced or its frame is not ellipsoidal (the geoid grid was
missing: heights then sit the geoid height off, so only horizontal errors are meaningful;
they are printed anyway)."""
import csv
import json
import math
import os
import statistics
import sys

A, F = 6378137.0, 1 / 298.257223563
E2 = F * (2 - F)


def ecef(lat_deg, lon_deg, h):
    lat, lon = math.radians(lat_deg), math.radians(lon_deg)
    n = A / math.sqrt(1 - E2 * math.sin(lat) ** 2)
    return ((n + h) * math.cos(lat) * math.cos(lon), (n + h) * math.cos(lat) * math.sin(lon),
            (n * (1 - E2) + h) * math.sin(lat))


def enu_axes(lat_deg, lon_deg):
    lat, lon = math.radians(lat_deg), math.radians(lon_deg)
    east = (-math.sin(lon), math.cos(lon), 0.0)
    north = (-math.sin(lat) * math.cos(lon), -math.sin(lat) * math.sin(lon), math.cos(lat))
    up = (math.cos(lat) * math.cos(lon), math.cos(lat) * math.sin(lon), math.sin(lat))
    return east, north, up


def to_ecef(origin, enu):
    o = ecef(*origin)
    axes = enu_axes(origin[0], origin[1])
    return tuple(o[k] + sum(enu[i] * axes[i][k] for i in range(3)) for k in range(3))


def to_enu(origin, p):
    o = ecef(*origin)
    d = [p[k] - o[k] for k in range(3)]
    return tuple(sum(d[k] * axis[k] for k in range(3)) for axis in enu_axes(origin[0], origin[1]))


def main():
    recon, flight = sys.argv[1], sys.argv[2]
    geo = json.load(open(os.path.join(recon, "georeference.json")))
    if not geo.get("georeferenced"):
        print("not georeferenced:", geo.get("reason"))
        return 1
    o = geo["enu_origin_wgs84"]
    model_origin = (o["latitude_deg"], o["longitude_deg"], o["altitude_m"])
    ellipsoidal = o.get("height_datum", "WGS 84 ellipsoidal height") == "WGS 84 ellipsoidal height"
    world_origin = tuple(float(v) for v in open(os.path.join(flight, "gt_enu_origin.txt")).read().split())
    errors, horizontal, vertical = [], [], []
    for row in csv.DictReader(open(os.path.join(recon, "cameras.csv"))):
        if row["registered"] != "1":
            continue
        values = open(os.path.join(flight, "gt_dense_cameras", row["image"] + ".camera")).read().split()
        truth = [float(v) for v in values[21:24]]  # after K (9), distortion (3) and R (9)
        est = to_enu(world_origin, to_ecef(model_origin, (float(row["est_east_m"]), float(row["est_north_m"]),
                                                          float(row["est_up_m"]))))
        d = [est[k] - truth[k] for k in range(3)]
        errors.append(math.sqrt(sum(v * v for v in d)))
        horizontal.append(math.hypot(d[0], d[1]))
        vertical.append(abs(d[2]))
    if not errors:
        print("no registered camera")
        return 1
    print(f"georeferenced camera error without alignment (m, {len(errors)} cameras): "
          f"3D median {statistics.median(errors):.3f} max {max(errors):.3f}; "
          f"horizontal median {statistics.median(horizontal):.3f} max {max(horizontal):.3f}; "
          f"vertical median {statistics.median(vertical):.3f} max {max(vertical):.3f}"
          + ("" if ellipsoidal else " (frame heights not ellipsoidal: vertical is off by the geoid height)"))
    return 0 if ellipsoidal else 1


if __name__ == "__main__":
    sys.exit(main())
