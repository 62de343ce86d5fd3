# SPDX-License-Identifier: Apache-2.0
"""A privacy ledger in dp_accounting's DpEvents, accounted by dpledger.

A pipeline that trains with DP-SGD (Poisson rate 0.01, noise 1.1, 2,000 steps), then answers 20 counting queries
with Laplace noise and one randomized-response survey question. The events are dp_accounting's own classes when
dp_accounting is installed, else dpledger's stand-ins with the same names and fields; dpledger.dp_accounting's
accountants take either (the code is the code of a dp_accounting user, with one import changed).

Run: python3 examples/python/dp_accounting_ledger.py   (dpledger installed, or PYTHONPATH=build/python)
"""

import dpledger
from dpledger import dp_accounting

try:  # the events of a dp_accounting user
    from dp_accounting import dp_event
except ImportError:
    from dpledger.dp_accounting import dp_event

DELTA = 1e-6

training = dp_event.SelfComposedDpEvent(
    dp_event.PoissonSampledDpEvent(sampling_probability=0.01, event=dp_event.GaussianDpEvent(noise_multiplier=1.1)),
    count=2000)
queries = dp_event.SelfComposedDpEvent(dp_event.LaplaceDpEvent(noise_multiplier=50.0), count=20)
survey = dp_event.RandomizedResponseDpEvent(noise_parameter=0.5, num_buckets=2)

for name, Accountant in (("PLD", dp_accounting.PLDAccountant), ("RDP", dp_accounting.RdpAccountant)):
    # The survey's randomized response is private under replacing one answer (dp_accounting's REPLACE_SPECIAL), not
    # under adding or removing one; the Poisson-sampled training and the Laplace queries are accounted under it too.
    accountant = Accountant(neighboring_relation=dp_accounting.NeighboringRelation.REPLACE_SPECIAL)
    for event in (training, queries, survey):
        if not accountant.supports(event):
            raise SystemExit(f"{name} does not support {event}")
        accountant.compose(event)
    answer = accountant.result(delta=DELTA)  # dpledger's whole answer: the bound, a lower bound, the method
    lower = "" if answer.lower is None else f"; the true epsilon is at least {answer.lower!r}"
    print(f"{name}: epsilon {accountant.get_epsilon(DELTA)!r} at delta {DELTA} (certified upper bound{lower})")

print("ledger", accountant.ledger)
print("as dpledger specs", accountant.ledger_specs)
# The same events through dpledger's own API: `auto` takes the tightest accountant that applies.
best = dpledger.compose([training, queries, survey], delta=DELTA)
print(f"auto: epsilon {best.epsilon!r} by {best.accountant}")

# How much noise would the training alone need for epsilon 1 at this delta?
sigma = dp_accounting.calibrate_dp_mechanism(
    dp_accounting.RdpAccountant,
    lambda s: dp_event.SelfComposedDpEvent(dp_event.PoissonSampledDpEvent(0.01, dp_event.GaussianDpEvent(s)), 2000),
    target_epsilon=1.0, target_delta=DELTA, tol=1e-4)
print(f"noise multiplier for epsilon 1 over the training: {sigma:.4f}")
