#!/usr/bin/env bash
# Interoperability check (not a test: it installs Debian packages): opens a georeferenced
# output of ours in the GIS tools Debian 12 ships, headless, and reports what each one reads.
#   bench/las_interop.sh RECON_DIR     (an sfm reconstruct output: points.las, points.ply,
#                                       cameras.csv, georeference.json)
# Installs cloudcompare, qgis, python3-qgis, python3-pyproj and xvfb (apt), then:
#   1. CloudCompare 2.11.3, command line (-SILENT -O FILE -C_EXPORT_FMT ASC -SAVE_CLOUDS) under
#      Xvfb: points.las, and points.ply as a control; counts the exported points.
#   2. QGIS 3.22 (PyQGIS, offscreen): its point-cloud providers, points.las as a point-cloud
#      layer (provider 'pdal'), cameras.csv as a delimited-text point layer (count, CRS).
#   3. pyproj (PROJ 9.1): the CRS that points.las's GeoTIFF keys name, and our heights taken
#      back to the ellipsoid through it, against the ENU origin of georeference.json.
# Prints one line per check; writes RECON_DIR/interop.txt. Exits 0 when it ran (whatever the
# tools could read): the lines are the result.
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
recon=$(cd "${1:?usage: las_interop.sh RECON_DIR}" && pwd)
for f in points.las points.ply cameras.csv georeference.json; do
  [ -f "$recon/$f" ] || { echo "las_interop: '$recon' has no $f (a georeferenced sfm output is needed)" >&2; exit 2; }
done
bash "$here/scripts/apt_install.sh" cloudcompare qgis python3-qgis python3-pyproj xvfb xauth >/dev/null
report=$recon/interop.txt
: > "$report"
say() { echo "$*" | tee -a "$report"; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
count_las=$(python3 -c "import struct,sys; print(struct.unpack_from('<I', open(sys.argv[1],'rb').read(111), 107)[0])" "$recon/points.las")
say "points.las: $count_las points in its header"

# 1. CloudCompare. It saves next to the input, with a time stamp in the name.
cloudcompare_open() {
  local input=$1 name
  name=$(basename "$input")
  rm -rf "$work/cc" && mkdir -p "$work/cc" && cp "$input" "$work/cc/"
  xvfb-run -a CloudCompare -SILENT -NO_TIMESTAMP -O "$work/cc/$name" -C_EXPORT_FMT ASC -SAVE_CLOUDS \
    > "$work/cc/log.txt" 2>&1
  local exported
  exported=$(find "$work/cc" -name '*.asc' | head -1)
  if [ -n "$exported" ]; then
    say "CloudCompare $(dpkg-query -W -f '${Version}' cloudcompare): $name opened, $(grep -c . "$exported") points exported"
  else
    say "CloudCompare $(dpkg-query -W -f '${Version}' cloudcompare): $name NOT opened: $(grep -v '^xvfb-run' "$work/cc/log.txt" | grep -iE 'error|unhandled|not supported|failed' | head -2 | tr '\n' ' ')"
  fi
}
cloudcompare_open "$recon/points.las"
cloudcompare_open "$recon/points.ply"
filters=$(strings /usr/lib/x86_64-linux-gnu/cloudcompare/libQCC_IO_LIB.so /usr/lib/x86_64-linux-gnu/cloudcompare/plugins/*.so 2>/dev/null | grep -oiE '\(\*\.las[^)]*\)' | sort -u | tr '\n' ' ')
say "CloudCompare LAS file filters in this build: ${filters:-none (built without libLAS, PDAL or LASlib)}"

# 2. QGIS, through PyQGIS with the offscreen Qt platform.
QT_QPA_PLATFORM=offscreen /usr/bin/python3 - "$recon" <<'PY' 2>/dev/null | tee -a "$report"
import sys
from qgis.core import (Qgis, QgsApplication, QgsProviderRegistry, QgsPointCloudLayer,
                       QgsVectorLayer)
recon = sys.argv[1]
QgsApplication.setPrefixPath("/usr", True)
app = QgsApplication([], False)
app.initQgis()
registry = QgsProviderRegistry.instance()
point_cloud = [p for p in registry.providerList() if p in ("pdal", "ept", "copc", "untwine")]
print(f"QGIS {Qgis.version()}: point-cloud providers {point_cloud or 'none'}")
# LAS goes through the 'pdal' provider (and COPC's from 3.26 on); 'ept' reads Entwine Point
# Tiles (ept.json) only. A layer of a provider that is not there crashes 3.22: not tried.
for provider in ("pdal", "copc"):
    if provider not in registry.providerList():
        why = ("Debian builds QGIS without PDAL" if provider == "pdal" else
               "QGIS has it from 3.26 on")
        print(f"QGIS points.las as a point-cloud layer ('{provider}'): not possible, this QGIS "
              f"has no '{provider}' provider ({why})")
        continue
    layer = QgsPointCloudLayer(f"{recon}/points.las", "points", provider)
    detail = (f"{layer.pointCount()} points, CRS {layer.crs().authid()}" if layer.isValid()
              else f"invalid ({layer.error().summary()})")
    print(f"QGIS points.las as a point-cloud layer ('{provider}'): {detail}")
uri = (f"file://{recon}/cameras.csv?delimiter=,&xField=est_longitude_deg&yField=est_latitude_deg"
       "&crs=EPSG:4326")
cameras = QgsVectorLayer(uri, "cameras", "delimitedtext")
print(f"QGIS cameras.csv as delimited text: valid {cameras.isValid()}, {cameras.featureCount()} rows, "
      f"CRS {cameras.crs().authid()}")
app.exitQgis()
PY

# 3. pyproj: the CRS our keys name, and our heights back on the ellipsoid.
/usr/bin/python3 - "$recon" <<'PY' | tee -a "$report"
import json, struct, sys
import pyproj
recon = sys.argv[1]
data = open(f"{recon}/points.las", "rb").read()
header_size, = struct.unpack_from("<H", data, 94)
num_vlrs, = struct.unpack_from("<I", data, 100)
keys, at = {}, header_size
for _ in range(num_vlrs):
    record, length = struct.unpack_from("<HH", data, at + 18)
    if record == 34735:
        count, = struct.unpack_from("<H", data, at + 54 + 6)
        for k in range(count):
            key, location, n, value = struct.unpack_from("<4H", data, at + 54 + 8 + 8 * k)
            if location == 0:
                keys[key] = value
    at += 54 + length
code = f"EPSG:{keys[3072]}" + (f"+{keys[4096]}" if 4096 in keys else "")
crs = pyproj.CRS(code)
print(f"pyproj {pyproj.__version__} (PROJ {pyproj.proj_version_str}): points.las keys name {code} = {crs.name!r}")
geo = json.load(open(f"{recon}/georeference.json"))
origin = geo["enu_origin_wgs84"]
to_3d = pyproj.Transformer.from_crs(crs, "EPSG:4979", always_xy=True)
scale = struct.unpack_from("<3d", data, 131)
offset = struct.unpack_from("<3d", data, 155)
point_offset, = struct.unpack_from("<I", data, 96)
x, y, z = (struct.unpack_from("<3i", data, point_offset)[k] * scale[k] + offset[k] for k in range(3))
lon, lat, h = to_3d.transform(x, y, z)
print(f"pyproj: first point {x:.3f} E, {y:.3f} N, {z:.3f} m ({geo['output_height_datum']}) -> "
      f"{lat:.7f}, {lon:.7f}, {h:.3f} m above the ellipsoid; ENU origin at {origin['altitude_m']:.3f} m "
      f"({origin.get('height_datum')}), geoid height there {geo.get('geoid_height_at_origin_m')} m")
PY
echo "las_interop: results in $report" >&2
