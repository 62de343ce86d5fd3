#include "accounting/pld/discrete_pld.h"

#include <fftw3.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

namespace dpl {

namespace {

constexpr double kU = std::numeric_limits<double>::epsilon() / 2;  // unit round-off
constexpr double kInf = std::numeric_limits<double>::infinity();
// Margins that dominate the float64 errors of the survival functions (relative ~1e-15) and of the
// connect-the-dots weights (relative ~1e-8, from the cancellation 1 - r e^{l}): see docs/pld_accountant.md.
constexpr double kSurvivalMargin = 1e-12;
constexpr double kWeightMargin = 1e-6;
// Blocks replicated at least this many times are convolved in long double.
constexpr double kExtendedFactor = 32;

std::int64_t find_upper(const LossPair& pair, double h, double tail) {
  if (std::isfinite(pair.support_hi)) return static_cast<std::int64_t>(std::ceil(pair.support_hi / h));
  std::int64_t i = 1;
  while (pair.survival_p(static_cast<double>(i) * h) > tail) i *= 2;
  std::int64_t lo = i / 2, hi = i;  // S(lo h) > tail (or lo = 0), S(hi h) <= tail
  while (hi - lo > 1) {
    const std::int64_t m = lo + (hi - lo) / 2;
    if (pair.survival_p(static_cast<double>(m) * h) > tail) lo = m; else hi = m;
  }
  return hi;
}

std::int64_t find_lower(const LossPair& pair, double h, double tail, double finite_mass) {
  if (std::isfinite(pair.support_lo)) return static_cast<std::int64_t>(std::floor(pair.support_lo / h));
  std::int64_t i = -1;
  while (finite_mass - pair.survival_p(static_cast<double>(i) * h) > tail) i *= 2;
  std::int64_t lo = i, hi = i / 2;  // mass below lo h <= tail; below hi h > tail (or hi = 0)
  while (hi - lo > 1) {
    const std::int64_t m = lo + (hi - lo) / 2;
    if (finite_mass - pair.survival_p(static_cast<double>(m) * h) > tail) hi = m; else lo = m;
  }
  return lo;
}

double l1(const std::vector<double>& v) {
  long double s = 0;
  for (double x : v) s += std::abs(x);
  return static_cast<double>(s);
}
double l2(const std::vector<double>& v) {
  long double s = 0;
  for (double x : v) s += static_cast<long double>(x) * x;
  return static_cast<double>(std::sqrt(s));
}

// Moves the lower and upper tails (each of mass <= tail) off the vector: pessimistic sends the upper tail to
// +inf and the lower tail to the first kept point; optimistic sends the upper tail to the last kept point and
// drops the lower tail. Exact bookkeeping (sums in long double).
void truncate(DiscretePld& d, double tail) {
  std::size_t lo = 0, hi = d.p.size();
  long double low_mass = 0, high_mass = 0;
  while (lo + 1 < hi && low_mass + d.p[lo] <= tail) low_mass += d.p[lo++];
  while (hi - 1 > lo && high_mass + d.p[hi - 1] <= tail) high_mass += d.p[--hi];
  std::vector<double> kept(d.p.begin() + static_cast<std::ptrdiff_t>(lo), d.p.begin() + static_cast<std::ptrdiff_t>(hi));
  if (d.pessimistic) {
    kept.front() += static_cast<double>(low_mass);
    d.p_inf += static_cast<double>(high_mass);
  } else {
    kept.back() += static_cast<double>(high_mass);
  }
  // One rounding per moved sum.
  d.err_l1 += 4 * kU * static_cast<double>(low_mass + high_mass + 1e-300);
  d.offset += static_cast<std::int64_t>(lo);
  d.p = std::move(kept);
}

// Higham 2002, Thm 24.2: a computed FFT has ||dy||_2 <= eF ||y||_2, eF = log2(n) eta/(1 - log2(n) eta), with
// eta = mu + gamma_4 (sqrt 2 + mu), mu the twiddle error (<= 4u taken). Three transforms and the pointwise
// product give ||dz||_2 <= (3 eF + 4u) ||a||_1 ||b||_2 (||F a||_inf <= ||a||_1), and ||dz||_1 <= sqrt(m) ||dz||_2.
double fft_roundoff_l1(std::size_t n, std::size_t m, const DiscretePld& a, const DiscretePld& b, double u) {
  const double lg = std::log2(static_cast<double>(n));
  const double mu = 4 * u, gamma4 = 4 * u / (1 - 4 * u);
  const double eta = mu + gamma4 * (std::sqrt(2.0) + mu);
  const double eF = lg * eta / (1 - lg * eta);
  const double norm = std::min(l1(a.p) * l2(b.p), l2(a.p) * l1(b.p));
  return std::sqrt(static_cast<double>(m)) * (3 * eF + 4 * u) * norm;
}

}  // namespace

DiscretePld discretize(const LossPair& pair, double h, double tail, bool pessimistic) {
  if (!(h > 0)) throw std::invalid_argument("internal: discretize needs h > 0");
  DiscretePld d;
  d.h = h;
  d.pessimistic = pessimistic;
  const double finite = 1 - pair.p_inf;
  const std::int64_t hi = find_upper(pair, h, tail);
  const std::int64_t lo = std::min(find_lower(pair, h, tail, finite), hi - 1);
  const std::size_t n = static_cast<std::size_t>(hi - lo + 1);
  d.offset = lo;
  d.p.assign(n, 0.0);
  // Survival values at the grid points, moved by the margin in the safe direction and made monotone.
  std::vector<double> sp(n), sq(n);
  const double up = pessimistic ? 1 + kSurvivalMargin : 1 - kSurvivalMargin;
  for (std::size_t k = 0; k < n; ++k) {
    const double l = static_cast<double>(lo + static_cast<std::int64_t>(k)) * h;
    sp[k] = std::min(finite, pair.survival_p(l) * up);
    sq[k] = pair.survival_q(l);
  }
  for (std::size_t k = 1; k < n; ++k) sp[k] = std::min(sp[k], sp[k - 1]);
  const double spread = -std::expm1(-h);  // 1 - e^{-h}
  for (std::size_t k = 0; k + 1 < n; ++k) {
    const double pc = sp[k] - sp[k + 1];
    if (pc <= 0) continue;
    double w = 0;  // share of the cell's P-mass at its upper end
    if (pessimistic) {
      const double qc = std::max(0.0, sq[k] - sq[k + 1]);
      const double l = static_cast<double>(lo + static_cast<std::int64_t>(k)) * h;
      // Connect-the-dots: w = (1 - r e^{l})/(1 - e^{-h}), r = Qc/Pc (Q-mass preserved), biased upwards.
      const double rho = qc / pc * std::exp(l);
      w = std::clamp((1 - rho) / spread + kWeightMargin, 0.0, 1.0);
    }
    d.p[k] += (1 - w) * pc;
    d.p[k + 1] += w * pc;
  }
  const double below = finite - sp[0], above = sp[n - 1];
  if (pessimistic) {
    d.p[0] += std::max(0.0, below);
    d.p_inf = pair.p_inf + above;
  } else {
    d.p[n - 1] += std::max(0.0, above);
    d.p_inf = pair.p_inf;
  }
  // Each mass is a difference and a product of float64 numbers: a few ulps each (the margins cover the
  // survival-function errors themselves).
  d.err_l1 = 8 * kU * (1 + static_cast<double>(n) * 1e-300);
  return d;
}

DiscretePld compose(const DiscretePld& a, const DiscretePld& b, double tail, bool extended) {
  if (a.h != b.h || a.pessimistic != b.pessimistic) throw std::invalid_argument("internal: compose of mismatched PLDs");
  DiscretePld out;
  out.h = a.h;
  out.pessimistic = a.pessimistic;
  out.offset = a.offset + b.offset;
  const std::size_t m = a.p.size() + b.p.size() - 1;
  std::size_t n = 1;
  while (n < m) n *= 2;
  std::vector<double> conv(m);
  if (std::min(a.p.size(), b.p.size()) <= 64) {
    // Direct convolution: each output is a sum of at most min(na, nb) products (relative error ~ 2 min u).
    for (std::size_t i = 0; i < a.p.size(); ++i)
      for (std::size_t j = 0; j < b.p.size(); ++j) conv[i + j] += a.p[i] * b.p[j];
    out.err_l1 = 2 * static_cast<double>(std::min(a.p.size(), b.p.size()) + 1) * kU * l1(a.p) * l1(b.p);
  } else if (extended) {
    // The same product in 80-bit long double (fftw3l): unit round-off 2^-64 instead of 2^-53.
    long double* x = fftwl_alloc_real(n);
    long double* y = fftwl_alloc_real(n);
    fftwl_complex* X = fftwl_alloc_complex(n / 2 + 1);
    fftwl_complex* Y = fftwl_alloc_complex(n / 2 + 1);
    fftwl_plan px = fftwl_plan_dft_r2c_1d(static_cast<int>(n), x, X, FFTW_ESTIMATE);
    fftwl_plan py = fftwl_plan_dft_r2c_1d(static_cast<int>(n), y, Y, FFTW_ESTIMATE);
    fftwl_plan pz = fftwl_plan_dft_c2r_1d(static_cast<int>(n), X, x, FFTW_ESTIMATE);
    std::fill(x, x + n, 0.0L);
    std::fill(y, y + n, 0.0L);
    std::copy(a.p.begin(), a.p.end(), x);
    std::copy(b.p.begin(), b.p.end(), y);
    fftwl_execute(px);
    fftwl_execute(py);
    for (std::size_t k = 0; k < n / 2 + 1; ++k) {
      const long double re = X[k][0] * Y[k][0] - X[k][1] * Y[k][1];
      const long double im = X[k][0] * Y[k][1] + X[k][1] * Y[k][0];
      X[k][0] = re / static_cast<long double>(n);
      X[k][1] = im / static_cast<long double>(n);
    }
    fftwl_execute(pz);
    for (std::size_t k = 0; k < m; ++k) conv[k] = static_cast<double>(x[k]);
    fftwl_destroy_plan(px);
    fftwl_destroy_plan(py);
    fftwl_destroy_plan(pz);
    fftwl_free(x);
    fftwl_free(y);
    fftwl_free(X);
    fftwl_free(Y);
    out.err_l1 = fft_roundoff_l1(n, m, a, b, std::numeric_limits<long double>::epsilon() / 2) +
                 kU * l1(conv);  // the final rounding to double
  } else {
    // Cached buffers and plans per transform size (thread-local): no allocation or planning per call.
    struct Workspace {
      std::size_t n = 0;
      double *x = nullptr, *y = nullptr;
      fftw_complex *X = nullptr, *Y = nullptr;
      fftw_plan px{}, py{}, pz{};
      void ensure(std::size_t size) {
        if (size == n) return;
        release();
        n = size;
        x = fftw_alloc_real(n);
        y = fftw_alloc_real(n);
        X = fftw_alloc_complex(n / 2 + 1);
        Y = fftw_alloc_complex(n / 2 + 1);
        px = fftw_plan_dft_r2c_1d(static_cast<int>(n), x, X, FFTW_ESTIMATE);
        py = fftw_plan_dft_r2c_1d(static_cast<int>(n), y, Y, FFTW_ESTIMATE);
        pz = fftw_plan_dft_c2r_1d(static_cast<int>(n), X, x, FFTW_ESTIMATE);
      }
      void release() {
        if (n == 0) return;
        fftw_destroy_plan(px);
        fftw_destroy_plan(py);
        fftw_destroy_plan(pz);
        fftw_free(x);
        fftw_free(y);
        fftw_free(X);
        fftw_free(Y);
        n = 0;
      }
      ~Workspace() { release(); }
    };
    thread_local Workspace ws;
    ws.ensure(n);
    double *x = ws.x, *y = ws.y;
    fftw_complex *X = ws.X, *Y = ws.Y;
    std::fill(x, x + n, 0.0);
    std::fill(y, y + n, 0.0);
    std::copy(a.p.begin(), a.p.end(), x);
    std::copy(b.p.begin(), b.p.end(), y);
    fftw_execute(ws.px);
    fftw_execute(ws.py);
    for (std::size_t k = 0; k < n / 2 + 1; ++k) {
      const double re = X[k][0] * Y[k][0] - X[k][1] * Y[k][1];
      const double im = X[k][0] * Y[k][1] + X[k][1] * Y[k][0];
      X[k][0] = re / static_cast<double>(n);
      X[k][1] = im / static_cast<double>(n);
    }
    fftw_execute(ws.pz);
    std::copy(x, x + m, conv.begin());
    out.err_l1 = fft_roundoff_l1(n, m, a, b, kU);
  }
  // Negative round-off values are clamped (the exact values are >= 0, so this only reduces the error).
  for (double& v : conv) v = std::max(0.0, v);
  out.p = std::move(conv);
  // Propagation: ||a~*b~ - a*b||_1 <= ea ||b~||_1 + eb ||a||_1 <= ea (1 + eb) + eb (1 + ea) (masses <= 1).
  out.err_l1 = out.err_l1 * (1 + 4 * kU) + a.err_l1 * (1 + b.err_l1) + b.err_l1 * (1 + a.err_l1);
  // +inf atoms: P(L_a + L_b = inf) = 1 - (1 - pa)(1 - pb), rounded in the safe direction.
  const double pinf = a.p_inf + b.p_inf - a.p_inf * b.p_inf;
  out.p_inf = a.pessimistic ? pinf * (1 + 4 * kU) : pinf * (1 - 4 * kU);
  truncate(out, tail);
  return out;
}

DiscretePld self_compose(const DiscretePld& a, std::int64_t k, double tail) {
  if (k < 1) throw std::invalid_argument("internal: self_compose needs k >= 1");
  // An error or a truncated mass in a block of 2^j steps is replicated about k / 2^j times in the result, so
  // blocks with a large replication factor use 80-bit FFTs and proportionally smaller truncation tails.
  DiscretePld result;
  bool have = false;
  DiscretePld base = a;
  std::int64_t block = 1;
  while (k >= block) {
    if (k & block) {
      const double factor = static_cast<double>(k) / static_cast<double>(block);
      result = have ? compose(result, base, tail / factor, factor >= kExtendedFactor) : base;
      have = true;
    }
    if (2 * block > k) break;
    const double factor = static_cast<double>(k) / static_cast<double>(2 * block);
    base = compose(base, base, tail / factor, factor >= kExtendedFactor);
    block *= 2;
  }
  return result;
}

double pld_delta(const DiscretePld& d, double eps) {
  long double s = 0;
  for (std::size_t k = d.p.size(); k-- > 0;) {
    const double l = static_cast<double>(d.offset + static_cast<std::int64_t>(k)) * d.h;
    if (l <= eps) break;
    s += static_cast<long double>(d.p[k]) * -std::expm1(eps - l);
  }
  const double sum = static_cast<double>(s) + d.p_inf;
  // Summation and expm1 errors: a few ulps of each term; the l1 error bound of the masses.
  const double err = d.err_l1 + 4 * kU * sum + 1e-300;
  return d.pessimistic ? std::min(1.0, sum + err) : std::max(0.0, sum - err);
}

double pld_epsilon(const DiscretePld& d, double delta) {
  if (pld_delta(d, 0.0) <= delta) return 0.0;
  double hi = static_cast<double>(d.offset + static_cast<std::int64_t>(d.p.size())) * d.h;
  if (!(hi > 0)) hi = d.h;
  if (pld_delta(d, hi) > delta) return kInf;  // the +inf atom and the error budget exceed delta
  double lo = 0;
  for (int it = 0; it < 200 && hi - lo > 1e-15 * hi; ++it) {
    const double mid = 0.5 * (lo + hi);
    if (!(mid > lo && mid < hi)) break;
    if (pld_delta(d, mid) <= delta) hi = mid; else lo = mid;
  }
  return d.pessimistic ? hi : lo;
}

}  // namespace dpl
