#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Every image of the documentation carries the provenance docs/provenance.md promises for SVG files: a <metadata>
# element, the first child of <svg>, naming the dpledger that drew it and its arguments (scripts/docs_images
# regenerates them all); and every image a page shows exists.
# Usage: docs_images_test.sh SOURCE_DIR
set -eu
SRC=$1
n=0
for f in "$SRC"/docs/images/*.svg "$SRC"/docs/*.svg; do
  [ -e "$f" ] || continue
  n=$((n + 1))
  second=$(sed -n 2p "$f")
  case "$second" in
    "<metadata>dpledger "*": dpledger "*"</metadata>"*) ;;
    *) echo "$f: no dpledger provenance <metadata> after <svg> (run scripts/docs_images): $second"; exit 1 ;;
  esac
done
[ "$n" -ge 16 ] || { echo "only $n docs images"; exit 1; }
# The images the pages show exist (no link to a renamed or removed image).
grep -o '([a-z/]*images/[A-Za-z0-9_.-]*\.svg)\|(run_plot_[a-z_]*\.svg)\|(docs/run_plot_[a-z_]*\.svg)' \
  "$SRC"/README.md "$SRC"/docs/*.md | while IFS=: read -r page link; do
  target=$(echo "$link" | tr -d '()')
  [ -e "$(dirname "$page")/$target" ] || { echo "$page shows $target, which does not exist"; exit 1; }
done
echo "$n docs images, each with its provenance"
