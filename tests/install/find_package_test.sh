#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Installs dpledger into a scratch prefix with `cmake --install`, builds examples/find_package against it with
# find_package(dpledger), runs it, and checks the installed binary, man page and completion; with the Python module
# built, the installed package in the prefix's Python site directory prints the CLI's value.
# Usage: find_package_test.sh BUILD_DIR SOURCE_DIR
set -eu
BUILD=$1
SRC=$2
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cmake --install "$BUILD" --prefix "$T/prefix" >"$T/install.log"
"$T/prefix/bin/dpledger" --version
test -s "$T/prefix/share/man/man1/dpledger.1.gz"
test -s "$T/prefix/share/bash-completion/completions/dpledger"
test -s "$T/prefix/share/dpledger/data/breast_cancer.csv"
test -s "$T/prefix/lib/cmake/dpledger/dpledgerConfig.cmake"
cmake -S "$SRC/examples/find_package" -B "$T/example" -DCMAKE_PREFIX_PATH="$T/prefix" -DCMAKE_BUILD_TYPE=Release \
  >"$T/configure.log" || { cat "$T/configure.log"; exit 1; }
cmake --build "$T/example" -j2 >"$T/build.log" || { cat "$T/build.log"; exit 1; }
out=$("$T/example/dp_sgd_budget")
echo "$out"
expected=$("$T/prefix/bin/dpledger" --json compose -m gaussian:sigma=1.1,q=0.01,steps=10000 --delta 1e-5 \
  --accountant rdp | sed 's/.*"epsilon":\([0-9.e+-]*\).*/\1/')
case "$out" in
  "epsilon $expected (rdp)") echo "find_package example agrees with the CLI: $expected" ;;
  *) echo "example printed '$out', the CLI $expected"; exit 1 ;;
esac

# The same example without CMake: compiled and linked with what `pkg-config --cflags --libs dpledger` reads from the
# installed dpledger.pc (headers included as <dpledger/accounting/...>), and printing the same line.
test -s "$T/prefix/include/dpledger/accounting/composition/compose.h"
grep -q '#include <dpledger/accounting/' "$SRC/examples/find_package/dp_sgd_budget.cpp"
pc=$(ls "$T"/prefix/lib*/pkgconfig/dpledger.pc "$T"/prefix/lib/*/pkgconfig/dpledger.pc 2>/dev/null | head -1)
test -s "$pc"
grep -q "^prefix=$T/prefix\$" "$pc" || { echo "dpledger.pc names another prefix:"; cat "$pc"; exit 1; }
flags=$(PKG_CONFIG_PATH=$(dirname "$pc") pkg-config --cflags --libs dpledger)
echo "pkg-config --cflags --libs dpledger: $flags"
# shellcheck disable=SC2086  # the flags are words
c++ -O2 "$SRC/examples/find_package/dp_sgd_budget.cpp" $flags -o "$T/dp_sgd_budget_pc" 2>"$T/pc_build.log" ||
  { cat "$T/pc_build.log"; exit 1; }
pcout=$("$T/dp_sgd_budget_pc")
[ "$pcout" = "$out" ] || { echo "the pkg-config build printed '$pcout', the CMake build '$out'"; exit 1; }
echo "pkg-config example agrees: $pcout"

# The Python package, when the build has it: installed under the prefix, importable from there by the interpreter
# it was built for, and printing what the installed CLI prints.
if ls "$BUILD"/python/dpledger/_dpledger*.so >/dev/null 2>&1; then
  PY=$(sed -n 's/^DPLEDGER_PYTHON_EXECUTABLE:INTERNAL=//p' "$BUILD/CMakeCache.txt")
  site=$(ls -d "$T"/prefix/lib/python3*/*-packages)
  test -s "$site/dpledger/__init__.py"
  cli=$("$T/prefix/bin/dpledger" compose -m gaussian:sigma=1.1,q=0.01,steps=10000 --delta 1e-5 --accountant rdp)
  py=$(cd "$T" && PYTHONPATH="$site" "$PY" -c "import dpledger; print(dpledger.compose(['gaussian:sigma=1.1,q=0.01,steps=10000'], delta=1e-5, accountant='rdp'))")
  [ "$py" = "$cli" ] || { echo "installed Python package printed '$py', the CLI '$cli'"; exit 1; }
  echo "the installed Python package ($site) prints the CLI's value"
fi
