# SPDX-License-Identifier: Apache-2.0
# Golden values for tests/accounting/extended_mechanisms_test.cpp (python3 tests/accounting/extended_mechanisms_golden.py;
# Debian's python3-mpmath 1.2.1, 50 digits). Every value is computed from the definitions, sharing no code with dpledger:
# exact privacy-loss distributions (enumerated atoms, exact convolutions) for the discrete mechanisms and shuffling,
# closed-form hockey-stick divergences for the Gaussian mixtures, and the Renyi curves minimised over the order.
import sys
from mpmath import mp, mpf, exp, log, log1p, expm1, sqrt, erfc, binomial, findroot, inf, ncdf, pi, tanh, floor, ceil

mp.dps = 50
D = mpf(10) ** -5


def eps_for_delta(delta_of, target=D, lo=mpf(0), hi=mpf(1000), tol=mpf(10) ** -30):
    """Smallest eps with delta_of(eps) <= target (delta_of non-increasing), by bisection to tol."""
    if delta_of(lo) <= target:
        return lo
    for _ in range(200):
        mid = (lo + hi) / 2
        if delta_of(mid) <= target:
            hi = mid
        else:
            lo = mid
        if hi - lo < tol:
            break
    return hi


def delta_of_atoms(atoms):
    """delta(eps) = sum_l P(l) (1 - e^{eps - l})_+ of a discrete PLD {loss: mass}."""
    items = sorted(atoms.items())
    return lambda e: sum(m * (1 - exp(e - l)) for l, m in items if l > e)


def compose_atoms(a, b, key=lambda l: l):
    out = {}
    for la, ma in a.items():
        for lb, mb in b.items():
            k = key(la + lb)
            out[k] = out.get(k, 0) + ma * mb
    return out


def self_compose(a, k, key):
    result = {key(mpf(0)): mpf(1)}
    base = dict(a)
    while k:
        if k & 1:
            result = compose_atoms(result, base, key)
        k >>= 1
        if k:
            base = compose_atoms(base, base, key)
    return result


# --- discrete Gaussian, sigma 2, shift 1, 10 steps: loss (1 - 2x)/8 at x; 10 steps: (10 - 2 S)/8, S the sum.
def discrete_gaussian(sigma, shift, steps):
    s2 = 2 * mpf(sigma) ** 2
    X = int(ceil(mpf(sigma) * 15)) + shift
    theta = sum(exp(-mpf(x) ** 2 / s2) for x in range(-X - 50, X + 51))
    one = {x: exp(-mpf(x) ** 2 / s2) / theta for x in range(-X, X + 1)}
    # The sum of `steps` draws, by exact convolution of integer-supported pmfs.
    dist = {0: mpf(1)}
    for _ in range(steps):
        nd = {}
        for a, ma in dist.items():
            for b, mb in one.items():
                nd[a + b] = nd.get(a + b, 0) + ma * mb
        dist = {k: v for k, v in nd.items() if v > mpf(10) ** -40}
    atoms = {}
    for s, m in dist.items():
        l = mpf(shift) * (steps * shift - 2 * s) / s2
        atoms[l] = atoms.get(l, 0) + m
    return eps_for_delta(delta_of_atoms(atoms))


# --- discrete Laplace a, integer shift s: P-masses 1/(1+e^-a) at a s, e^{-a s}/(1+e^-a) at -a s, tanh(a/2) e^{-a x}
# at a (s - 2x); losses on the lattice a * integer, so the composition is keyed by the integer.
def discrete_laplace(a, s, steps):
    a = mpf(a)
    one = {s: 1 / (1 + exp(-a)), -s: exp(-a * s) / (1 + exp(-a))}
    for x in range(1, s):
        one[s - 2 * x] = one.get(s - 2 * x, 0) + tanh(a / 2) * exp(-a * x)
    comp = self_compose({mpf(k): v for k, v in one.items()}, steps, key=lambda l: l)
    return eps_for_delta(delta_of_atoms({a * k: v for k, v in comp.items()}))


# --- k-ary randomized response p, k: losses +-L and 0; composition keyed by the integer coefficient of L.
def k_rr(p, k, steps):
    p = mpf(p)
    A, B = 1 - p + p / k, p / k
    L = log(A / B)
    one = {mpf(1): A, mpf(-1): B, mpf(0): (k - 2) * B}
    comp = self_compose(one, steps, key=lambda l: l)
    return eps_for_delta(delta_of_atoms({L * c: v for c, v in comp.items()}))


# --- Renyi curves converted: min over the order of the smaller of Mironov 2017 Prop. 3 and Balle et al. 2020 Thm 21.
def rdp_eps(curve, lo=mpf(1) + mpf(10) ** -6, hi=mpf(10) ** 4):
    def conv(a):
        r = curve(a)
        classic = r - log(D) / (a - 1)
        improved = r + log1p(-1 / a) - (log(D) + log(a)) / (a - 1)
        return min(classic, improved)
    # golden-section search on log(a - 1)
    import mpmath
    f = lambda t: conv(1 + exp(t))
    xs = [log(lo - 1) + (log(hi - 1) - log(lo - 1)) * i / 400 for i in range(401)]
    best = min(range(401), key=lambda i: f(xs[i]))
    a, b = xs[max(best - 1, 0)], xs[min(best + 1, 400)]
    g = (sqrt(5) - 1) / 2
    c, d = b - g * (b - a), a + g * (b - a)
    for _ in range(200):
        if f(c) <= f(d):
            b, d = d, c
            c = b - g * (b - a)
        else:
            a, c = c, d
            d = a + g * (b - a)
    return f((a + b) / 2)


def rr_rdp(eps, a):
    eps = mpf(eps)
    lp, lq = -log1p(exp(-eps)), -log1p(exp(eps))
    return log(exp(a * lp + (1 - a) * lq) + exp(a * lq + (1 - a) * lp)) / (a - 1)


def exponential_rdp(eps, a):
    eps = mpf(eps)
    c = eps / expm1(eps)
    return min(c - 1 - log(c) + (a - 1) * eps ** 2 / 8, rr_rdp(eps, a))


# --- Gaussian tools
def gauss_delta(mu, e):
    return ncdf(-e / mu + mu / 2) - exp(e) * ncdf(-e / mu - mu / 2)


def subsampled_gauss_delta(q, z, e, direction):
    """Poisson-subsampled Gaussian (noise z, shift 1), remove: P = (1-q)N(0,z^2) + qN(1,z^2), Q = N(0,z^2); add: swapped."""
    q, z = mpf(q), mpf(z)
    if direction == "remove":
        if e <= log1p(-q):
            return mpf(1) - exp(e)  # P - e^e Q over everything
        x = z ** 2 * log1p(expm1(e) / q) + mpf(1) / 2
        sp = (1 - q) * ncdf(-x / z) + q * ncdf(-(x - 1) / z)
        sq = ncdf(-x / z)
        return sp - exp(e) * sq
    # add: P = N(0), Q = mixture, loss -log(1-q+q e^{(2x-1)/(2z^2)}) > e iff x < z^2 log1p(expm1(-e)/q) + 1/2
    if -e <= log1p(-q):
        return mpf(0) if e >= -log1p(-q) else mpf(1) - exp(e)
    x = z ** 2 * log1p(expm1(-e) / q) + mpf(1) / 2
    sp = ncdf(x / z)
    sq = (1 - q) * ncdf(x / z) + q * ncdf((x - 1) / z)
    return sp - exp(e) * sq


def replace_one_loss(q, z, x):
    """The antipodal pair (1-q)N(0,z^2) + qN(1,z^2) against (1-q)N(0,z^2) + qN(-1,z^2): the loss at x, from the
    densities themselves."""
    num = (1 - q) * exp(-x ** 2 / (2 * z ** 2)) + q * exp(-(x - 1) ** 2 / (2 * z ** 2))
    den = (1 - q) * exp(-x ** 2 / (2 * z ** 2)) + q * exp(-(x + 1) ** 2 / (2 * z ** 2))
    return log(num / den)


def replace_one_delta(q, z, e):
    """One step of the antipodal pair: the loss increases in x, so delta(e) = P(X > x_e) - e^e Q(X > x_e), x_e the
    root of loss = e found by bisection on the loss itself (valid for every real e)."""
    q, z = mpf(q), mpf(z)
    lo, hi = mpf(-1), mpf(1)
    while replace_one_loss(q, z, lo) > e:
        lo *= 2
    while replace_one_loss(q, z, hi) < e:
        hi *= 2
    for _ in range(int(mp.prec) + 8):
        mid = (lo + hi) / 2
        if replace_one_loss(q, z, mid) < e:
            lo = mid
        else:
            hi = mid
    x = (lo + hi) / 2
    sp = (1 - q) * ncdf(-x / z) + q * ncdf(-(x - 1) / z)
    sq = (1 - q) * ncdf(-x / z) + q * ncdf(-(x + 1) / z)
    return sp - exp(e) * sq


def replace_one_two_steps(q, z, e):
    """Two steps: delta_2(e) = E_{x ~ P}[delta_1(e - L(x))] (the product pair's hockey-stick, integrated over the first
    step's outcome), by quadrature over each component of P."""
    q, z = mpf(q), mpf(z)
    f = lambda x, m: exp(-(x - m) ** 2 / (2 * z ** 2)) / (z * sqrt(2 * pi)) * replace_one_delta(q, z, e - replace_one_loss(q, z, x))
    from mpmath import quad
    return (1 - q) * quad(lambda x: f(x, 0), [-inf, -4 * z, 0, 4 * z, inf]) + \
        q * quad(lambda x: f(x, 1), [-inf, 1 - 4 * z, 1, 1 + 4 * z, inf])


def mixture_delta(sigma, cs, ps, e, direction):
    """N(0, s^2) against sum p_i N(c_i, s^2); the loss is monotone in x: delta = P(L > e) - e^e Q(L > e)."""
    sigma = mpf(sigma)
    F = lambda x: log(sum(mpf(p) * exp((2 * mpf(c) * x - mpf(c) ** 2) / (2 * sigma ** 2)) for c, p in zip(cs, ps)))
    if direction == "remove":
        lo, hi = mpf(-1), mpf(1)
        while F(lo) - e > 0: lo *= 2
        while F(hi) - e < 0: hi *= 2
        x = findroot(lambda t: F(t) - e, (lo, hi), solver="anderson")
        sp = sum(mpf(p) * ncdf((mpf(c) - x) / sigma) for c, p in zip(cs, ps))
        sq = ncdf(-x / sigma)
        return sp - exp(e) * sq
    p0 = sum(mpf(p) for c, p in zip(cs, ps) if c == 0)
    if p0 > 0 and -e <= log(p0):
        return mpf(0)  # the loss -F(x) never exceeds -log p0
    lo, hi = mpf(-1), mpf(1)
    while F(lo) + e > 0: lo *= 2
    while F(hi) + e < 0: hi *= 2
    x = findroot(lambda t: F(t) + e, (lo, hi), solver="anderson")
    sp = ncdf(x / sigma)
    sq = sum(mpf(p) * ncdf((x - mpf(c)) / sigma) for c, p in zip(cs, ps))
    return sp - exp(e) * sq


def binom_tail(n, q, k):
    """P[Bin(n, q) >= k] exactly (summing the smaller side)."""
    q = mpf(q)
    mode = (n + 1) * q
    if k > mode:
        return sum(binomial(n, j) * q ** j * (1 - q) ** (n - j) for j in range(k, min(n, k + 4000) + 1))
    return 1 - sum(binomial(n, j) * q ** j * (1 - q) ** (n - j) for j in range(max(0, k - 4000), k))


def truncated(sigma, q, batch, n, steps_unused=1):
    tau = binom_tail(n - 1, q, batch)
    q2 = mpf(q) * batch / (batch + 1)
    # with 1 - tau the subsampled pair (q, noise sigma, shift 1); with tau (q2, shift 2) = noise sigma/2 per unit shift
    def delta(e):
        return max((1 - tau) * subsampled_gauss_delta(q, sigma, e, d) + tau * subsampled_gauss_delta(q2, mpf(sigma) / 2, e, d)
                   for d in ("remove", "add"))
    return eps_for_delta(delta), tau


def wr(sigma, m, n):
    mu = 1 / mpf(sigma)
    def delta(e):
        s = mpf(0)
        for k in range(1, m + 1):
            b = binomial(m, k) * (mpf(1) / n) ** k * (1 - mpf(1) / n) ** (m - k)
            if b < mpf(10) ** -45:
                break
            s += b * gauss_delta(k * mu, e)
        return s
    return eps_for_delta(delta)


# --- shuffling (Feldman, McMillan and Talwar 2021, Sec. 3, the clone reduction): C ~ Bin(n-1, e^-eps0), A ~ Bin(C, 1/2), D ~ Bern(a).
def shuffle(eps0, n, steps=1):
    eps0 = mpf(eps0)
    p = exp(-eps0)
    al = exp(eps0) / (exp(eps0) + 1)
    atoms = {}
    for c in range(n):
        wc = binomial(n - 1, c) * p ** c * (1 - p) ** (n - 1 - c)
        if wc < mpf(10) ** -45:
            continue
        b = [binomial(c, x) / mpf(2) ** c for x in range(c + 1)] + [mpf(0)]
        for x in range(c + 2):
            bx, bx1 = (b[x] if x <= c else 0), (b[x - 1] if x >= 1 else 0)
            P = al * bx + (1 - al) * bx1
            Q = al * bx1 + (1 - al) * bx
            if P == 0:
                continue
            l = log(P / Q)
            key = mp.nstr(l, 40)
            if key in atoms:
                atoms[key][1] += wc * P
            else:
                atoms[key] = [l, wc * P]
    one = {l: m for l, m in atoms.values()}
    if steps == 1:
        return eps_for_delta(delta_of_atoms(one))
    comp = one
    for _ in range(steps - 1):
        comp = compose_atoms(comp, one, key=lambda l: l)
    return eps_for_delta(delta_of_atoms(comp))


def select_tnb(rho, mean, shape):
    """Papernot-Steinke 2022 Thm 2 for a run with RDP rho*a (gamma from the mean), minimised over lh, then converted."""
    mean, shape = mpf(mean), mpf(shape)
    if shape == 1:
        gamma = 1 / mean
    else:
        m = lambda g: shape * (1 - g) / (g * (1 - g ** shape)) if shape > 0 else (1 - g) / (g * log(1 / g))
        gamma = findroot(lambda g: m(g) - mean, (mpf(10) ** -6, mpf(1) - mpf(10) ** -9), solver="bisect")
    # min over lh of (1 - 1/lh) rho lh + log(1/gamma)/lh = rho (lh - 1) + log(1/gamma)/lh: lh* = sqrt(log(1/gamma)/rho)
    lh = max(mpf(1), sqrt(log(1 / gamma) / rho))
    const = (1 + shape) * (rho * (lh - 1) + log(1 / gamma) / lh)
    return rdp_eps(lambda a: rho * a + const + log(mean) / (a - 1))


if __name__ == "__main__":
    which = sys.argv[1:] or ["all"]
    run = lambda name: "all" in which or name in which
    if run("dgauss"):
        print("discrete_gaussian sigma 2 shift 1 steps 10", mp.nstr(discrete_gaussian(2, 1, 10), 20))
    if run("dlap"):
        print("discrete_laplace a 0.5 sens 2 steps 10", mp.nstr(discrete_laplace(0.5, 2, 10), 20))
        print("discrete_laplace a 0.3 sens 3 steps 7", mp.nstr(discrete_laplace(0.3, 3, 7), 20))
    if run("krr"):
        print("rr p 0.3 k 4 steps 20", mp.nstr(k_rr(0.3, 4, 20), 20))
        print("rr p 0.6 k 10 steps 50", mp.nstr(k_rr(0.6, 10, 50), 20))
    if run("zcdp"):
        print("zcdp rho 0.05 xi 0 steps 10", mp.nstr(rdp_eps(lambda a: 10 * mpf("0.05") * a), 20))
        print("zcdp rho 0.01 xi 0.1 steps 3", mp.nstr(rdp_eps(lambda a: 3 * (mpf("0.1") + mpf("0.01") * a)), 20))
        print("discrete_gaussian sigma 2 steps 10 rdp", mp.nstr(rdp_eps(lambda a: 10 * a / (2 * mpf(4))), 20))
    if run("exp"):
        print("exponential eps 0.5 steps 20 rdp", mp.nstr(rdp_eps(lambda a: 20 * exponential_rdp(0.5, a)), 20))
    if run("tree"):
        mu = sqrt(mpf(3) * 10) / 5  # depth of 1000 leaves = 10
        print("tree sigma 5 leaves 1000 steps 3", mp.nstr(eps_for_delta(lambda e: gauss_delta(mu, e)), 20))
    if run("mixture"):
        cs, ps = [0, 1, 2], [mpf("0.81"), mpf("0.18"), mpf("0.01")]
        f = lambda e: max(mixture_delta(1, cs, ps, e, d) for d in ("remove", "add"))
        print("mixture sigma 1 [0,1,2] [0.81,0.18,0.01] steps 1", mp.nstr(eps_for_delta(f), 20))
        cs2, ps2 = [1, 3], [mpf("0.5"), mpf("0.5")]
        f2 = lambda e: max(mixture_delta(2, cs2, ps2, e, d) for d in ("remove", "add"))
        print("mixture sigma 2 [1,3] [0.5,0.5] steps 1", mp.nstr(eps_for_delta(f2), 20))
    if run("replace_one"):
        print("gaussian sigma 1 q 0.1 poisson_replace_one steps 1",
              mp.nstr(eps_for_delta(lambda e: replace_one_delta("0.1", 1, e)), 20))
        print("gaussian sigma 0.5 q 0.01 poisson_replace_one steps 1",
              mp.nstr(eps_for_delta(lambda e: replace_one_delta("0.01", "0.5", e)), 20))
        mp.dps = 20
        print("gaussian sigma 1 q 0.2 poisson_replace_one steps 2",
              mp.nstr(eps_for_delta(lambda e: replace_one_two_steps("0.2", 1, e), lo=mpf(3), hi=mpf(4),
                                    tol=mpf(10) ** -14), 15))
        mp.dps = 50
    if run("trunc"):
        e, tau = truncated(mpf("0.6"), mpf("0.05"), 60, 1000)
        print("truncated sigma 0.6 q 0.05 batch 60 n 1000 steps 1", mp.nstr(e, 20), "tau", mp.nstr(tau, 20))
    if run("wr"):
        print("wr sigma 0.8 batch 50 n 1000 steps 1", mp.nstr(wr(mpf("0.8"), 50, 1000), 20))
    if run("shuffle"):
        print("shuffle eps0 1 n 100 steps 1", mp.nstr(shuffle(1, 100), 20))
        print("shuffle eps0 2 n 300 steps 1", mp.nstr(shuffle(2, 300), 20))
    if run("select"):
        print("select geometric mean 10 gaussian rho 1.25", mp.nstr(select_tnb(mpf("1.25"), 10, 1), 20))
        print("select tnb 0.5 mean 10 gaussian rho 1.25", mp.nstr(select_tnb(mpf("1.25"), 10, mpf("0.5")), 20))
