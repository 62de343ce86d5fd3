#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The product speaks of what it does, never of how it was made: no tracker numbers ("issue 18"), work stops or
sessions, dates of work (outside the dated measurements of docs/performance.md and bench/), and no path into the
developers' workspace (/work/shared, ../shared). Searched: README.md, docs/, the sources and their comments, the
tests, bench/, scripts/, the CMake files, and the text the executable prints for --help and every COMMAND --help.

Usage: product_words.py SOURCE_DIR [DPLEDGER]      exit 1 naming every hit.
A self-test (--self-test) shows that each pattern catches the phrases it is meant to catch.
"""

import os
import re
import subprocess
import sys

PATTERNS = [
    ("tracker number", re.compile(r"\bissues? ?#?\d+", re.I)),
    ("work stop", re.compile(r"\b(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|\d+(st|nd|rd|th))"
                             r" stop\b|\bstops? of \d{4}|\bstop \d", re.I)),
    ("work session", re.compile(r"\b(work|development|this|that|previous|next) session\b", re.I)),
    ("workspace path", re.compile(r"/work/shared|\.\./shared\b")),
]
DATE = ("date of work", re.compile(r"\b20\d\d-\d\d-\d\d\b"))
# Dated measurements are results, not history: allowed where measurements are reported.
DATES_ALLOWED = ("docs/performance.md", "bench/")
SEARCHED = ["README.md", "CMakeLists.txt", "docs", "cli", "accounting", "algorithms", "audit", "proofs-check",
            "plotting", "python", "tests", "bench", "scripts", "cmake", "examples", "data"]
SUFFIXES = (".md", ".txt", ".cpp", ".h", ".hpp", ".py", ".sh", ".cmake", ".in", ".svg", "")
SKIP = {"tests/docs/product_words.py"}  # this file names the patterns


def hits_in(text, where, dates_ok):
    found = []
    for number, line in enumerate(text.split("\n"), 1):
        for name, pattern in PATTERNS + ([] if dates_ok else [DATE]):
            m = pattern.search(line)
            if m:
                found.append(f"{where}:{number}: {name}: {m.group(0)!r} in {line.strip()[:160]}")
    return found


def files(source):
    for top in SEARCHED:
        path = os.path.join(source, top)
        if os.path.isfile(path):
            yield top
            continue
        for folder, dirs, names in os.walk(path):
            dirs[:] = [d for d in dirs if d not in ("__pycache__", ".pytest_cache")]
            for n in names:
                rel = os.path.relpath(os.path.join(folder, n), source)
                if rel not in SKIP and (n.endswith(SUFFIXES) and ("." in n or n in ("setup", "test", "run"))):
                    yield rel


def self_test():
    caught = ["see issue 18", "Issue #4: values", "since the fifth stop of the day", "(stop 3)", "the stops of 2026",
              "in this session we", "../shared/reference/README.md", "measured 2026-11-26"]
    kept = ["the search stopped at its limit", "stops at exactly the point", "non-stop", "a session key",
            "Issue a warning", "dpledger run --seed 7"]
    bad = [c for c in caught if not hits_in(c, "self-test", False)] + [k for k in kept if hits_in(k, "self-test", False)]
    for b in bad:
        print("self-test: pattern misjudges", repr(b))
    return 1 if bad else 0


def main():
    if "--self-test" in sys.argv:
        return self_test()
    source = os.path.abspath(sys.argv[1])
    found = []
    for rel in files(source):
        try:
            text = open(os.path.join(source, rel), encoding="utf-8").read()
        except (UnicodeDecodeError, IsADirectoryError):
            continue
        found += hits_in(text, rel, rel.startswith(DATES_ALLOWED))
    if len(sys.argv) > 2:
        binary = sys.argv[2]
        commands = [[]] + [[c] for c in ("compose", "calibrate", "rdp", "gamma", "run", "sweep", "audit", "check",
                                         "consensus")]
        for c in commands:
            p = subprocess.run([binary] + c + ["--help"], capture_output=True, text=True)
            found += hits_in(p.stdout, "dpledger " + " ".join(c + ["--help"]), False)
    for f in found:
        print(f)
    print(f"{len(found)} mentions of how the product was made")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(self_test() or main())
