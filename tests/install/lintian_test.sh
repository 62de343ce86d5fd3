#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The Debian packages cpack makes (dpledger, libdpledger-dev and, with the Python module built, python3-dpledger)
# pass Debian's lintian without errors or warnings. Usage: lintian_test.sh BUILD_DIR
set -eu
BUILD=$1
command -v lintian >/dev/null || { echo "lintian is not installed (scripts/setup installs it)"; exit 1; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
(cd "$BUILD" && cpack -G DEB -B "$T/pkg" >"$T/cpack.log") || { cat "$T/cpack.log"; exit 1; }
expected=2
if ls "$BUILD"/python/dpledger/_dpledger*.so >/dev/null 2>&1; then expected=3; fi
count=$(ls "$T"/pkg/*.deb | wc -l)
[ "$count" -eq "$expected" ] || { echo "cpack made $count packages, expected $expected:"; ls "$T"/pkg; exit 1; }
status=0
for deb in "$T"/pkg/*.deb; do
  # errors and warnings fail the test; informational tags are listed (lintian's exit code is 0 for them)
  # The maintainer's address is the packager's to give (-DDPLEDGER_DEB_MAINTAINER, or DEBFULLNAME/DEBEMAIL); the
  # default one on localhost is the only thing lintian may refuse, and only while that default is in the package.
  suppress=""
  case "$(dpkg-deb -f "$deb" Maintainer)" in
    *@localhost\>) suppress="--suppress-tags bogus-mail-host,bogus-mail-host-in-debian-changelog"
                   echo "note: $(basename "$deb") has the default maintainer address; set -DDPLEDGER_DEB_MAINTAINER to publish it" ;;
  esac
  # shellcheck disable=SC2086
  if ! lintian --fail-on error,warning --no-tag-display-limit $suppress "$deb" > "$T/lintian.out" 2>&1; then
    echo "lintian on $(basename "$deb"):"; cat "$T/lintian.out"; status=1
  else
    echo "lintian: $(basename "$deb") clean"; cat "$T/lintian.out"
  fi
done
exit $status
