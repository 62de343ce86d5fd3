#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Canary-score audits side by side: dpledger's `audit --canary-scores` and jax_privacy's CanaryScoreAuditor
(jax_privacy/auditing.py, Google DeepMind) on the same score files. Prints one markdown table.

jax_privacy's auditing module needs only numpy and scipy, plus dp_accounting for one function
(get_sigma_gaussian, used by epsilon_one_run_fdp). Where jax_privacy itself is not installed, point
JAX_PRIVACY_AUDITING_PY at a copy of its jax_privacy/auditing.py: it is loaded on its own, and if dp_accounting is
not importable either, get_sigma_gaussian is supplied here (the analytic Gaussian calibration of Balle and Wang 2018,
solved by scipy's brentq) and the table says so. Nothing of jax_privacy is copied into this repository.

Usage: bench/jax_canary_compare.py BUILD_DIR FILE...   (FILE: CSV score,included or JSON lines)
       bench/jax_canary_compare.py BUILD_DIR --generate DIR   (writes the three score files the README uses)
"""
import importlib.util
import json
import os
import subprocess
import sys
import types


def load_scores(path):
    scores, included = [], []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            if line.startswith("{"):
                j = json.loads(line)
                scores.append(float(j["score"]))
                included.append(int(j["included"]))
                continue
            a, b = line.split(",")
            try:
                scores.append(float(a))
                included.append(int(float(b)))
            except ValueError:
                continue  # header
    return scores, included


def load_jax_auditing():
    """jax_privacy.auditing, or the module at JAX_PRIVACY_AUDITING_PY; (module, note) or (None, reason)."""
    try:
        from jax_privacy import auditing  # noqa: F401
        return auditing, "jax_privacy installed"
    except Exception:
        pass
    path = os.environ.get("JAX_PRIVACY_AUDITING_PY", "")
    if not os.path.isfile(path):
        return None, "jax_privacy not importable and JAX_PRIVACY_AUDITING_PY not set"
    note = "jax_privacy/auditing.py loaded from " + path
    try:
        import dp_accounting  # noqa: F401
    except Exception:
        import numpy as np
        import scipy.optimize
        import scipy.stats

        def _delta(sigma, eps):
            n = scipy.stats.norm
            return n.cdf(0.5 / sigma - eps * sigma) - np.exp(eps) * n.cdf(-0.5 / sigma - eps * sigma)

        def get_sigma_gaussian(eps, delta):
            hi = 1.0
            while _delta(hi, eps) > delta:
                hi *= 2
            return scipy.optimize.brentq(lambda s: _delta(s, eps) - delta, 1e-9, hi, xtol=1e-12)

        shim = types.ModuleType("dp_accounting")
        shim.get_sigma_gaussian = get_sigma_gaussian
        sys.modules["dp_accounting"] = shim
        note += "; dp_accounting.get_sigma_gaussian supplied by this script (analytic Gaussian, brentq)"
    try:
        spec = importlib.util.spec_from_file_location("jax_privacy_auditing", path)
        mod = importlib.util.module_from_spec(spec)
        sys.modules["jax_privacy_auditing"] = mod
        spec.loader.exec_module(mod)
        return mod, note
    except Exception as e:  # numpy/scipy missing, or an incompatible version
        return None, "could not load %s: %s" % (path, e)


def dpledger(build, path, method, extra=()):
    out = subprocess.run([os.path.join(build, "bin", "dpledger"), "--json", "audit", "--canary-scores", path,
                          "--method", method, "--delta", "1e-5", *extra], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def generate(directory):
    """Three score files: Gaussian scores with shift 1.1 and 3 (1000 canaries), and 400 deterministic ones."""
    import numpy as np
    os.makedirs(directory, exist_ok=True)
    rng = np.random.default_rng(1)
    inc = rng.integers(0, 2, 1000)
    for name, shift in (("gauss_1.1.csv", 1.1), ("gauss_3.csv", 3.0)):
        s = rng.normal(size=1000) + shift * inc
        with open(os.path.join(directory, name), "w") as f:
            f.write("score,included\n")
            f.writelines("%r,%d\n" % (a, b) for a, b in zip(s, inc))
    with open(os.path.join(directory, "deterministic_400.csv"), "w") as f:
        for i in range(400):
            b = 1 if (i * 37) % 11 < 5 else 0
            f.write("%r,%d\n" % (((i * 53) % 29) / 7 + 1.5 * b, b))


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    build = argv[1]
    if argv[2] == "--generate":
        generate(argv[3])
        return 0
    jax, note = load_jax_auditing()
    rows = ["| file | figure | dpledger | jax_privacy |", "|---|---|---|---|"]
    for path in argv[2:]:
        name = os.path.basename(path)
        ins, inc = load_scores(path)
        aud = None
        if jax is not None:
            import numpy as np
            s, b = np.array(ins), np.array(inc)
            aud = jax.CanaryScoreAuditor(s[b == 1], s[b == 0])
        d = {m: dpledger(build, path, m) for m in ("one-run", "one-run-fdp", "clopper-pearson", "gdp")}
        fixed = {m: dpledger(build, path, m, ("--threshold", "%r" % d["clopper-pearson"]["threshold"]))
                 for m in ("one-run", "one-run-fdp", "clopper-pearson")}
        t = d["clopper-pearson"]["threshold"]

        def j(f):
            if aud is None:
                return "not run"
            try:
                return "%.10g" % f()
            except Exception as e:
                return "error: %s" % e

        E = jax.Explicit(t) if jax is not None else None
        cases = [
            ("AUROC (ROC convex hull)", d["one-run"]["auroc"], lambda: aud.attack_auroc()),
            ("TPR at FPR 0.01", d["one-run"]["tpr_at_fpr"][1]["tpr"], lambda: aud.tpr_at_given_fpr(0.01)),
            ("one-run eps, threshold %.6g fixed" % t, fixed["one-run"]["epsilon_lower"],
             lambda: aud.epsilon_one_run(0.05, 1e-5, threshold_strategy=E)),
            ("one-run-fdp eps, threshold fixed", fixed["one-run-fdp"]["epsilon_lower"],
             lambda: aud.epsilon_one_run_fdp(0.05, 1e-5, threshold_strategy=E)),
            ("Clopper-Pearson eps, threshold fixed", fixed["clopper-pearson"]["epsilon_lower"],
             lambda: aud.epsilon_clopper_pearson(0.05, 1e-5, threshold_strategy=E)),
            ("one-run eps, Bonferroni", d["one-run"]["epsilon_lower"], lambda: aud.epsilon_one_run(0.05, 1e-5)),
            ("one-run-fdp eps, Bonferroni", d["one-run-fdp"]["epsilon_lower"], lambda: aud.epsilon_one_run_fdp(0.05, 1e-5)),
            ("Clopper-Pearson eps, Bonferroni", d["clopper-pearson"]["epsilon_lower"],
             lambda: aud.epsilon_clopper_pearson(0.05, 1e-5)),
            ("GDP eps, Bonferroni", d["gdp"]["epsilon_lower"], lambda: aud.epsilon_from_gdp(0.05, 1e-5)),
        ]
        for label, ours, theirs in cases:
            rows.append("| %s | %s | %.10g | %s |" % (name, label, ours, j(theirs)))
    print("\n".join(rows))
    print("\nconfidence 0.95, delta 1e-5; anchor: " + note)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
