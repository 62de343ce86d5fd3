#!/bin/sh
# Builds the Debian package with `cpack -G DEB`, unpacks it into a scratch root with `dpkg -x`, and runs the
# unpacked binary. Usage: debian_package_test.sh BUILD_DIR
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
# The executable links GMP, MPFR, MPFI and FFTW statically by default (DPLEDGER_STATIC_CLI); a shared one must be
# named in Depends by dpkg-shlibdeps.
for lib in libmpfr libgmp libmpfi libfftw3; do
  if objdump -p "$T/root/usr/bin/dpledger" | grep -q "NEEDED *$lib"; then echo "$deps" | grep -q "$lib"; fi
done
"$T/root/usr/bin/dpledger" --version
"$T/root/usr/bin/dpledger" compose -m gaussian:sigma=1.1,q=0.01,steps=10000 --delta 1e-5 --accountant rdp
test -s "$T/root/usr/share/man/man1/dpledger.1"
test -s "$T/root/usr/share/bash-completion/completions/dpledger"
test -s "$T/root/usr/share/dpledger/data/breast_cancer.csv"
test -s "$T/root/usr/include/dpledger/accounting/composition/compose.h"
echo "the .deb unpacks and runs"
