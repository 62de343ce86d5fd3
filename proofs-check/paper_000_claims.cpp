// Seed 000: H. Xiao, "Local Differential Privacy in Decentralized Optimization" (MIT S.M. thesis, 2019).
// Each claim recomputes both sides: the average-case gamma of Thm 2.2.2 by MPFR quadrature (accounting/gamma),
// the pointwise loss of Thm 2.2.1 and App. D exactly, the secret sharing of App. A by exhaustive enumeration,
// Lemma 3.3.1 and Sec. 3.3 by seeded Monte Carlo, Algorithm 1 by running it (algorithms/seed000).
#include "accounting/gamma/average_case_gamma.h"
#include "accounting/mechanisms/analytic_gaussian.h"
#include "algorithms/graphs/graph.h"
#include "algorithms/run/run_parameters.h"
#include "algorithms/run/run_result.h"
#include "algorithms/seed000/admm_random_aggregation.h"
#include "algorithms/seed000/random_stochastic_matrices.h"
#include "proofs-check/counterexample_search.h"
#include "proofs-check/registry.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

namespace dpl::proofs {
namespace {

double d(const Real& x) { return x.convert_to<double>(); }

// Thm 2.2.2, eq. (2.6): the printed closed form must be >= the exact gamma wherever omega > B_inf/D_i (u > e).
ClaimResult check_eq_2_6(const CheckContext& ctx) {
  const double raise = ctx.constant("bound_raise", 0);
  std::vector<Axis> axes{
      {"u", 0.1, 10, ctx.quick ? std::vector<double>{0.2, 1, 5} : std::vector<double>{0.1, 0.2, 0.5, 1, 2, 5, 10}, true},
      {"e", 0.001, 1, ctx.quick ? std::vector<double>{0.002, 0.01, 0.5} : std::vector<double>{0.001, 0.002, 0.01, 0.1, 0.5, 1}, true}};
  double worst_gamma = 0, worst_bound = 0;
  const auto margin = [&](const Point& p) {
    const double u = p[0], e = p[1];
    if (!(u > e)) return kInfinity;  // outside the theorem's hypothesis omega > B_inf / D_i
    const GammaResult g = average_case_gamma(u, 1, e);
    const double m = d(g.thesis_bound) + raise - d(g.gamma) - d(g.quadrature_error);
    return m;
  };
  const SearchOutcome s = search_counterexample(axes, ctx.quick ? 4 : 24, ctx.seed, margin);
  ClaimResult r;
  r.region = "beta = 1 (gamma depends on u = beta*omega and e = beta*B_inf/D_i only), " + s.region +
             "; points with u <= e skipped (hypothesis omega > B_inf/D_i)";
  r.deficit = -s.worst_margin;
  {
    const GammaResult g = average_case_gamma(s.worst_point[0], 1, s.worst_point[1]);
    worst_gamma = d(g.gamma);
    worst_bound = d(g.thesis_bound) + raise;
  }
  r.claimed = "(2.6) >= gamma; at the worst point " + describe(axes, s.worst_point) + ": (2.6) = " + num(worst_bound, 10);
  r.computed = "exact gamma there = " + num(worst_gamma, 10) + " (MPFR Gauss-Kronrod); (2.6) below gamma at " +
               std::to_string(s.failures) + " of " + std::to_string(s.evaluated) + " points; largest deficit " +
               num(r.deficit, 4);
  if (s.smallest_failure) {
    const Point& p = *s.smallest_failure;
    const GammaResult g = average_case_gamma(p[0], 1, p[1]);
    r.status = Status::fails;
    r.counterexample = "omega = " + num(p[0], 8) + ", beta = 1, shift = " + num(p[1], 8) + ": (2.6) = " +
                       num(d(g.thesis_bound) + raise, 10) + " < gamma = " + num(d(g.gamma), 10);
    r.reproduce = "dpledger gamma --omega " + num(p[0], 8) + " --beta 1 --shift " + num(p[1], 8);
  } else {
    r.status = Status::holds;
    r.reproduce = "dpledger gamma --omega 1 --beta 1 --shift 0.01";
  }
  r.note = "App. D picks the wrong maximising shift on [0, (omega - alpha B)/2] (see 000/app-D-bullets), so (2.6) "
           "integrates a smaller ratio than the max (e.g. u = 1, e = 0.01: 0.78781 < 0.79055). "
           "(2.6) is above gamma at large u with small e (e.g. omega = 1, beta = 10, shift = 0.001).";
  return r;
}

// Thm 2.2.1: Theta(y) <= e everywhere, = e outside (0, u), < e inside.
ClaimResult check_thm_2_2_1(const CheckContext& ctx) {
  const double factor = ctx.constant("worst_case_factor", 1);
  std::vector<Axis> axes{{"u", 0.001, 20, {0.01, 1, 10}, true},
                         {"e", 0.0001, 5, {0.001, 0.1, 2}, true},
                         {"y_over_u", -2, 3, {-1, 0, 0.25, 0.5, 1, 2}}};
  const auto margin = [&](const Point& p) {
    const Real u(p[0]), e(p[1]), y(p[2] * p[0]);
    const double theta = d(pointwise_loss(u, e, y)), bound = factor * p[1];
    const bool inside = p[2] > 0 && p[2] < 1;
    if (bound - theta < -1e-12 * p[1]) return (bound - theta) / p[1];
    if (!inside) return 1e-9 - std::abs(theta - p[1]) / p[1];  // equality outside the interval
    return theta < bound ? (bound - theta) / p[1] : -1e-300;   // strict inside
  };
  const SearchOutcome s = search_counterexample(axes, ctx.quick ? 300 : 3000, ctx.seed, margin);
  ClaimResult r;
  r.region = s.region;
  r.claimed = "Theta(y) <= " + num(factor) + " * beta*B_inf/D_i, with equality iff y outside the interval";
  r.computed = "exact Theta (MPFR, cancellation-free) at " + std::to_string(s.evaluated) + " points; smallest margin " +
               num(s.worst_margin, 4) + " (relative to e)";
  record_search_verdict(r, s, axes);
  r.reproduce = "dpledger check 000/thm-2.2.1";
  r.note = "Normalised to beta = 1: interval [0, u], shift |t| <= e; Theta is the max over t, attained at an endpoint "
           "(000/app-D-max).";
  return r;
}

// App. D: the max over |t| <= alpha B_inf of |log I(x;0)/I(x;t)| is attained at t = +-alpha B_inf.
ClaimResult check_app_d_max(const CheckContext& ctx) {
  std::vector<Axis> axes{{"u", 0.01, 10, {0.1, 1, 5}, true}, {"e", 0.001, 3, {0.01, 0.5}, true}, {"y_over_u", -1, 2, {-0.5, 0.1, 0.5, 0.9, 1.5}}};
  const int tgrid = 200;
  const auto margin = [&](const Point& p) {
    const Real u(p[0]), e(p[1]), y(p[2] * p[0]);
    const Real jy = laplace_window(u, y);
    Real best = 0;
    for (int i = 0; i <= tgrid; ++i) {
      const Real t = e * (2 * Real(i) / tgrid - 1);
      best = std::max(best, Real(abs(log(jy / laplace_window(u, y - t)))));
    }
    const Real endpoint = pointwise_loss(u, e, y);
    return d((endpoint - best) / e) + 1e-20;
  };
  const SearchOutcome s = search_counterexample(axes, ctx.quick ? 40 : 300, ctx.seed, margin);
  ClaimResult r;
  r.region = s.region + "; t on a 201-point grid of [-e, e]";
  r.claimed = "max_{|t|<=e} |log J(y)/J(y-t)| is attained at t = +-e";
  r.computed = "endpoint value minus grid maximum, relative to e: smallest " + num(s.worst_margin, 4);
  record_search_verdict(r, s, axes);
  r.reproduce = "dpledger check 000/app-D-max";
  r.note = "True by log-concavity of t -> J(y - t) (concave log-ratio with value 0 at t = 0).";
  return r;
}

// App. D bullets: on [0, (omega - alpha B)/2] the maximal ratio is I(x;-alpha B)/I(x;0).
ClaimResult check_app_d_bullets(const CheckContext& ctx) {
  std::vector<Axis> axes{{"u", 0.1, 10, {0.5, 1, 5}, true}, {"e", 0.001, 0.05, {0.01}, true}, {"y_over_a", 0, 1, {0.1, 0.5, 0.9}}};
  const auto margin = [&](const Point& p) {
    const Real u(p[0]), e(p[1]);
    const Real a = (u - e) / 2;
    if (!(a > 0)) return kInfinity;
    const Real y = Real(p[2]) * a;
    // The bullet's ratio I(x;-s)/I(x;0) = J(y + e)/J(y); the true pointwise loss Theta(y).
    const Real bullet = abs(log(laplace_window(u, y + e) / laplace_window(u, y)));
    const Real theta = pointwise_loss(u, e, y);
    return d((bullet - theta) / e) + 1e-12;
  };
  const SearchOutcome s = search_counterexample(axes, ctx.quick ? 30 : 200, ctx.seed, margin);
  ClaimResult r;
  r.region = s.region + " (y = y_over_a * (u - e)/2, the bullets' first region)";
  r.claimed = "the loss on [0, (omega - alpha B)/2] is log I(x;-alpha B)/I(x;0) (the max)";
  r.computed = "bullet value minus exact Theta, relative to e: smallest " + num(s.worst_margin, 4);
  r.deficit = -s.worst_margin;
  if (s.smallest_failure) {
    const Point& p = *s.smallest_failure;
    r.status = Status::fails;
    r.counterexample = describe(axes, p) + ": the bullet's log-ratio is below Theta (the max is at the shift away from y)";
  } else {
    r.status = Status::holds;
  }
  r.reproduce = "dpledger check 000/app-D-bullets";
  r.note = "The shift that attains the max moves the neighbour's interval away from y (t = +e for y <= u/2); the "
           "bullets use the shift toward y. This is why (2.6) is too small (000/eq-2.6).";
  return r;
}

// Thm 2.2.1, fixed parameters (omega = 0): average = worst, gamma = 1.
ClaimResult check_fixed_parameters(const CheckContext& ctx) {
  const std::vector<std::pair<double, double>> pts = ctx.quick ? std::vector<std::pair<double, double>>{{1e-7, 0.01}}
                                                                 : std::vector<std::pair<double, double>>{{1e-7, 0.001}, {1e-7, 0.01}, {1e-6, 0.5}, {1e-8, 2}};
  double worst = 0;
  std::ostringstream list;
  for (auto [u, e] : pts) {
    const double g = d(average_case_gamma(u, 1, e).gamma);
    worst = std::max(worst, std::abs(1 - g));
    list << (list.tellp() ? ", " : "") << "(u=" << num(u) << ", e=" << num(e) << "): " << num(g, 12);
  }
  ClaimResult r;
  r.claimed = "gamma = 1 when the aggregation weights are fixed (omega -> 0): total loss sum_k d beta_{k+1} B_inf/D_i";
  r.computed = "gamma " + list.str();
  r.region = "omega -> 0 (u = 1e-8 .. 1e-6) and e in {0.001 .. 2}";
  r.status = worst < 1e-5 ? Status::holds : Status::fails;
  r.deficit = worst - 1e-5;
  r.reproduce = "dpledger gamma --omega 1e-7 --beta 1 --shift 0.01";
  r.note = "omega = 0 exactly is the Laplace mechanism (Theta = e everywhere); the quadrature is taken at tiny omega.";
  return r;
}

// Fig. 2-1 (left): larger omega and beta give better amplification (gamma decreasing), shift B_inf/D_i = 0.001.
ClaimResult check_fig_2_1(const CheckContext& ctx) {
  const std::vector<double> omegas = ctx.quick ? std::vector<double>{0.1, 0.5, 1} : std::vector<double>{0.1, 0.4, 0.7, 1};
  const std::vector<double> betas = ctx.quick ? std::vector<double>{2, 6, 10} : std::vector<double>{2, 4, 6, 8, 10};
  std::vector<std::vector<double>> g(omegas.size(), std::vector<double>(betas.size()));
  for (std::size_t i = 0; i < omegas.size(); ++i)
    for (std::size_t j = 0; j < betas.size(); ++j) g[i][j] = d(average_case_gamma(omegas[i], betas[j], 0.001).gamma);
  double margin = kInfinity;
  std::string where;
  for (std::size_t i = 0; i < omegas.size(); ++i)
    for (std::size_t j = 0; j < betas.size(); ++j) {
      if (!(g[i][j] > 0 && g[i][j] <= 1)) margin = -1, where = "gamma out of (0, 1]";
      if (i + 1 < omegas.size() && g[i][j] - g[i + 1][j] < margin) margin = g[i][j] - g[i + 1][j], where = "omega";
      if (j + 1 < betas.size() && g[i][j] - g[i][j + 1] < margin) margin = g[i][j] - g[i][j + 1], where = "beta";
    }
  ClaimResult r;
  r.region = "the figure's grid: omega in [0.1, 1] (" + std::to_string(omegas.size()) + " values), beta in [2, 10] (" +
             std::to_string(betas.size()) + " values), B_inf/D_i = 0.001";
  r.claimed = "gamma decreases as omega or beta grows, 0 < gamma <= 1";
  r.computed = "gamma from " + num(g.front().front(), 6) + " (omega 0.1, beta 2) to " + num(g.back().back(), 6) +
               " (omega 1, beta 10); smallest decrease between neighbours " + num(margin, 4) + " (along " + where + ")";
  r.status = margin > 0 ? Status::holds : Status::fails;
  r.deficit = -margin;
  r.reproduce = "dpledger gamma --omega 0.1:1:4 --beta 2:10:5 --shift 0.001";
  r.note = "With a larger shift e the beta-monotonicity can reverse (gamma increases in e); the figure's shift is small.";
  return r;
}

// Thm 2.1.1: summing N' honest Gaussian updates gives (eps/sqrt(N'), delta): eps_exact(sqrt(N') sigma) <=
// eps_exact(sigma)/sqrt(N') for the exact (analytic) Gaussian mechanism.
ClaimResult check_thm_2_1_1(const CheckContext& ctx) {
  std::vector<Axis> axes{{"sigma", 0.3, 30, {0.5, 1, 3, 10}, true},
                         {"N'", 2, 64, {2, 4, 16}, false, true},
                         {"delta", 1e-10, 0.05, {1e-5, 1e-2}, true}};
  const auto margin = [&](const Point& p) {
    const double sigma = p[0], n = p[1], delta = p[2];
    // Certified direction: a lower bound on eps(sigma)/sqrt(N') against an upper bound on eps(sqrt(N') sigma).
    const auto one = analytic_gaussian_epsilon(exact(1) / exact(sigma), delta);
    const double e1_lo = one.lower ? lo_down(*one.lower) : lo_down(one.epsilon);  // bisection bracket otherwise
    const double e2_hi = hi_up(analytic_gaussian_epsilon(exact(1) / (exact(sigma) * sqrt(exact(n))), delta).epsilon);
    return e1_lo / std::sqrt(n) * (1 - 1e-15) - e2_hi;
  };
  const SearchOutcome s = search_counterexample(axes, ctx.quick ? 6 : 40, ctx.seed, margin);
  ClaimResult r;
  r.region = s.region + "; sensitivity 1";
  r.claimed = "noise sum of N' honest nodes ~ N(0, N' sigma^2) gives eps/sqrt(N') at the same delta";
  r.computed = "exact eps(sqrt(N') sigma) vs eps(sigma)/sqrt(N') (Balle-Wang, certified): smallest margin " +
               num(s.worst_margin, 4) + " at " + describe(axes, s.worst_point);
  record_search_verdict(r, s, axes);
  r.reproduce = "dpledger compose -m gaussian:sigma=2 --delta 1e-5 --accountant optimal";
  r.note = "Exact under the classical calibration (eps proportional to 1/sigma); conservative for the analytic "
           "Gaussian (eps(mu)/mu increases in mu). Per round: the thesis says nothing on composition over K rounds "
           "or modular wrap-around.";
  return r;
}

// App. A: the colluders' view (shares received, broadcasts) depends on the honest inputs only through their sum
// (exhaustive enumeration over all share choices).
ClaimResult check_app_a(const CheckContext& ctx) {
  struct Case {
    int p, n, honest;
  };
  const std::vector<Case> cases = ctx.quick ? std::vector<Case>{{5, 3, 2}} : std::vector<Case>{{5, 3, 2}, {7, 3, 2}, {5, 4, 2}, {3, 4, 3}};
  std::ostringstream out;
  bool all_equal = true, single_leaks = true;
  for (const Case& c : cases) {
    // View distribution of the colluders (nodes honest..n-1) for honest inputs x[0..honest-1]. Each honest i draws
    // shares s_i0..s_i,n-2 uniform mod p, s_i,n-1 = x_i - sum; colluders' own shares are independent of x and
    // omitted. View: s_ij for colluders j, and broadcasts hat s_h = sum_i s_ih for honest h (honest part).
    auto view_distribution = [&](const std::vector<int>& x) {
      std::map<std::vector<int>, long> counts;
      const int per = c.n - 1;
      long combos = 1;
      for (int i = 0; i < c.honest * per; ++i) combos *= c.p;
      std::vector<int> free(c.honest * per);
      for (long idx = 0; idx < combos; ++idx) {
        long rest = idx;
        for (auto& f : free) f = static_cast<int>(rest % c.p), rest /= c.p;
        std::vector<std::vector<int>> s(c.honest, std::vector<int>(c.n));
        for (int i = 0; i < c.honest; ++i) {
          int sum = 0;
          for (int j = 0; j < per; ++j) sum += (s[i][j] = free[i * per + j]);
          s[i][c.n - 1] = ((x[i] - sum) % c.p + c.p) % c.p;
        }
        std::vector<int> view;
        for (int i = 0; i < c.honest; ++i)
          for (int j = c.honest; j < c.n; ++j) view.push_back(s[i][j]);
        for (int h = 0; h < c.honest; ++h) {
          int b = 0;
          for (int i = 0; i < c.honest; ++i) b += s[i][h];
          view.push_back(b % c.p);
        }
        ++counts[view];
      }
      return counts;
    };
    // Compare all honest input vectors with honest sum 1 against the reference (1, 0, ..., 0).
    std::vector<int> ref(c.honest, 0);
    ref[0] = 1;
    const auto base = view_distribution(ref);
    int compared = 0;
    for (int a = 0; a < c.p; ++a) {
      std::vector<int> x(c.honest, 0);
      x[0] = a;
      x[1] = ((1 - a) % c.p + c.p) % c.p;
      all_equal = all_equal && view_distribution(x) == base;
      ++compared;
    }
    out << (out.tellp() ? "; " : "") << "p=" << c.p << ", N=" << c.n << ", N'=" << c.honest << ": " << compared
        << " input vectors with equal honest sum give identical view distributions";
  }
  // N' = 1: the colluders see s_i,j for j != i and the broadcast of i, which reveals s_ii and hence x_i.
  {
    const int p = 5;
    // x = s_00 + s_01 + s_02; colluders {1,2} hold s_01, s_02 and see hat s_0 = s_00 + s_10 + s_20 with their own
    // s_10, s_20 known: x_0 is determined. Check for every x_0 and share draw.
    for (int x0 = 0; x0 < p; ++x0)
      for (int a = 0; a < p; ++a)
        for (int b = 0; b < p; ++b) {
          const int s00 = ((x0 - a - b) % p + p) % p;
          const int recovered = (s00 + a + b) % p;
          single_leaks = single_leaks && recovered == x0;
        }
  }
  ClaimResult r;
  r.region = "exhaustive enumeration of every share choice; " + out.str();
  r.claimed = "with N' >= 2 semi-honest nodes the colluders learn only the sum of the honest updates";
  r.computed = std::string(all_equal ? "identical view distributions in every case" : "view distributions DIFFER") +
               (single_leaks ? "; with N' = 1 the view determines x_i (no amplification, as the thesis says)" : "");
  r.status = all_equal ? Status::holds : Status::fails;
  r.reproduce = "dpledger check 000/app-A";
  r.note = "Secrecy of additive N-out-of-N sharing (App. A steps 1-4); the amplification itself is 000/thm-2.1.1.";
  return r;
}

// Lemma 3.3.1: E|W~(i1,j) - W~(i2,j)| <= 1/2 E phi(W_2(:,j)) for the model-(b) random stochastic matrices.
ClaimResult check_lemma_3_3_1(const CheckContext& ctx) {
  const double factor = ctx.constant("factor", 0.5);
  algorithms::Rng rng(ctx.seed);
  const std::vector<int> sizes = ctx.quick ? std::vector<int>{4, 8} : std::vector<int>{4, 6, 10, 20};
  const int draws = ctx.quick ? 400 : 4000;
  double worst_ratio = 0;
  std::ostringstream list;
  for (int n : sizes) {
    const algorithms::LemmaCheck c = algorithms::lemma_331_check(n, draws, rng);
    worst_ratio = std::max(worst_ratio, c.lhs / c.rhs);
    list << (list.tellp() ? ", " : "") << "N=" << n << ": " << num(c.lhs / c.rhs, 4);
  }
  ClaimResult r;
  r.region = "model (b), N in {" + [&] { std::string s; for (int n : sizes) s += (s.empty() ? "" : ", ") + std::to_string(n); return s; }() +
             "}, " + std::to_string(draws) + " Monte Carlo draws each, seed " + std::to_string(ctx.seed);
  r.claimed = "LHS/RHS <= " + num(factor);
  r.computed = "LHS/RHS " + list.str();
  r.deficit = worst_ratio - factor;
  // Monte Carlo: the ratio's sampling error at these draws is below 0.005 (each draw averages over all pairs and
  // columns), so a margin above 0.02 is decided with error probability far below 1e-6; closer calls are reported
  // inconclusive.
  const double gap = factor - worst_ratio;
  r.status = gap > 0.02 ? Status::holds : gap < -0.02 ? Status::fails : Status::inconclusive;
  if (r.status == Status::fails) r.counterexample = "N = " + std::to_string(sizes.front()) + ": LHS/RHS ~ 1/3 > " + num(factor);
  r.reproduce = "dpledger check 000/lemma-3.3.1";
  r.note = "Holds loosely (the measured ratio is far below 1/2): the proof's (3/4 - 1/4) should be E|r1 - r2| = 1/3, "
           "i.e. LHS = (1/3) E|mean_top - mean_bottom|.";
  return r;
}

// Algorithm 1 with the dual update as printed (lambda <- lambda - zeta sum (x_j - x_i)) converges.
ClaimResult check_alg_1_dual_sign(const CheckContext&) {
  auto run = [](const std::string& sign) {
    algorithms::RunParameters p = algorithms::RunParameters::from_assignments({"noise=off", "K=40", "dual_sign=" + sign});
    return algorithms::run_admm_random_aggregation(p, 5);
  };
  const algorithms::RunResult printed = run("printed"), corrected = run("corrected");
  const double e0 = printed.trace.front().consensus_error, e1 = printed.trace.back().consensus_error;
  const double c0 = corrected.trace.front().consensus_error, c1 = corrected.trace.back().consensus_error;
  const bool diverged = printed.extra.value("diverged", false) || e1 > 1e3 * e0;
  ClaimResult r;
  r.region = "the reference instance of `dpledger run admm-random-aggregation` (noise off, K = 40, seed 5)";
  r.claimed = "Algorithm 1 as printed converges to the consensus optimum";
  r.computed = "printed sign: consensus error " + num(e0, 4) + " -> " + num(e1, 4) +
               (printed.extra.value("diverged", false) ? " (diverged)" : "") + "; corrected sign (+zeta): " +
               num(c0, 4) + " -> " + num(c1, 4);
  r.status = diverged ? Status::fails : Status::holds;
  if (diverged) {
    r.counterexample = "noise off, K = 40: the printed dual update is anti-consensus (2-node dual error x (1 + 2 zeta/D) per step)";
    r.reproduce = "dpledger run admm-random-aggregation --set noise=off --set K=40 --set dual_sign=printed --seed 5";
  }
  r.note = "Read lambda_i <- lambda_i + zeta sum_j (x_j - x_i), as derived from (3.5); the corrected run converges.";
  return r;
}

// Sec. 3.3 (Figs. 3-1/3-2): products of random stochastic matrices contract exponentially.
ClaimResult check_sec_3_3(const CheckContext& ctx) {
  algorithms::Rng rng(ctx.seed);
  const int k_max = 10, draws = ctx.quick ? 50 : 300;
  std::ostringstream list;
  bool ok = true;
  double worst_r2 = 1;
  for (auto [kind, model] : {std::pair{"ring", algorithms::StochasticMatrixModel::self_weight},
                             std::pair{"ring", algorithms::StochasticMatrixModel::pair_weight},
                             std::pair{"random", algorithms::StochasticMatrixModel::self_weight}}) {
    const algorithms::Graph g = algorithms::make_graph(kind, 10, 20, rng);
    const auto decay = algorithms::consensus_decay(g, model, true, k_max, draws, rng);
    const auto fit = algorithms::fit_log_linear(decay);
    // Exponential decay: a negative log-linear slope with a good fit, and a smaller value at K = 10 than at K = 1.
    ok = ok && fit.slope < 0 && fit.r_squared > 0.9 && decay.back() < decay.front();
    worst_r2 = std::min(worst_r2, fit.r_squared);
    list << (list.tellp() ? "; " : "") << kind << "/" << (model == algorithms::StochasticMatrixModel::self_weight ? "Fig.3-1" : "Fig.3-2")
         << ": slope " << num(fit.slope, 3) << ", R^2 " << num(fit.r_squared, 4);
  }
  ClaimResult r;
  r.region = "N = 10 (ring, random graph with 20 edges), K = 1..10, " + std::to_string(draws) + " draws, seed " + std::to_string(ctx.seed);
  r.claimed = "E phi(prod_k W_k (:, j)) decays exponentially in K (log-linear fit: slope < 0, R^2 > 0.9)";
  r.computed = list.str();
  r.status = ok ? Status::holds : Status::fails;
  r.deficit = 0.9 - worst_r2;
  r.reproduce = "dpledger consensus";
  r.note = "Fig. 3-2's rows as printed do not sum to 1; the factor-2 reading is used (docs/seed000.md, E20). Monte Carlo: each "
           "mean has a relative standard error of a few percent at these draws, far below the decay measured (the ring's "
           "R^2 ~ 0.95 reflects a curved transient, not noise).";
  return r;
}

}  // namespace

std::vector<Claim> paper_000_claims() {
  return {
      {"000/eq-2.6", "Theorem 2.2.2, eq. (2.6)",
       "the closed form (2.6) is an upper bound on the average-case amplification gamma (omega > B_inf/D_i)",
       Status::fails, {"bound_raise=0"}, check_eq_2_6},
      {"000/thm-2.2.1", "Theorem 2.2.1, eq. (2.5)",
       "the per-step loss is at most beta_k B_inf/D_i, strictly smaller when x lies in the aggregation interval",
       Status::holds, {"worst_case_factor=1"}, check_thm_2_2_1},
      {"000/app-D-max", "Appendix D, proof of Theorem 2.2.2 (first step)",
       "the maximum over |t| <= alpha B_inf of the log-ratio is attained at t = +-alpha B_inf", Status::holds, {},
       check_app_d_max},
      {"000/app-D-bullets", "Appendix D, the four bullets before (D.3)",
       "on [0, (omega - alpha B_inf)/2] the maximal ratio is I(x; -alpha B_inf)/I(x; 0)", Status::fails, {},
       check_app_d_bullets},
      {"000/thm-2.2.1-fixed", "Section 2.2, corollary after Theorem 2.2.1",
       "with fixed aggregation parameters the average loss equals the worst (gamma = 1)", Status::holds, {},
       check_fixed_parameters},
      {"000/fig-2-1", "Section 2.2, Fig. 2-1 (left) and its text",
       "larger omega and beta lead to better privacy amplification (smaller gamma)", Status::holds, {}, check_fig_2_1},
      {"000/thm-2.1.1", "Theorem 2.1.1",
       "secret-sharing DGD with N' semi-honest nodes is (eps/sqrt(N'), delta)-DP", Status::holds, {},
       check_thm_2_1_1},
      {"000/app-A", "Appendix A, proof of Theorem 2.1.1",
       "the colluders learn only the sum of the semi-honest nodes' updates (no amplification when N' = 1)",
       Status::holds, {}, check_app_a},
      {"000/lemma-3.3.1", "Lemma 3.3.1",
       "E|W~(i1,j) - W~(i2,j)| <= 1/2 E phi(W_2(:,j)) for random stochastic matrices of model (b)", Status::holds,
       {"factor=0.5"}, check_lemma_3_3_1},
      {"000/alg-1", "Algorithm 1, dual update",
       "Algorithm 1 as printed (lambda <- lambda - zeta sum_j (x_j - x_i)) converges", Status::fails, {},
       check_alg_1_dual_sign},
      {"000/sec-3.3", "Section 3.3, Figs. 3-1 and 3-2",
       "products of the random stochastic matrices contract exponentially, like the fixed ones", Status::holds, {},
       check_sec_3_3},
  };
}

}  // namespace dpl::proofs
