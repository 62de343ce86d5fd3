# SPDX-License-Identifier: Apache-2.0
# Golden values for tests/accounting/rdp_golden_test.cpp (python3 tests/accounting/rdp_golden_values.py; mpmath 1.3.0, 60 digits).
# Subsampled-Gaussian RDP at the exact binary64 inputs: integer orders by the binomial sum (MTZ 2019 Sec. 3.2),
# fractional orders by quadrature of the definition E_{N(0,z^2)}[((1-q) + q e^{(2x-1)/(2z^2)})^a].
from mpmath import mp, mpf, binomial, exp, log, quad, sqrt, pi, inf
mp.dps = 60
def A_int(z, q, a):
    return sum(binomial(a, k) * (1 - q)**(a - k) * q**k * exp(mpf(k * k - k) / (2 * z * z)) for k in range(a + 1))
def A_quad(z, q, a):
    f = lambda x: exp(-x * x / (2 * z * z)) / (z * sqrt(2 * pi)) * ((1 - q) + q * exp((2 * x - 1) / (2 * z * z)))**a
    return quad(f, [-inf, -10 * z, 0, 10 * z, 20 * z * max(1, a), inf])
def rdp(sigma, sens, q, a):
    z = mpf(sigma) / mpf(sens); q = mpf(q)
    if float(a) == int(float(a)): return log(A_int(z, q, int(float(a)))) / (int(float(a)) - 1)
    a = mpf(a); return log(A_quad(z, q, a)) / (a - 1)
for case in [(2.399, 2.507, 0.0474, 8), (2.544, 1.965, 0.0156, 7.25), (0.3, 3.7, 0.2, 3), (5e-3, 1e-2, 1e-3, 2.5),
             (1.1, 1.0, 0.01, 4.5), (37.0, 41.0, 0.9, 12), (1e3, 2e3, 1e-6, 1.5)]:
    print(case, mp.nstr(rdp(*case), 25))
# Orders near 1 (RdpGolden.FractionalOrdersNearOneAreTight; printed with mp.dps = 45, mp.nstr(., 26)).
for case in [(1.1, 1.0, 0.3, 1.01), (1.1, 1.0, 0.7, 1.01), (1.1, 1.0, 0.7, 1.25), (1.1, 1.0, 0.3, 1.5),
             (0.6, 1.3, 0.02, 1.25), (2.5, 1.3, 0.005, 1.75), (0.5, 1.0, 0.9, 1.5), (3.0, 1.0, 0.45, 1.1)]:
    print(case, mp.nstr(rdp(*case), 26))
# The 100-entry heterogeneous ledger (RdpGolden.HeterogeneousLedgerAtTheOptimalFractionalOrder): sigma_i = 0.8 + 0.02 i,
# q_i = 0.005 + 0.0002 i (decimals rounded to binary64 as the CLI reads them), sens 1.3, 100 steps each, delta = binary64
# 1e-5; epsilon = min(Mironov 2017 Prop. 3, Balle et al. 2020 Thm 21) at each order (a few minutes).
from mpmath import log1p
entries = [(float("%.4f" % (0.8 + 0.02 * i)), float("%.4f" % (0.005 + 0.0002 * i))) for i in range(100)]
delta = mpf(1e-5)
for a in [3.647999938013287, 3.6, 4]:
    r = sum(100 * rdp(sigma, 1.3, q, a) for sigma, q in entries)
    a = mpf(a)
    eps = min(r + log(1 / delta) / (a - 1), r + log1p(-1 / a) - (log(delta) + log(a)) / (a - 1))
    print(a, mp.nstr(eps, 25))
