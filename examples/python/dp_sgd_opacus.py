# SPDX-License-Identifier: Apache-2.0
"""DP-SGD with an Opacus-style accountant, in NumPy only: logistic regression on a synthetic two-class problem,
Poisson-sampled batches, per-example gradients clipped to norm C, Gaussian noise of standard deviation sigma*C.

The noise multiplier is calibrated with dpledger.opacus's get_noise_multiplier for a budget of (epsilon, delta)
over the planned epochs; the accountant (dpledger.opacus's RDPAccountant, the interface of
opacus.accountants.RDPAccountant) is stepped once per optimiser step and asked for its epsilon after every step:
training stops before the budget would be exceeded. With Opacus and PyTorch, the same accountant object goes where
Opacus's own would (PrivacyEngine(accountant=...)-style code).

Run: python3 examples/python/dp_sgd_opacus.py   (dpledger installed, or PYTHONPATH=build/python)
"""

import numpy as np

from dpledger.opacus import RDPAccountant, get_noise_multiplier

EPSILON, DELTA = 2.0, 1e-5
N, DIM, EPOCHS, SAMPLE_RATE, CLIP, LEARNING_RATE = 5000, 10, 5, 0.01, 1.0, 0.5


def data(rng):
    w_true = rng.normal(size=DIM)
    x = rng.normal(size=(N, DIM)) / np.sqrt(DIM)
    y = (x @ w_true + 0.1 * rng.normal(size=N) > 0).astype(float)
    return x, y


def accuracy(w, x, y):
    return float(np.mean(((x @ w) > 0) == (y > 0.5)))


def main():
    rng = np.random.default_rng(7)
    x, y = data(rng)
    steps = int(EPOCHS / SAMPLE_RATE)
    sigma = get_noise_multiplier(target_epsilon=EPSILON, target_delta=DELTA, sample_rate=SAMPLE_RATE, steps=steps)
    print(f"noise multiplier {sigma:.6f} for epsilon {EPSILON} at delta {DELTA} over {steps} steps")
    accountant = RDPAccountant()
    w = np.zeros(DIM)
    print(f"accuracy before training {accuracy(w, x, y):.3f}")
    for step in range(steps):
        batch = np.flatnonzero(rng.random(N) < SAMPLE_RATE)          # Poisson sampling
        p = 1 / (1 + np.exp(-(x[batch] @ w)))
        grads = (p - y[batch])[:, None] * x[batch]                    # per-example gradients
        norms = np.maximum(1.0, np.linalg.norm(grads, axis=1) / CLIP)
        noisy = (grads / norms[:, None]).sum(axis=0) + rng.normal(0, sigma * CLIP, DIM)
        w -= LEARNING_RATE * noisy / (SAMPLE_RATE * N)
        accountant.step(noise_multiplier=sigma, sample_rate=SAMPLE_RATE)
        epsilon = accountant.get_epsilon(DELTA)                       # certified, after every step
        if epsilon > EPSILON:
            raise SystemExit(f"budget exceeded at step {step + 1}: epsilon {epsilon}")
        if (step + 1) % int(1 / SAMPLE_RATE) == 0:
            print(f"epoch {(step + 1) * SAMPLE_RATE:.0f}: epsilon {epsilon:.6f}, accuracy {accuracy(w, x, y):.3f}")
    print(f"history {accountant.history}")
    print(f"final epsilon {accountant.get_epsilon(DELTA)!r} (certified upper bound) at delta {DELTA}")
    print(f"accuracy after training {accuracy(w, x, y):.3f}")


if __name__ == "__main__":
    main()
