#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `pip install .` into a fresh virtual environment, offline, as docs/install.md shows: a venv of PYTHON with the
# system site packages (numpy, setuptools), `pip install --no-index --no-build-isolation SOURCE`, then the venv's
# interpreter imports dpledger and composes once. The extension is built by CMake in BUILD_DIR (kept between runs:
# the second build is incremental), or, given PREBUILT (the extension module the suite's own build made for PYTHON),
# packaged from there (DPLEDGER_PREBUILT_EXTENSION): the same CMake target, not compiled a second time.
# Usage: pip_venv_test.sh SOURCE_DIR BUILD_DIR [PYTHON [PREBUILT]]
set -euo pipefail
src=$1
build_dir=$2
python=${3:-/usr/bin/python3}
prebuilt=${4:-}
suffix=$("$python" -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
case "$prebuilt" in *"$suffix") [ -f "$prebuilt" ] || prebuilt="" ;; *) prebuilt="" ;; esac
echo "extension: ${prebuilt:-built by setup.py in $build_dir}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$python" -m venv --system-site-packages "$tmp/v"
# pip builds in the source tree: setuptools' files go to build-python/ (ignored by git), CMake's to BUILD_DIR.
DPLEDGER_PREBUILT_EXTENSION="$prebuilt" DPLEDGER_PIP_BUILD_DIR="$build_dir" "$tmp/v/bin/pip" install --no-index --no-build-isolation -q "$src"
cd "$tmp"
out=$("$tmp/v/bin/python" -c '
import dpledger, os, sys
assert dpledger.__file__.startswith(sys.prefix), (dpledger.__file__, sys.prefix)
r = dpledger.compose(["gaussian:sigma=1.1,q=0.01,steps=1000"], delta=1e-5)
from dpledger.dp_accounting.rdp import rdp_privacy_accountant
from dpledger.opacus.accountants import GaussianAccountant
print("ok", dpledger.__version__, r.epsilon > 0)
')
echo "$out"
[ "$(echo "$out" | cut -d" " -f1,3)" = "ok True" ]
