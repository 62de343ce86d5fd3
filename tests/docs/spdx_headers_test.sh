#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Every C++, Python, shell and CMake source names its licence (Apache-2.0) in an SPDX header: `scripts/spdx_headers
# --check` lists the sources without it. First the checker's power on a scratch tree: a file without the header
# (a C++ source and a script with a shebang) is listed and fails the check; scripts/spdx_headers adds the header
# (after the shebang), a second run changes nothing, and the check passes.
# Usage: spdx_headers_test.sh SOURCE_DIR
set -eu
SRC=$1
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/tree/accounting" "$T/tree/scripts"
printf '#pragma once\nint f();\n' > "$T/tree/accounting/f.h"
printf '#!/bin/sh\necho hi\n' > "$T/tree/scripts/hello"
printf 'project(x)\n' > "$T/tree/CMakeLists.txt"
if "$SRC/scripts/spdx_headers" --check "$T/tree" > "$T/list" 2>/dev/null; then
  echo "the check passed on sources without the header"; exit 1
fi
[ "$(wc -l < "$T/list")" -eq 3 ] || { echo "expected 3 files listed:"; cat "$T/list"; exit 1; }
"$SRC/scripts/spdx_headers" "$T/tree" > /dev/null
[ "$(sed -n 1p "$T/tree/accounting/f.h")" = "// SPDX-License-Identifier: Apache-2.0" ]
[ "$(sed -n 1p "$T/tree/scripts/hello")" = "#!/bin/sh" ]
[ "$(sed -n 2p "$T/tree/scripts/hello")" = "# SPDX-License-Identifier: Apache-2.0" ]
cp -r "$T/tree" "$T/once"
"$SRC/scripts/spdx_headers" "$T/tree" > /dev/null
diff -r "$T/once" "$T/tree"
"$SRC/scripts/spdx_headers" --check "$T/tree"
# The sources themselves.
"$SRC/scripts/spdx_headers" --check "$SRC"
echo "every source carries the SPDX header"
