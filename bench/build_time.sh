#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Times the README's first build from scratch: configure and `cmake --build -j2 --target dpledger` in a new build
# folder with ccache disabled (a cold first build), then, with ccache on, the same build twice more in new folders
# (the first fills a private, empty cache, the second shows its hits; ccache's base_dir is the source folder, so
# the unity batches, which live in the build folder, hash alike in both). Prints Markdown: date, machine, load, and for each build
# the wall and CPU seconds (user + sys of every compiler and linker process).
# Usage: bench/build_time.sh [source dir] [jobs] > build_time.md    (leaves nothing behind but its output)
set -eu
SRC=$(cd "${1:-.}" && pwd)
JOBS=${2:-2}
TIME=/usr/bin/time
[ -x "$TIME" ] || { echo "bench/build_time.sh needs GNU time at /usr/bin/time" >&2; exit 2; }
WORK=$(mktemp -d "$SRC/build-time.XXXXXX")  # inside the source folder, under ccache's base_dir
trap 'rm -rf "$WORK"' EXIT

# build <label> <ccache on|off>: configure + build in a new folder; one table row
build() {
  dir="$WORK/build-$1"
  load=$(cut -d ' ' -f 1 /proc/loadavg)
  if [ "$2" = off ]; then export CCACHE_DISABLE=1; else unset CCACHE_DISABLE; ccache --zero-stats >/dev/null; fi
  "$TIME" -f '%e %U %S' -o "$WORK/t.conf" cmake -S "$SRC" -B "$dir" >"$WORK/log" 2>&1
  "$TIME" -f '%e %U %S' -o "$WORK/t.build" cmake --build "$dir" -j "$JOBS" --target dpledger >>"$WORK/log" 2>&1 ||
    { cat "$WORK/log" >&2; exit 1; }
  read -r cw cu cs <"$WORK/t.conf"
  read -r bw bu bs <"$WORK/t.build"
  hits=-
  if [ "$2" = on ] && command -v ccache >/dev/null; then
    hits=$(ccache --print-stats 2>/dev/null | awk -F'\t' '$1 == "direct_cache_hit" || $1 == "preprocessed_cache_hit" { h += $2 }
           $1 == "cache_miss" { m += $2 } END { print h + 0 "/" h + m }')
  fi
  awk -v l="$1" -v cw="$cw" -v cc="$cu" -v cs="$cs" -v bw="$bw" -v bu="$bu" -v bs="$bs" -v ld="$load" -v h="$hits" \
    'BEGIN { printf "| %s | %.0f | %.0f | %.0f | %s | %s |\n", l, cw + bw, cc + cs + bu + bs, bu + bs, ld, h }'
  rm -rf "$dir"
}

echo "Measured $(date -u '+%Y-%m-%d %H:%M UTC') by \`bench/build_time.sh\` with -j$JOBS on $(nproc) cores"
echo "($(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)), $(g++ --version | head -n 1),"
echo "commit $(git -C "$SRC" describe --always --dirty --abbrev=12 2>/dev/null || echo unknown)."
echo
echo "| build of \`dpledger\` in a new folder | wall s (configure + build) | CPU s (configure + build) | CPU s (build) | load average at start | ccache hits |"
echo "|---|---|---|---|---|---|"
build cold off
if command -v ccache >/dev/null; then
  export CCACHE_DIR="$WORK/ccache"  # a cache of its own: empty at first, and no other build's hits in its counts
  export CCACHE_BASEDIR="$SRC"
  build "ccache, first" on
  build "ccache, second" on
fi
