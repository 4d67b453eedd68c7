#!/usr/bin/env python3
"""Opens raster files as QGIS layers, headless, and prints each one's CRS and extent as JSON
lines: {"path": ..., "valid": true, "crs": "EPSG:32615", "bands": 1, "width": ..., "height": ...,
"extent": [xmin, ymin, xmax, ymax]}. Exit code 77 (CTest's and our tests' "skipped") with a
message when QGIS's Python bindings are missing (scripts/install_qgis.sh installs them).
  qgis_read_layers.py FILE.tif...
"""
import json
import os
import sys

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
try:
    from qgis.core import QgsApplication, QgsRasterLayer
except ImportError as error:
    print(f"QGIS's Python bindings are missing ({error}): run scripts/install_qgis.sh", file=sys.stderr)
    sys.exit(77)

app = QgsApplication([], False)
app.initQgis()
status = 0
for path in sys.argv[1:]:
    layer = QgsRasterLayer(path, os.path.basename(path))
    record = {"path": path, "valid": layer.isValid()}
    if layer.isValid():
        extent = layer.extent()
        record.update(crs=layer.crs().authid(), bands=layer.bandCount(), width=layer.width(),
                      height=layer.height(),
                      extent=[extent.xMinimum(), extent.yMinimum(), extent.xMaximum(), extent.yMaximum()])
    else:
        status = 1
        record["error"] = layer.error().summary()
    print(json.dumps(record))
sys.stdout.flush()
# Without exitQgis: QGIS 3.22 can crash while tearing down after a script (a known issue of
# its Python bindings), which would turn a good read into a failure.
os._exit(status)
