#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The same digits on every code path: runs PLD commands (and an audit and a proofs-check) under every glibc libm variant mask (the FMA/AVX2 and the
plain SSE2 versions of exp, log, pow, ...), with the PLD's helper thread off and on, and with its AVX2 lanes off and
on, and requires byte-identical stdout.

Power: the same comparison, applied to a twin program whose printed digits come from glibc's double exp, log, pow,
sin and atan (a hash of their bits over 300,000 arguments), must see a difference between the masks; otherwise the masks
did not reach another code path on this machine and the check could not fail (reported, exit 1).

Usage: cpu_paths_digits.py DPLEDGER
"""

import os
import subprocess
import sys

COMMANDS = [
    "compose -m gaussian:sigma=1.1,q=0.01,steps=10000 --delta 1e-5",
    "compose -m laplace:b=10,steps=50 --epsilon 2",
    "compose -m gaussian:sigma=1.1,q=0.05,steps=300 --delta 1e-6 --accountant pld --json",
    "compose -m gaussian:sigma=1.1,q=0.01,steps=100 --delta 1e-30 --accountant pld",
    "compose -m gaussian:sigma=1.0,steps=100 --delta 1e-20 --accountant pld",
    "calibrate -m gaussian:sigma=?,q=0.01,steps=1000 --epsilon 2 --delta 1e-5 --accountant pld",
    # the audits' Clopper-Pearson and normal quantiles, and the proofs-check's Student t interval
    "audit gaussian:sigma=1 --runs 200000 --seed 1",
    "check 004/cor-1",
]
# glibc 2.36 names (sysdeps/x86/cpu-tunables.c): masking FMA and AVX2 selects the AVX or SSE2 versions of libm's
# exp/log/pow/sin/..., masking AVX too the SSE2 ones.
MASKS = ["", "glibc.cpu.hwcaps=-AVX2,-FMA", "glibc.cpu.hwcaps=-AVX512F,-AVX2,-FMA,-FMA4,-AVX"]
PATHS = [{}, {"DPLEDGER_PLD_ONE_THREAD": "1"}, {"DPLEDGER_PLD_SCALAR": "1"},
         {"DPLEDGER_PLD_ONE_THREAD": "1", "DPLEDGER_PLD_SCALAR": "1"}]
TWIN = ("import hashlib, math, struct\n"
        "h = hashlib.sha256()\n"
        "for i in range(1, 300000):\n"
        "    x = i / 997.0\n"
        "    h.update(struct.pack('<5d', math.exp(x / 40), math.log(x), math.pow(x, 1.37), math.sin(x), math.atan(x)))\n"
        "print(h.hexdigest())")


def run(argv, mask, path):
    env = dict(os.environ)
    env.pop("GLIBC_TUNABLES", None)
    if mask:
        env["GLIBC_TUNABLES"] = mask
    env.update(path)
    p = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=300)
    return p.returncode, p.stdout


def variants():
    for mask in MASKS:
        for path in PATHS:
            yield mask, path


def main():
    binary = sys.argv[1]
    failures = 0
    twin = {run([sys.executable, "-c", TWIN], mask, {})[1] for mask in MASKS}
    if len(twin) < 2:
        print("FAIL the twin (a hash of glibc's exp, log, pow, sin and atan) prints the same under every mask: the masks "
              "do not select other libm code on this machine, so this check has no power here")
        failures += 1
    else:
        print(f"ok   the twin prints {len(twin)} different values under the {len(MASKS)} masks (the check can fail)")
    for command in COMMANDS:
        argv = [binary] + command.split()
        reference = None
        for mask, path in variants():
            code, out = run(argv, mask, path)
            label = f"[{mask or 'no mask'}; {' '.join(f'{k}={v}' for k, v in path.items()) or 'default paths'}]"
            if code != 0:
                print(f"FAIL {command} {label}: exit {code}")
                failures += 1
            elif reference is None:
                reference = out
            elif out != reference:
                print(f"FAIL {command} {label} prints\n{out}instead of\n{reference}")
                failures += 1
        print(f"ok   {command}" if reference is not None else f"FAIL {command}: no reference run")
    print(f"{len(COMMANDS)} commands x {len(MASKS) * len(PATHS)} paths, {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
