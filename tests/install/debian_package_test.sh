#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Builds the Debian package with `cpack -G DEB`, unpacks it into a scratch root with `dpkg -x`, and runs the
# unpacked binary; with the Python module built, python3-dpledger too (its dependencies, and the acceptance line of the
# Python package against the unpacked CLI). Usage: debian_package_test.sh BUILD_DIR
set -eu
BUILD=$1
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
(cd "$BUILD" && cpack -G DEB -B "$T/pkg" >"$T/cpack.log") || { cat "$T/cpack.log"; exit 1; }
deb=$(ls "$T"/pkg/dpledger_*.deb)
dpkg-deb --field "$deb" Package Version Architecture Depends
deps=$(dpkg-deb --field "$deb" Depends)
echo "$deps" | grep -q libc6
dpkg -x "$deb" "$T/root"
# The command's package holds no library, header or CMake package (those are libdpledger-dev's, which depends on
# the -dev packages its CMake package finds); each package has its copyright file.
if test -e "$T/root/usr/include" || test -e "$T/root/usr/lib/cmake"; then echo "the dpledger .deb holds the C++ library"; exit 1; fi
if echo "$deps" | grep -q -- "-dev"; then echo "the dpledger .deb depends on -dev packages: $deps"; exit 1; fi
grep -q "^Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/" "$T/root/usr/share/doc/dpledger/copyright"
devdeb=$(ls "$T"/pkg/libdpledger-dev_*.deb)
dpkg-deb --field "$devdeb" Package Depends Section
devdeps=$(dpkg-deb --field "$devdeb" Depends)
for dep in libboost-dev nlohmann-json3-dev libmpfr-dev libgmp-dev libmpfi-dev libfftw3-dev pkg-config; do
  echo "$devdeps" | grep -q "$dep" || { echo "libdpledger-dev does not depend on $dep: $devdeps"; exit 1; }
done
dpkg -x "$devdeb" "$T/devroot"
test -s "$T/devroot/usr/include/dpledger/accounting/composition/compose.h"
test -s "$T/devroot/usr/lib/cmake/dpledger/dpledgerConfig.cmake"
test -s "$T/devroot/usr/share/doc/libdpledger-dev/copyright"
# Apache-2.0 in every package's copyright file; dpledger.pc names /usr and reads with pkg-config; the headers are
# included as <dpledger/accounting/...>: a consumer built from the unpacked tree alone.
grep -q "^License: Apache-2.0" "$T/devroot/usr/share/doc/libdpledger-dev/copyright"
grep -q "^License: Apache-2.0" "$T/root/usr/share/doc/dpledger/copyright"
pc=$(find "$T/devroot/usr/lib" -name dpledger.pc | head -1)
test -s "$pc"
grep -q "^prefix=/usr$" "$pc" || { echo "the packaged dpledger.pc does not name /usr:"; cat "$pc"; exit 1; }
sed "s|^prefix=/usr$|prefix=$T/devroot/usr|" "$pc" > "$T/dpledger.pc"
flags=$(PKG_CONFIG_PATH="$T" pkg-config --cflags --libs dpledger)
c++ -O1 -x c++ - $flags -o "$T/consumer" <<'CPP' || { echo "a consumer of the packaged headers did not build with: $flags"; exit 1; }
#include <dpledger/accounting/composition/compose.h>
#include <dpledger/accounting/numeric/decimal.h>
#include <iostream>
int main() {
  const dpl::Ledger ledger = {dpl::parse_entry("gaussian:sigma=1.1,q=0.01,steps=10000")};
  const auto r = dpl::compose(ledger, dpl::Target::for_delta(1e-5), dpl::AccountantKind::rdp);
  std::cout << dpl::format_upper(r.epsilon) << "\n";
}
CPP
"$T/consumer"
if test -e "$T/devroot/usr/bin"; then echo "libdpledger-dev holds the command"; exit 1; fi
# The installed command reads the installed data: with the unpacked copy of breast_cancer.csv cut to its header, a
# run on it is refused naming that copy (a binary that read the source tree's data/ would run).
head -1 "$T/root/usr/share/dpledger/data/breast_cancer.csv" > "$T/header_only.csv"
cp "$T/header_only.csv" "$T/root/usr/share/dpledger/data/breast_cancer.csv"
if "$T/root/usr/bin/dpledger" run dp-sgd --set data=breast_cancer --quiet >"$T/run.out" 2>"$T/run.err"; then
  echo "the unpacked dpledger ran on data other than its own copy"; exit 1
fi
grep -q "$T/root/usr/share/dpledger/data/breast_cancer.csv" "$T/run.err" || { cat "$T/run.err"; exit 1; }
dpkg -x "$deb" "$T/root"  # the intact copy again
# The executable links GMP, MPFR, MPFI and FFTW statically by default (DPLEDGER_STATIC_CLI); a shared one must be
# named in Depends by dpkg-shlibdeps.
for lib in libmpfr libgmp libmpfi libfftw3; do
  if objdump -p "$T/root/usr/bin/dpledger" | grep -q "NEEDED *$lib"; then echo "$deps" | grep -q "$lib"; fi
done
"$T/root/usr/bin/dpledger" --version
"$T/root/usr/bin/dpledger" compose -m gaussian:sigma=1.1,q=0.01,steps=10000 --delta 1e-5 --accountant rdp
test -s "$T/root/usr/share/man/man1/dpledger.1.gz"
test -s "$T/root/usr/share/bash-completion/completions/dpledger"
test -s "$T/root/usr/share/dpledger/data/breast_cancer.csv"
if ls "$BUILD"/python/dpledger/_dpledger*.so >/dev/null 2>&1; then
  PY=$(sed -n 's/^DPLEDGER_PYTHON_EXECUTABLE:INTERNAL=//p' "$BUILD/CMakeCache.txt")
  pydeb=$(ls "$T"/pkg/python3-dpledger_*.deb)
  dpkg-deb --field "$pydeb" Package Version Architecture Depends Section
  pydeps=$(dpkg-deb --field "$pydeb" Depends)
  for dep in python3-numpy "python3 (>=" libmpfr; do echo "$pydeps" | grep -qF "$dep"; done
  dpkg -x "$pydeb" "$T/pyroot"
  test -s "$T/pyroot/usr/lib/python3/dist-packages/dpledger/__init__.py"
  grep -q "^License: Apache-2.0" "$T/pyroot/usr/share/doc/python3-dpledger/copyright"
  grep -q "^License: Apache-2.0" "$T"/pyroot/usr/lib/python3/dist-packages/dpledger-*.dist-info/METADATA
  if test -e "$T/root/usr/lib/python3"; then echo "the Python package is in the dpledger .deb too"; exit 1; fi
  cli=$("$T/root/usr/bin/dpledger" compose -m gaussian:sigma=1.1,q=0.01,steps=10000 --delta 1e-5)
  py=$(cd "$T" && PYTHONPATH="$T/pyroot/usr/lib/python3/dist-packages" "$PY" -c "import dpledger; print(dpledger.compose(['gaussian:sigma=1.1,q=0.01,steps=10000'], delta=1e-5))")
  [ "$py" = "$cli" ] || { echo "python3-dpledger printed '$py', the CLI '$cli'"; exit 1; }
  echo "python3-dpledger unpacks, imports and prints the CLI's value"
fi
echo "the .deb unpacks and runs"
