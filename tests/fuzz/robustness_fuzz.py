#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A seeded break-it fuzz of every dpledger command and of the Python API.

Each case is one command line (or one Python call); the contract every case must keep:
  - the CLI exits 0, 2, 3 or 4 (1 is an internal error, a signal is a crash) within its CPU-time limit;
  - exit 2 prints exactly one `error:` line on stderr (at most ~400 characters) and nothing on stdout;
  - exit 0 prints something on stdout, and with stdout on /dev/full (every fifth case) the command fails with
    exit 2 naming the standard output instead of exiting 0 (a "silent success");
  - a Python call returns or raises ValueError (NotApplicableError included), or TypeError for an argument of the
    wrong type with dpledger's own message (not the binding's "incompatible function arguments"), never another
    exception.

Usage: robustness_fuzz.py --bin build/bin/dpledger [--python build/python] --cases N --seed S [--cli-only]
Prints the counts (cases, crashes, exit-1, silent successes, other contract breaks) and exits 1 if any case broke
the contract.
"""

import argparse
import os
import random
import resource
import subprocess
import sys

MAGNITUDES = ["1e-308", "1e-300", "1e-12", "1e-6", "0.001", "0.1", "0.5", "1", "1.1", "2.5", "40", "1000", "1e10",
              "1e100", "1e300", "1e308", "0", "-1", "nan", "inf", "9223372036854775807", "18446744073709551616",
              "1e-320", "0x10", "1/3", ""]
PROBABILITIES = ["0", "1e-308", "1e-300", "1e-12", "1e-5", "0.01", "0.5", "0.999999", "1", "1.0000001", "-0.1"]
INTEGERS = ["1", "2", "10", "1000", "1e6", "1e9", "1e15", "1e18", "9223372036854775807", "99999999999999999999",
            "0", "-3", "1.5"]

# Every mechanism key with the kind of value it takes (docs/mechanisms.md).
MECHANISMS = {
    "gaussian": ["sigma", "sens"], "laplace": ["b", "sens"], "rr": ["eps"], "pure": ["eps"],
    "approx": ["eps", "delta"], "iteration": ["sigma", "sens", "contraction"],
    "permute_and_flip": ["eps"], "discrete_gaussian": ["sigma", "sens", "dim"], "discrete_laplace": ["a", "sens"],
    "zcdp": ["rho", "xi"], "tree": ["sigma", "leaves"], "truncated_gaussian": ["sigma", "q", "batch", "n"],
    "wr_gaussian": ["sigma", "batch", "n"], "shuffle": ["eps", "n"], "exponential": ["eps"],
    "mixture": ["sigma"], "select": ["mean", "shape"],
}
INTEGER_KEYS = {"dim", "leaves", "batch", "n", "steps", "index", "iterations"}


def value(rng, key):
    if key in INTEGER_KEYS:
        return rng.choice(INTEGERS)
    if key in ("delta", "q", "contraction", "p"):
        return rng.choice(PROBABILITIES)
    return rng.choice(MAGNITUDES)


def mechanism(rng):
    name = rng.choice(list(MECHANISMS))
    keys = [k for k in MECHANISMS[name] if rng.random() < 0.9]
    parts = [f"{k}={value(rng, k)}" for k in keys]
    if rng.random() < 0.4:
        parts.append(f"steps={rng.choice(INTEGERS)}")
    if rng.random() < 0.25:
        parts.append(f"q={rng.choice(PROBABILITIES)}")
        if rng.random() < 0.4:
            parts.append("sampling=" + rng.choice(["poisson", "wor", "poisson_replace_one"]))
    return name + (":" + ",".join(parts) if parts else "")


def ledger(rng):
    return " ".join(f"-m {mechanism(rng)}" for _ in range(rng.randint(1, 3)))


def command(rng):
    c = rng.randrange(14)
    if c < 4:
        s = f"compose {ledger(rng)} " + (f"--delta {rng.choice(PROBABILITIES)}" if rng.random() < 0.6
                                         else f"--epsilon {rng.choice(MAGNITUDES)}")
        if rng.random() < 0.3:
            s += " --accountant " + rng.choice(["auto", "pld", "rdp", "optimal", "advanced", "basic", "pure"])
        if rng.random() < 0.15:
            s += " --running" + (f" --every {rng.choice(INTEGERS)}" if rng.random() < 0.5 else "")
        elif rng.random() < 0.05:
            s += f" --every {rng.choice(INTEGERS)}"
    elif c < 6:
        s = f"rdp {ledger(rng)}" + (f" --orders {rng.choice(['2', '1.5,2,inf', '1e7', '1', '0.5', ','])}"
                                    if rng.random() < 0.5 else "")
    elif c < 7:
        unknown = rng.choice(["gaussian:sigma=?", "laplace:b=?", "pure:eps=?,steps=100", "gaussian:sigma=1,steps=?",
                              "permute_and_flip:eps=?"])
        s = f"calibrate -m {unknown} --epsilon {rng.choice(MAGNITUDES)} --delta {rng.choice(PROBABILITIES)}"
    elif c < 8:
        s = rng.choice([f"audit laplace:b={rng.choice(MAGNITUDES)} --runs {rng.choice(['2', '100', '1e4', '0'])}",
                        f"audit gaussian:sigma={rng.choice(MAGNITUDES)} --runs 1000 --threads {rng.choice(['1', '2', '1024', '0'])}",
                        "audit laplace:b=1 --exact-loss", "audit laplace:b=1 --projection coord:1",
                        "audit merge /nonexistent.json", "audit merge a.json --runs 4",
                        "audit --canary-scores /dev/null --epsilon 1", "audit --canary-scores /dev/zero"])
    elif c < 9:
        s = rng.choice(["gamma --help", f"consensus --help", "sweep --help", "check --list", "check --list --json",
                        "manpage", "completion bash", "completion zsh", "--version", "--help", "run --list"])
    elif c < 10:
        s = rng.choice([f"--json compose -{rng.choice('xyzq')}", f"-q compose -m", f"--json {rng.choice(['rdp', 'compose', 'calibrate'])} --bogus",
                        f"--time-limit {rng.choice(MAGNITUDES)} compose -m gaussian:sigma=1 --delta 1e-5",
                        f"--memory-limit {rng.choice(['0', '50', '100', '150', '1e12', 'x'])} compose -m gaussian:sigma=1 --delta 1e-5",
                        "compose -m gaussian:sigma=" + "9" * rng.choice([10, 300, 5000]) + "x --delta 1e-5"])
    elif c < 12:
        s = f"compose {ledger(rng)} --delta 1e-5 --json"
    else:
        s = f"--json rdp {ledger(rng)}"
    if rng.random() < 0.3 and not s.startswith("--json"):
        s = "--json " + s
    return s


def run_cli(binary, args, stdout_target, cpu_limit, cwd):
    def limits():
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_limit, cpu_limit + 1))
    argv = [binary] + [a for a in args.split(" ") if a]
    out = open(stdout_target, "wb") if stdout_target else None
    try:
        return subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=out if out else subprocess.PIPE,
                              stderr=subprocess.PIPE, preexec_fn=limits, cwd=cwd, timeout=6 * cpu_limit)
    finally:
        if out:
            out.close()


def check_cli(binary, args, full, cpu_limit, cwd):
    """'' if the case keeps the contract, else (class, detail)."""
    try:
        p = run_cli(binary, args, "/dev/full" if full else None, cpu_limit, cwd)
    except subprocess.TimeoutExpired:
        return ("hang", "no answer in the wall-clock limit")
    err = p.stderr.decode("utf-8", "replace")
    if p.returncode < 0:
        if -p.returncode == 24:  # SIGXCPU: past the CPU limit
            return ("hang", f"past {cpu_limit} s of CPU")
        return ("crash", f"signal {-p.returncode}: {err[:200]}")
    if p.returncode == 1:
        return ("exit1", err[:300])
    if p.returncode not in (0, 2, 3, 4):
        return ("other", f"exit {p.returncode}: {err[:200]}")
    out = b"" if full else p.stdout
    if full:
        if p.returncode == 0:
            return ("silent", "exit 0 with stdout on /dev/full")
        return ""
    if p.returncode == 2:
        lines = err.count("\n")
        if out:
            return ("other", "exit 2 with output on stdout")
        if lines != 1 or not err.startswith("error: "):
            return ("other", f"exit 2 without exactly one error line: {err[:300]}")
        if len(err) > 600:
            return ("other", f"exit 2 message of {len(err)} characters")
    elif p.returncode == 0 and not out:
        return ("silent", "exit 0 with nothing on stdout")
    return ""


def python_cases(rng, n):
    calls = []
    for _ in range(n):
        k = rng.randrange(8)
        specs = [mechanism(rng) for _ in range(rng.randint(1, 2))]
        if k == 0:
            calls.append(("compose", specs, {"delta": rng.choice(PROBABILITIES + [1e-5, None, "x", -1])}))
        elif k == 1:
            calls.append(("compose", specs, {"epsilon": rng.choice(MAGNITUDES + [1.0, float("nan")])}))
        elif k == 2:
            calls.append(("rdp", specs, {"orders": rng.choice([[2.0], [1.5, 2, float("inf")], list(range(2, 2003)), [], [0.5], None])}))
        elif k == 3:
            calls.append(("running", specs, {"delta": rng.choice([1e-5, 0.1, 0, 2]), "every": rng.choice([0, 1, 10, -1, 10**19])}))
        elif k == 4:
            calls.append(("calibrate", ["gaussian:sigma=?"], {"epsilon": rng.choice([1, 0, -1, 1e308]), "delta": rng.choice([1e-5, 0, 1])}))
        elif k == 5:
            calls.append(("compose", [], {"delta": 1e-5, "ledgers": rng.choice(["/dev/zero", "/nonexistent", "/", "/dev/null"])}))
        elif k == 6:
            calls.append(("compose", rng.choice([[1.5], [None], [["gaussian:sigma=1"]], [{"a": 1}], [b"x"], ["gaussian:sigma=1" * 5000]]), {"delta": 1e-5}))
        else:
            calls.append(("event", None, {"depth": rng.choice([5, 300, 3000])}))
    return calls


def run_python_case(dpledger, case):
    name, specs, kw = case
    if name == "event":
        from dpledger import dp_accounting as dpa
        e = dpa.GaussianDpEvent(1.0)
        for _ in range(kw["depth"]):
            e = dpa.SelfComposedDpEvent(e, 2)
        return dpledger.compose(e, delta=1e-5)
    if name == "rdp" and kw.get("orders") is None:
        kw = {}
    return getattr(dpledger, name)(specs, **kw)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--python", default="")
    ap.add_argument("--cases", type=int, default=300)
    ap.add_argument("--seed", type=int, default=20261207)
    ap.add_argument("--cpu-limit", type=int, default=15)
    ap.add_argument("--python-share", type=float, default=0.3)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    counts = {"cases": 0, "crash": 0, "exit1": 0, "silent": 0, "hang": 0, "other": 0, "python": 0}
    failures = []
    cwd = os.path.join("/tmp", f"dpledger_fuzz_{os.getpid()}")
    os.makedirs(cwd, exist_ok=True)
    n_python = int(args.cases * args.python_share) if args.python else 0
    for i in range(args.cases - n_python):
        a = command(rng)
        r = check_cli(args.bin, a, i % 5 == 4, args.cpu_limit, cwd)
        counts["cases"] += 1
        if r:
            counts[r[0]] += 1
            failures.append((a, r))
    if n_python:
        sys.path.insert(0, args.python)
        import dpledger
        for case in python_cases(rng, n_python):
            counts["cases"] += 1
            try:
                run_python_case(dpledger, case)
            except ValueError:
                pass
            except TypeError as e:
                if "incompatible function arguments" in str(e) or not str(e):
                    counts["python"] += 1
                    failures.append((repr(case)[:200], ("python", f"TypeError: {str(e)[:200]}")))
            except Exception as e:  # noqa: BLE001 - any other exception breaks the contract
                counts["python"] += 1
                failures.append((repr(case)[:200], ("python", f"{type(e).__name__}: {str(e)[:200]}")))
    print(" ".join(f"{k}={v}" for k, v in counts.items()))
    for a, (kind, detail) in failures[:50]:
        print(f"[{kind}] {a[:300]}\n    {detail}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
