// SPDX-License-Identifier: Apache-2.0
#include "accounting/gamma/certified_gamma.h"

#include "accounting/errors.h"

#include <cmath>
#include <queue>
#include <string>
#include <vector>

namespace dpl {

namespace {

// ~100 bits per endpoint: enough for the cancellation in Theta = L(y) - L(y - e) down to e ~ 1e-12, several times
// faster than the 200-bit Interval. Conversions between the two go through mpfi_set (outward rounding).
using Fast = boost::multiprecision::number<boost::multiprecision::mpfi_float_backend<30>,
                                           boost::multiprecision::et_off>;

Fast to_fast(const Interval& x) {
  Fast r;
  mpfi_set(r.backend().data(), x.backend().data());
  return r;
}

Interval to_interval(const Fast& x) {
  Interval r;
  mpfi_set(r.backend().data(), x.backend().data());
  return r;
}

Fast fast_exact(double x) {
  Fast r;
  mpfi_set_d(r.backend().data(), x);
  return r;
}

Fast fast_hull(const Fast& a, const Fast& b) {
  Fast r;
  mpfi_union(r.backend().data(), a.backend().data(), b.backend().data());
  return r;
}

Fast fast_intersect(const Fast& a, const Fast& b) {
  Fast r;
  mpfi_intersect(r.backend().data(), a.backend().data(), b.backend().data());
  return mpfi_is_empty(r.backend().data()) ? a : r;  // b only tightens a proven range; never empties it
}

// Width rounded up (HUGE_VAL for an unbounded or NaN enclosure), to rank panels and test convergence.
double fast_width(const Fast& x) {
  mpfr_t w;
  mpfr_init2(w, 64);
  mpfi_diam_abs(w, x.backend().data());
  const double d = mpfr_get_d(w, MPFR_RNDU);
  mpfr_clear(w);
  return std::isnan(d) ? HUGE_VAL : d;
}

Interval intersect_or(const Interval& a, const Interval& b) {
  Interval r;
  mpfi_intersect(r.backend().data(), a.backend().data(), b.backend().data());
  return mpfi_is_empty(r.backend().data()) ? b : r;
}

// Above this e = beta shift the closed-form enclosure is used (relative width ~ 1/e).
constexpr double kLargeShift = 1e6;
// Piece [e, u/2] is integrated up to e + kTailStart; the rest is enclosed by its bound ~ e^{-100}.
constexpr double kTailStart = 100;

// J(y) = int_0^u e^{-|y - z|} dz = 2 - e^{-y} - e^{-(u - y)} for y in [0, u] and its derivatives (J''' = J').
struct Window {
  Fast j, d1, d2;
};
Window window(const Fast& u, const Fast& y) {
  const Fast a = exp(-y), b = exp(-(u - y));
  return {-expm1(-y) - expm1(-(u - y)), a - b, -a - b};
}

// Derivatives of L = log J on [0, u]: L' = J'/J, L'' = J''/J - (J'/J)^2, L''' = J'/J - 3 J'' J'/J^2 + 2 (J'/J)^3.
struct LogWindow {
  Fast d1, d2, d3;
};
LogWindow log_window(const Fast& u, const Fast& w) {
  const Window j = window(u, w);
  const Fast r1 = j.d1 / j.j, r2 = j.d2 / j.j;
  return {r1, r2 - r1 * r1, r1 - 3 * r2 * r1 + 2 * r1 * r1 * r1};
}

struct Piece {
  Fast start, length;  // enclosures of the exact end points (products of doubles, halves)
  bool shifted_inside;  // y - e in [0, u] on this piece (else y - e < 0)
};

struct Panel {
  double t0, t1;  // dyadic fractions of the piece: exact
  int piece;
  Fast integral;  // encloses int_{y(t0)}^{y(t1)} f
  double width;
  bool operator<(const Panel& o) const { return width < o.width; }
};

class Integrand {
 public:
  Integrand(const Fast& u, const Fast& e) : u_(u), e_(e), tail_(-expm1(-u)) {}

  // f(m) at a thin m (Theta by the cancellation-free forms of pointwise_loss in average_case_gamma.cpp).
  Fast value(const Fast& m, bool shifted_inside) const {
    const Window j = window(u_, m);
    Fast theta;
    if (shifted_inside) {
      const Fast diff = exp(-m) * expm1(e_) + exp(-(u_ - m)) * expm1(-e_);
      theta = log1p(diff / window(u_, m - e_).j);
    } else {
      theta = (e_ - m) + log(j.j / tail_);  // J(y - e) = e^{y - e} (1 - e^{-u}) for y < e
    }
    return j.j * theta / (2 * u_);
  }

  // Encloses f'' = (J'' Theta + 2 J' Theta' + J Theta'')/(2u) over the whole panel y.
  Fast second_derivative(const Fast& y, bool shifted_inside) const {
    const Window j = window(u_, y);
    Fast th, th1, th2;
    if (shifted_inside) {
      // Mean value on [y - e, y] (inside [0, u], where L is analytic): Theta^{(k)} = e L^{(k+1)}(w).
      const Fast w = fast_hull(y - e_, y);
      const LogWindow l = log_window(u_, w);
      th = fast_intersect(e_ * l.d1, fast_hull(Fast(0), e_));  // 0 <= Theta <= e (Thm 2.2.1)
      th1 = e_ * l.d2;
      th2 = e_ * l.d3;
    } else {
      // Theta = e - y + L(y) - log(1 - e^{-u}): Theta' = L'(y) - 1, Theta'' = L''(y).
      const LogWindow l = log_window(u_, y);
      th = fast_intersect((e_ - y) + log(j.j / tail_), fast_hull(Fast(0), e_));
      th1 = l.d1 - 1;
      th2 = l.d2;
    }
    return (j.d2 * th + 2 * j.d1 * th1 + j.j * th2) / (2 * u_);
  }

 private:
  Fast u_, e_, tail_;
};

Panel make_panel(const Integrand& f, const std::vector<Piece>& pieces, int piece, double t0, double t1) {
  const Piece& p = pieces[static_cast<std::size_t>(piece)];
  const Fast h = fast_exact(t1 - t0) * p.length;  // t1 - t0 is exact (dyadic)
  const Fast m = p.start + fast_exact(0.5 * (t0 + t1)) * p.length;
  const Fast y = fast_hull(p.start + fast_exact(t0) * p.length, p.start + fast_exact(t1) * p.length);
  // Composite midpoint rule with remainder (Davis-Rabinowitz, Methods of Numerical Integration, eq. 2.6.5).
  Panel out{t0, t1, piece, h * f.value(m, p.shifted_inside) + h * h * h / 24 * f.second_derivative(y, p.shifted_inside), 0};
  out.width = fast_width(out.integral);
  return out;
}


}  // namespace

GammaEnclosure certified_gamma(double omega, double beta, double shift, double rel_tol, int max_panels) {
  if (!(omega > 0 && std::isfinite(omega))) throw InputError("omega=" + std::to_string(omega) + " is out of range: allowed (0, inf)");
  if (!(beta > 0 && std::isfinite(beta))) throw InputError("beta=" + std::to_string(beta) + " is out of range: allowed (0, inf)");
  if (!(shift > 0 && std::isfinite(shift))) throw InputError("shift=" + std::to_string(shift) + " is out of range: allowed (0, inf)");
  // u and e exactly (a product of two doubles fits in 200 bits), then enclosed at the working precision.
  return certified_gamma(exact(beta) * exact(omega), exact(beta) * exact(shift), rel_tol, max_panels);
}

GammaEnclosure certified_gamma(const Interval& U, const Interval& E, double rel_tol, int max_panels) {
  if (!(rel_tol > 0) || max_panels < 2) throw InputError("certified_gamma: rel_tol > 0 and max_panels >= 2 required");
  if (!certainly_gt(U, exact(0.0)) || !certainly_gt(E, exact(0.0)) || !is_finite(U) || !is_finite(E))
    throw InputError("certified_gamma: u = beta omega and e = beta shift must be finite and > 0");
  const Fast u = to_fast(U), e = to_fast(E);
  const Interval half_i = U / exact(2.0);
  const bool split = certainly_lt(E, half_i);  // e < u/2: pieces [0, e] and [e, u/2]
  const Fast head = -expm1(-u) / u;  // the outputs outside the interval: Theta = e there (exact part)
  const Interval unit = hull(exact(0.0), exact(1.0));
  GammaEnclosure out;
  if (certainly_ge(E, exact(kLargeShift))) {
    // e >= 1e6: closed-form enclosure. On [0, c], c = min(e, u/2): Theta = e - y + log(J(y)/(1 - e^{-u})) with
    // J(0) = 1 - e^{-u} <= J(y) <= 2 (J increasing on [0, u/2]), so Theta in [e - y, e - y + Lmax],
    // Lmax = log(2/(1 - e^{-u})); on [e, u/2]: Theta = log J(y) - log J(y - e) in [0, Lmax]. With
    // Q(c) = int_0^c J = 2c - (1 - e^{-c}) - (e^{-(u-c)} - e^{-u}) and R(c) = int_0^c y J = c^2 - (1 - (1+c) e^{-c})
    // - ((c-1) e^{c-u} + e^{-u}), int J Theta over [0, c] is in [e Q - R, e Q - R + Lmax Q]; gamma = head +
    // int_0^{u/2} J Theta/(e u). Relative width ~ Lmax/e <= 1e-6 (certified, no quadrature).
    const Fast lmax = log(2 / -expm1(-u));
    auto q = [&](const Fast& c) { return 2 * c + expm1(-c) - (exp(-(u - c)) - exp(-u)); };
    auto r = [&](const Fast& c) { return c * c - (1 - (1 + c) * exp(-c)) - ((c - 1) * exp(c - u) + exp(-u)); };
    const Fast c = split ? e : to_fast(half_i);
    const Fast base = e * q(c) - r(c);
    Fast upper = base + lmax * q(c), lower = base;
    if (split) upper += lmax * (q(to_fast(half_i)) - q(e));
    const Fast g = head + fast_hull(lower, upper) / (e * u);
    const Interval gi = to_interval(g);
    out.gamma = is_finite(gi) ? intersect_or(gi, unit) : unit;
    out.converged = fast_width(g) <= rel_tol * mpfr_get_d(&g.backend().data()->left, MPFR_RNDD);
    return out;
  }
  // e + kTailStart < u/2: piece B stops at y_T = e + kTailStart; for y >= y_T, Theta <= e^{-y} expm1(e)/J(y_T - e)
  // (log1p(z) <= z, J increasing) and J <= 2, so int_{y_T}^{u/2} J Theta <= 2 (1 - e^{-e}) e^{-kTailStart}/J(kTailStart).
  const bool truncated = split && certainly_gt(half_i - E, exact(kTailStart));
  Fast tail(0);
  if (truncated) {
    const Fast t = fast_exact(kTailStart);
    tail = fast_hull(Fast(0), 2 * -expm1(-e) * exp(-t) / window(u, t).j);
  }
  std::vector<Piece> pieces;
  if (split) {
    pieces.push_back({Fast(0), e, false});
    pieces.push_back({e, truncated ? fast_exact(kTailStart) : to_fast(half_i - E), true});
  } else if (certainly_ge(E, half_i)) {
    pieces.push_back({Fast(0), to_fast(half_i), false});
  } else {
    throw NotApplicable("certified_gamma: e = u/2 up to 200 bits cannot be ordered; perturb the inputs");
  }
  const Integrand f(u, e);
  std::priority_queue<Panel> queue;
  Fast total(0);
  for (int p = 0; p < static_cast<int>(pieces.size()); ++p)
    for (int k = 0; k < 8; ++k) {
      Panel panel = make_panel(f, pieces, p, k / 8.0, (k + 1) / 8.0);
      total += panel.integral;
      queue.push(std::move(panel));
    }
  // The integral of f = J Theta/(2u): the panels plus the tail's int J Theta/(2u).
  auto gamma_of = [&](const Fast& integral) { return head + 2 * (integral + tail / (2 * u)) / e; };
  // Sum from scratch at the end (a running sum of intervals would keep the removed panels' widths).
  auto resum = [&]() {
    Fast s(0);
    std::priority_queue<Panel> copy = queue;
    while (!copy.empty()) {
      s += copy.top().integral;
      copy.pop();
    }
    return s;
  };
  int panels = static_cast<int>(queue.size());
  Fast g = gamma_of(total);
  while (true) {
    const double w = fast_width(g);
    const double v = mpfr_get_d(&g.backend().data()->left, MPFR_RNDD);
    if (w <= rel_tol * v) {
      out.converged = true;
      break;
    }
    if (panels >= max_panels) break;
    // Bisect the widest panels (a batch of a quarter, at least one), then resum.
    const int batch = std::max(1, std::min(panels / 4, max_panels - panels));
    for (int b = 0; b < batch && !queue.empty(); ++b) {
      const Panel top = queue.top();
      queue.pop();
      const double mid = 0.5 * (top.t0 + top.t1);
      if (!(mid > top.t0 && mid < top.t1)) {  // no dyadic refinement left: keep it
        queue.push(top);
        break;
      }
      queue.push(make_panel(f, pieces, top.piece, top.t0, mid));
      queue.push(make_panel(f, pieces, top.piece, mid, top.t1));
      ++panels;
    }
    g = gamma_of(resum());
  }
  // 0 <= gamma <= 1 (Thm 2.2.1: 0 <= Theta <= e pointwise); an enclosure that failed (NaN) is replaced by [0, 1].
  const Interval gi = to_interval(g);
  out.gamma = is_finite(gi) && !std::isnan(fast_width(g)) ? intersect_or(gi, unit) : unit;
  out.panels = panels;
  return out;
}

}  // namespace dpl
