#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The same digits on another make of CPU: runs commands natively and under QEMU's user-mode emulation of an Intel
Xeon (qemu-x86_64 -cpu MODEL), and requires byte-identical stdout and the same exit code.

Under emulation the program sees the model's CPUID (vendor GenuineIntel, its family and features), so glibc and
dpledger choose their code paths as on that CPU (Cascadelake-Server: AVX2 and FMA, its AVX-512 not emulated;
Westmere: SSE only, so the PLD's scalar lanes and glibc's SSE2 functions), and every floating-point instruction is
carried out by QEMU's software IEEE arithmetic instead of this machine's units (x87 included). A guest
LD_PRELOAD (DPLEDGER_EMULATION_CLOCK, built from emulated_cpu_clock.c) divides the process's CPU clock by the
emulation's slowdown, so that --time-limit and the work forecasts behave as on a native machine; nothing else
changes.

Power: two twin programs are run the same way, one printing a hash of glibc's double exp, log, pow, sin and atan
(whose FMA/AVX2 or SSE2 variant the CPU's features select), the other of its long-double expl, logl, sinl and atanl
through NumPy (all 64 bits of each result; glibc computes them with the x87 instructions f2xm1, fyl2x, fsin and
fpatan, whose last bits differ between makes of CPU, and which QEMU computes in software). On at least one model
a twin must print other digits than natively, or the emulation reached neither another code path nor another
arithmetic and the check could not fail (reported, exit 1); on an AMD EPYC the long-double twin differs under both
models and the double one under Westmere.

Usage: emulated_cpu_digits.py DPLEDGER CLOCK_SHIM MODEL [MODEL ...]
"""

import os
import shutil
import subprocess
import sys

COMMANDS = [
    # the README's budget (PLD: AVX2 or scalar lanes, FFT, long double), a pure and an RDP composition
    "compose -m gaussian:sigma=1.1,q=0.01,steps=10000 --delta 1e-5",
    "compose -m laplace:b=10,steps=50 --epsilon 2",
    "compose -m gaussian:sigma=1.1,q=0.05,steps=300 --delta 1e-6 --accountant pld --json",
    "compose -m gaussian:sigma=1.1,q=0.01,steps=10000 --delta 1e-5 --accountant rdp",
    # a mechanism audit, an algorithm's run and an audit that drives the algorithm's code, a proofs-check
    "audit gaussian:sigma=1 --runs 200000 --seed 1",
    "run dsgd-random-aggregation --seed 1",
    "audit dp-sgd --runs 200 --seed 1",
    "check 004/cor-1",
]
TWINS = {
    "glibc double": ("import hashlib, math, struct\n"
                     "h = hashlib.sha256()\n"
                     "for i in range(1, 30000):\n"
                     "    x = i / 97.0\n"
                     "    h.update(struct.pack('<5d', math.exp(x / 40), math.log(x), math.pow(x, 1.37), math.sin(x),"
                     " math.atan(x)))\n"
                     "print(h.hexdigest())"),
    "x87 long double": ("import hashlib\n"
                        "import numpy as np\n"
                        "x = np.arange(1, 20000, dtype=np.longdouble) / np.longdouble(997)\n"
                        "h = hashlib.sha256()\n"
                        "for f in (np.exp, np.log, np.sin, np.arctan):\n"
                        "    h.update(f(x).view(np.uint8).reshape(-1, 16)[:, :10].tobytes())\n"
                        "print(h.hexdigest())"),
}


def run(argv):
    env = dict(os.environ)
    env.pop("GLIBC_TUNABLES", None)
    p = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=900)
    return p.returncode, p.stdout, p.stderr


def emulated(qemu, model, shim, argv):
    return [qemu, "-cpu", model, "-E", "LD_PRELOAD=" + shim] + argv


def main():
    if len(sys.argv) < 4:
        print(__doc__)
        return 2
    binary, shim, models = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2]), sys.argv[3:]
    qemu = shutil.which("qemu-x86_64")
    if qemu is None:
        print("qemu-x86_64 not found: install Debian's qemu-user (scripts/setup does)")
        return 1
    failures = 0
    blind = []
    native_twins = {name: run([sys.executable, "-c", code]) for name, code in TWINS.items()}
    for model in models:
        code, out, err = run(emulated(qemu, model, shim, [binary, "--version"]))
        if code != 0:
            print(f"{model}: the binary does not start under emulation: {err.strip()}")
            return 1
        differing = []
        for name, program in TWINS.items():
            twin = run(emulated(qemu, model, shim, [sys.executable, "-c", program]))
            if twin[0] != 0 or native_twins[name][0] != 0:
                print(f"{model}: the {name} twin does not run: {twin[2].strip()} {native_twins[name][2].strip()}")
                return 1
            if twin[1] != native_twins[name][1]:
                differing.append(name)
        print(f"{model}: twins with other digits than natively: {', '.join(differing) if differing else 'none'}")
        if not differing:
            blind.append(model)
    for command in COMMANDS:
        argv = [binary] + command.split()
        native = run(argv)
        for model in models:
            got = run(emulated(qemu, model, shim, argv))
            same = got[0] == native[0] and got[1] == native[1]
            print(f"{'same' if same else 'DIFFERENT'}  {model}: dpledger {command}")
            if not same:
                failures += 1
                print(f"  native (exit {native[0]}):\n{native[1]}  {model} (exit {got[0]}):\n{got[1]}{got[2]}")
    if len(blind) == len(models):
        print("no twin printed other digits under any model: the emulation reached neither another code path nor "
              "another arithmetic, so this check could not fail")
        return 1
    print(f"{len(COMMANDS)} commands on {len(models)} emulated CPU models: "
          f"{'all the same digits' if failures == 0 else str(failures) + ' different'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
