#!/usr/bin/env bash
# Installs Debian's QGIS with its Python bindings (about 1 GB), only for the test that opens
# the map products in QGIS (tests/integration/qgis_read_layers.py, run by products_cli_test),
# which skips with a message without it. Not part of setup.sh or install_test_tools.sh: too
# large for every machine that builds or tests sfm.
set -euo pipefail
bash "$(dirname "$0")/apt_install.sh" qgis python3-qgis
echo "install_qgis: QGIS $(/usr/bin/python3 -c 'from qgis.core import Qgis; print(Qgis.QGIS_VERSION)' 2>/dev/null)" >&2
