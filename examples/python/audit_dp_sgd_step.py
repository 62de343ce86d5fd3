# SPDX-License-Identifier: Apache-2.0
"""Audit your own DP-SGD step with dpledger.audit: the step as written passes its claim, and its twin that forgets
to clip the per-example gradients is caught.

One step of DP-SGD for least squares at theta = 0: each example's gradient clipped to norm C, the clipped gradients
summed, Gaussian noise of standard deviation sigma * C added. Adding one example moves the sum by at most C, so the
step is (1/sigma)-Gaussian-DP (Dong, Roth and Su 2022, Gaussian mechanism), audited as mu = 1/sigma. D' is D plus
a canary whose gradient is long and points along the first coordinate, which the audit reads (projection=1).
Each audit makes 2 x 20,000 calls of the step; the false-violation probability of a correct step is at most
1 - confidence = 0.05 for any seed.

Run: python3 examples/python/audit_dp_sgd_step.py   (dpledger installed, or PYTHONPATH=build/python)
"""

import numpy as np

import dpledger

C, SIGMA = 1.0, 1.0


def gradients(data):
    X, y = data[:, :-1], data[:, -1]
    theta = np.zeros(X.shape[1])
    return (X @ theta - y)[:, None] * X  # one row per example


def clip(g):
    return g / np.maximum(1.0, np.linalg.norm(g, axis=1, keepdims=True) / C)


def dp_sgd_step(data, rng):
    return clip(gradients(data)).sum(axis=0) + rng.normal(0.0, SIGMA * C, size=data.shape[1] - 1)


def forgot_to_clip(data, rng):  # the bug: the per-example gradients are summed unclipped
    return gradients(data).sum(axis=0) + rng.normal(0.0, SIGMA * C, size=data.shape[1] - 1)


X = np.random.default_rng(0).normal(size=(100, 3))
D = np.column_stack([X, 50 * X @ [1.0, -2.0, 0.5]])
D_prime = np.vstack([D, [10.0, 0.0, 0.0, -10.0]])  # D plus a canary whose gradient points along the first axis

for step in (dp_sgd_step, forgot_to_clip):
    r = dpledger.audit(step, D, D_prime, mu=1 / SIGMA, runs=20_000, seed=2, projection=1)
    print(f"{step.__name__:<14} {r.verdict:<10} mu_lower {r.mu_lower:.2f} (claim {r.mu_claimed:g})")
