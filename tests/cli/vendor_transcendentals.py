#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""No CPU-dependent transcendental in the product. The x87 instructions f2xm1, fyl2x, fyl2xp1, fsin, fcos, fsincos,
fptan and fpatan return last bits that differ between CPU vendors (Intel and AMD microcode), and glibc's long-double
functions (expl, logl, powl, sinl, erfl, lgammal, ...) are built on them, as is Boost.Math wherever it promotes
double to long double. glibc's double and float functions (exp, log, pow, log1p, expm1, sin, ...) are selected at
run time by the CPU's features (an FMA/AVX2 or an SSE2 variant, whose last bits differ), or call such a function
inside (erfc, lgamma, tanh, log10). So no binary that prints dpledger's numbers (the command, the Python module) may
contain such an instruction or import any of these functions in any precision: the product's elementary functions
are dpl::portable's (accounting/numeric/portable_math.h), and the digits depend only on IEEE basic operations, the
same on every x86-64 CPU. The libm functions left (sqrt, fma, floor, ceil, nearbyint, ldexp, frexp, nextafter, ...)
return exact or correctly rounded results, the same on every CPU by IEEE 754.

Power: twin objects compiled here from a few lines, one calling std::exp and std::sin on long double, one calling
std::exp on double, one with the instruction written out, must each be flagged by the same scan; otherwise the scan
could not fail (exit 1).

Usage: vendor_transcendentals.py CXX BINARY...
"""

import os
import re
import subprocess
import sys
import tempfile

X87_TRANSCENDENTALS = {"f2xm1", "fyl2x", "fyl2xp1", "fsin", "fcos", "fsincos", "fptan", "fpatan"}
TRANSCENDENTAL_FUNCTIONS = re.compile(
    r"^(?:__)?(exp|exp2|exp10|expm1|log|log2|log10|log1p|pow|sin|cos|tan|sincos|asin|acos|atan|atan2|sinh|cosh|tanh|"
    r"asinh|acosh|atanh|erf|erfc|lgamma|lgamma_r|tgamma|cbrt|hypot|j0|j1|jn|y0|y1|yn)[lf]?(?:_finite)?$")

TWIN_CALLS = """#include <cmath>
long double twin(long double x) { return std::exp(x) + std::sin(x); }
"""
TWIN_DOUBLE_CALLS = """#include <cmath>
double twin(double x) { return std::exp(x); }
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
        if TRANSCENDENTAL_FUNCTIONS.match(name):
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
    for name, source in (("long-double calls", TWIN_CALLS), ("double call", TWIN_DOUBLE_CALLS),
                         ("instruction", TWIN_INSTRUCTION)):
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
            print(f"ok    {path}: no x87 transcendental instruction, no libm transcendental")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
