#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""No vendor-dependent transcendental in the product: the x87 instructions f2xm1, fyl2x, fyl2xp1, fsin, fcos, fsincos,
fptan and fpatan return last bits that differ between CPU vendors (Intel and AMD microcode), and glibc's long-double
functions (expl, logl, powl, sinl, erfl, lgammal, ...) are built on them, as is Boost.Math wherever it promotes
double to long double. So no binary that prints dpledger's numbers (the command, the Python module) may contain such
an instruction or import such a function; the digits then depend only on IEEE basic operations (the same on every
x86-64 CPU) and on glibc's double functions, whose CPU-selected variants cli.cpu_paths_digits forces one by one.

Power: a twin object compiled here from a few lines that call std::exp and std::sin on long double (and one with
the instruction written out) must be flagged by the same scan; otherwise the scan could not fail (exit 1).

Usage: vendor_transcendentals.py CXX BINARY...
"""

import os
import re
import subprocess
import sys
import tempfile

X87_TRANSCENDENTALS = {"f2xm1", "fyl2x", "fyl2xp1", "fsin", "fcos", "fsincos", "fptan", "fpatan"}
LONG_DOUBLE_FUNCTIONS = re.compile(
    r"^(?:__)?(exp|exp2|exp10|expm1|log|log2|log10|log1p|pow|sin|cos|tan|sincos|asin|acos|atan|atan2|sinh|cosh|tanh|"
    r"asinh|acosh|atanh|erf|erfc|lgamma|lgamma_r|tgamma|cbrt|hypot|j0|j1|jn|y0|y1|yn)l(?:_finite)?$")

TWIN_CALLS = """#include <cmath>
long double twin(long double x) { return std::exp(x) + std::sin(x); }
"""
TWIN_INSTRUCTION = """long double twin(long double x) { long double r; __asm__("f2xm1" : "=t"(r) : "0"(x)); return r; }
"""


def imported_functions(path):
    dynamic = not path.endswith(".o")  # an executable or shared object: its dynamic imports; an object: its undefined
    out = subprocess.run(["nm"] + (["-D"] if dynamic else []) + ["--undefined-only", path], capture_output=True,
                         text=True, check=True)
    names = set()
    for line in out.stdout.splitlines():
        name = line.split()[-1].split("@")[0]
        if LONG_DOUBLE_FUNCTIONS.match(name):
            names.add(name)
    return names


def instructions(path):
    out = subprocess.run(["objdump", "-d", "--no-show-raw-insn", path], capture_output=True, text=True, check=True)
    found = set()
    for line in out.stdout.splitlines():
        parts = line.split("\t")
        if len(parts) >= 2:
            mnemonic = parts[1].split()[0] if parts[1].split() else ""
            if mnemonic in X87_TRANSCENDENTALS:
                found.add(mnemonic)
    return found


def findings(path):
    return sorted(imported_functions(path)) + sorted(instructions(path))


def twin_findings(cxx, source):
    with tempfile.TemporaryDirectory() as d:
        src, obj = os.path.join(d, "twin.cpp"), os.path.join(d, "twin.o")
        with open(src, "w") as f:
            f.write(source)
        subprocess.run([cxx, "-O2", "-c", src, "-o", obj], check=True)
        return findings(obj)


def main():
    cxx, binaries = sys.argv[1], sys.argv[2:]
    for name, source in (("calls", TWIN_CALLS), ("instruction", TWIN_INSTRUCTION)):
        got = twin_findings(cxx, source)
        if not got:
            print(f"FAIL the twin ({name}) is not flagged: the scan could not fail")
            return 1
        print(f"ok    twin ({name}) flagged: {', '.join(got)}")
    failures = 0
    for path in binaries:
        got = findings(path)
        if got:
            failures += 1
            print(f"FAIL  {path}: {', '.join(got)}")
        else:
            print(f"ok    {path}: no x87 transcendental instruction, no long-double libm function")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
