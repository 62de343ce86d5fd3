// SPDX-License-Identifier: Apache-2.0
// RapidCheck: on random subsampled-Gaussian parameters (sens != 1, magnitudes from 1e-3 to 1e3, q from 1e-6 to
// 0.99, integer and fractional orders) the printed RDP upper bound (200-bit path, binary64 fast path and through
// the ledger) is >= an independent 256-bit MPFR value computed here directly from Mironov, Talwar and Zhang 2019
// (Sec. 3.2 binomial sum at integer orders; Sec. 3.3 series, coded term by term from log-gamma, at fractional
// ones), and within 1e-9 (integer orders) or 1e-6 (fractional) relative of it.
#include "accounting/composition/compose.h"
#include "accounting/numeric/decimal.h"
#include "accounting/rdp/rdp_accountant.h"
#include "accounting/rdp/rdp_subsampled_gaussian.h"

#include <gtest/gtest.h>
#include <mpfr.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <optional>
#include <string>
#include <vector>

namespace dpl {
namespace {

constexpr mpfr_prec_t kBits = 256;

// An RAII MPFR number at 256 bits (round to nearest throughout: the reference is accurate to ~1e-60 relative,
// far inside the slack used below).
struct M {
  mpfr_t v;
  M() { mpfr_init2(v, kBits); mpfr_set_zero(v, 1); }
  explicit M(double x) { mpfr_init2(v, kBits); mpfr_set_d(v, x, MPFR_RNDN); }
  M(const M& o) { mpfr_init2(v, kBits); mpfr_set(v, o.v, MPFR_RNDN); }
  M& operator=(const M& o) { mpfr_set(v, o.v, MPFR_RNDN); return *this; }
  ~M() { mpfr_clear(v); }
};
M add(const M& a, const M& b) { M r; mpfr_add(r.v, a.v, b.v, MPFR_RNDN); return r; }
M sub(const M& a, const M& b) { M r; mpfr_sub(r.v, a.v, b.v, MPFR_RNDN); return r; }
M mul(const M& a, const M& b) { M r; mpfr_mul(r.v, a.v, b.v, MPFR_RNDN); return r; }
M div(const M& a, const M& b) { M r; mpfr_div(r.v, a.v, b.v, MPFR_RNDN); return r; }
M mexp(const M& a) { M r; mpfr_exp(r.v, a.v, MPFR_RNDN); return r; }
M mlog(const M& a) { M r; mpfr_log(r.v, a.v, MPFR_RNDN); return r; }
M phi(const M& x) {  // Phi(x) = erfc(-x/sqrt 2)/2
  M s(2.0), t;
  mpfr_sqrt(s.v, s.v, MPFR_RNDN);
  mpfr_div(t.v, x.v, s.v, MPFR_RNDN);
  mpfr_neg(t.v, t.v, MPFR_RNDN);
  mpfr_erfc(t.v, t.v, MPFR_RNDN);
  mpfr_div_2ui(t.v, t.v, 1, MPFR_RNDN);
  return t;
}

// MTZ 2019 Sec. 3.2: A = sum_k C(a,k) (1-q)^{a-k} q^k e^{(k^2-k)/(2z^2)}, integer a; each term from log-gamma.
M integer_reference(const M& q, const M& z, long a) {
  const M lq = mlog(q), l1q = mlog(sub(M(1.0), q)), two_z2 = mul(M(2.0), mul(z, z));
  M sum, coef(1.0);  // C(a, k) exactly (integers below 2^64 fit 256 bits)
  for (long k = 0; k <= a; ++k) {
    M lt = add(mul(M(static_cast<double>(a - k)), l1q), mul(M(static_cast<double>(k)), lq));
    lt = add(lt, div(M(static_cast<double>(k * k - k)), two_z2));
    sum = add(sum, mul(coef, mexp(lt)));
    coef = div(mul(coef, M(static_cast<double>(a - k))), M(static_cast<double>(k + 1)));
  }
  return sum;
}

// MTZ 2019 Sec. 3.3: A = sum_i C(a,i) [q^i (1-q)^{a-i} e^{(i^2-i)/(2z^2)} Phi((z0-i)/z)
//                                      + q^{a-i} (1-q)^i e^{((a-i)^2-(a-i))/(2z^2)} Phi((a-i-z0)/z)],
// z0 = z^2 log(1/q - 1) + 1/2, real a > 1; C(a,i) by C(a,i+1) = C(a,i)(a-i)/(i+1), signed. Summed
// until the terms past i = a + 1 fall below 1e-20 of A - 1 (they alternate with decreasing magnitude there, so
// the remainder is below that too); nullopt if that takes more than 3000 terms.
std::optional<M> fractional_reference(const M& q, const M& z, double alpha) {
  const M a(alpha), one(1.0), lq = mlog(q), l1q = mlog(sub(one, q)), two_z2 = mul(M(2.0), mul(z, z));
  const M z0 = add(mul(mul(z, z), sub(l1q, lq)), M(0.5));
  M sum, coef(1.0);
  for (long i = 0; i < 3000; ++i) {
    const M I(static_cast<double>(i)), j = sub(a, I);
    const M e0 = add(add(mul(I, lq), mul(j, l1q)), div(sub(mul(I, I), I), two_z2));
    const M e1 = add(add(mul(j, lq), mul(I, l1q)), div(sub(mul(j, j), j), two_z2));
    const M t0 = mul(mexp(e0), phi(div(sub(z0, I), z))), t1 = mul(mexp(e1), phi(div(sub(j, z0), z)));
    const M term = mul(coef, add(t0, t1));
    sum = add(sum, term);
    coef = div(mul(coef, j), add(I, one));
    if (mpfr_zero_p(coef.v)) return sum;  // integer order: the series is finite
    if (i > alpha + 1) {  // relative to A - 1 (often ~1e-4 or less): that is what the RDP value is the log of
      M rel;
      mpfr_div(rel.v, term.v, sub(sum, one).v, MPFR_RNDN);
      if (mpfr_cmpabs(rel.v, M(1e-20).v) < 0) return sum;
    }
  }
  return std::nullopt;
}

double log_uniform(unsigned v, double lo, double hi) {
  const double t = (v % 100001) / 100000.0;
  return std::exp(std::log(lo) + t * (std::log(hi) - std::log(lo)));
}

RC_GTEST_PROP(RdpReference, PrintedBoundIsAboveAnIndependent256BitValue,
              (unsigned a, unsigned b, unsigned c, unsigned d, bool integer_order)) {
  const double sens = log_uniform(a, 1e-3, 1e3);
  const double z_target = log_uniform(b, 0.6, 30.0);
  const double sigma = std::stod(format_input(z_target * sens));  // a decimal input, as a user types it
  // Fractional orders: q in [1e-3, 0.5] (outside, the series converges too slowly for a fast reference; there the
  // accountant falls back to the convexity chord, a valid but looser bound).
  const double q = integer_order ? log_uniform(c, 1e-6, 0.99) : log_uniform(c, 1e-3, 0.5);
  const double alpha = integer_order ? std::floor(log_uniform(d, 2, 64)) : log_uniform(d, 2.5, 40);
  RC_PRE(alpha != std::floor(alpha) || integer_order);
  const M qm(q), zm = div(M(sigma), M(sens));
  M A;
  if (alpha == std::floor(alpha)) {
    A = integer_reference(qm, zm, static_cast<long>(alpha));
  } else {
    const auto f = fractional_reference(qm, zm, alpha);
    RC_PRE(f.has_value());
    A = *f;
  }
  M ref = div(mlog(A), M(alpha - 1));
  Real reference;
  mpfr_set(reference.backend().data(), ref.v, MPFR_RNDN);
  RC_PRE(reference > 0);
  const std::string spec = "gaussian:sigma=" + format_input(sigma) + ",sens=" + format_input(sens) +
                           ",q=" + format_input(q);
  const ComposedRdp composed(Ledger{parse_entry(spec)});
  const SubsampledGaussianRdp curve(q, sigma, sens);
  // The 200-bit path (up to 2500 MPFI series terms) is checked at integer orders here and at fractional ones by
  // the golden tests; the fast path (what compose reports) everywhere.
  std::vector<Interval> values{composed.certified_at(alpha)};
  if (integer_order) values.push_back(curve.at(Real(alpha)));
  for (const Interval& v : values) {
    const Real printed(format_upper(v));
    RC_ASSERT(printed >= reference * (1 - Real("1e-19")));  // the reference's own truncation
    RC_ASSERT(printed - reference <= reference * Real(integer_order ? "1e-9" : "1e-6"));
  }
}

}  // namespace
}  // namespace dpl
