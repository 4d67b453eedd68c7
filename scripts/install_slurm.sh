#!/usr/bin/env bash
# Installs Slurm and munge from Debian (slurm-wlm, munge), which only the cluster test needs
# (tests/cluster/slurm_cluster_test.sh starts a one-node cluster on localhost with them; it
# skips without them). The packages' services are not started: the test runs its own daemons.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bash "$here/apt_install.sh" slurm-wlm munge
