#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# An algorithm audit sharded four ways and run through GNU parallel, as docs/audit.md shows, then `audit merge`:
# the merged report equals the unsharded audit of the same seed in every field (verdict, counts, bounds, curve,
# the noise check), for a correct run and for a run with a fault injected (whose verdict is a violation, exit 3).
# Usage: algorithm_shards_parallel_test.sh DPLEDGER
set -euo pipefail
dpl=$1
command -v parallel >/dev/null || { echo "GNU parallel is not installed (scripts/setup installs it)"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
compare() {  # the merged and the unsharded JSON reports agree except in how they were made
  /usr/bin/python3 - "$1" "$2" <<'PY'
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
made = {"arguments", "threads", "merged", "shards_version"}
diff = [k for k in set(a) | set(b) if k not in made and a.get(k) != b.get(k)]
if diff:
    print("merged differs from unsharded in:", diff)
    sys.exit(1)
print("merged == unsharded:", a["verdict"], a["distinguishing"]["count_p"], a["distinguishing"]["count_q"])
PY
}
for case in "correct:" "clip:--inject clip=4"; do
  name=${case%%:*}
  extra=${case#*:}
  # shellcheck disable=SC2086
  set +e; "$dpl" --json audit admm-centralized --runs 200 --seed 7 --threads 2 $extra > "$name-full.json"; full=$?; set -e
  # shellcheck disable=SC2086
  parallel --halt now,fail=1 "$dpl" -q audit admm-centralized --runs 200 --seed 7 --threads 1 $extra \
    --shard {}/4 --out "$name-{}.json" ::: 1 2 3 4
  set +e; "$dpl" --json audit merge "$name"-1.json "$name"-2.json "$name"-3.json "$name"-4.json > "$name-merged.json"; merged=$?; set -e
  echo "$name: exit codes unsharded $full, merged $merged"
  [ "$full" = "$merged" ] || { echo "exit codes differ"; exit 1; }
  compare "$name-full.json" "$name-merged.json"
done
# The fault's audit is a violation (so the equality above covered both verdicts).
[ "$(/usr/bin/python3 -c 'import json; print(json.load(open("clip-merged.json"))["verdict"])')" = violation ]
[ "$(/usr/bin/python3 -c 'import json; print(json.load(open("correct-merged.json"))["verdict"])')" = pass ]
# A shard missing, repeated, or of another audit is refused (exit 2) with one line naming the file.
set +e
"$dpl" audit merge correct-1.json correct-2.json correct-3.json 2> err1; r1=$?
"$dpl" audit merge correct-1.json correct-1.json correct-3.json correct-4.json 2> err2; r2=$?
"$dpl" audit merge correct-1.json clip-2.json correct-3.json correct-4.json 2> err3; r3=$?
set -e
cat err1 err2 err3
[ "$r1" = 2 ] && [ "$r2" = 2 ] && [ "$r3" = 2 ]
grep -q "3 files given for 4 shards" err1
grep -q "repeats shard 1" err2
grep -q "differs from correct-1.json in --inject" err3
echo ok
