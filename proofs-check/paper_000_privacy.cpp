// SPDX-License-Identifier: Apache-2.0
// Seed 000 (Xiao 2019), privacy claims beyond the gamma integral: Lemma 2.2.1 (the transcript's privacy loss is
// the sum of agent i's per-step, per-coordinate log-ratios) on simulated transcripts, footnote 2's advanced
// composition against the exact composition of randomized responses, and the "30% reduction" by runs of the
// library's Algorithm 1 with the experiment's parameters.
#include "accounting/errors.h"
#include "accounting/gamma/average_case_gamma.h"
#include "accounting/numeric/portable_math.h"
#include "algorithms/rng/portable_rng.h"
#include "algorithms/run/run_parameters.h"
#include "algorithms/run/run_result.h"
#include "algorithms/seed000/admm_random_aggregation.h"
#include "proofs-check/counterexample_search.h"
#include "proofs-check/paper_000_checks.h"
#include "proofs-check/pure_composition_exact.h"
#include "proofs-check/run_statistics.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <sstream>
#include <vector>

namespace dpl::proofs::seed000 {
namespace {

// The density of one released coordinate of Algorithm 1 (2.2), x = r a + (1 - r) b + c + Lap(rate beta) with
// r ~ U(0, 1), by Gauss-Legendre quadrature over r (20 nodes on each side of the kink where x - c = r a + (1-r) b):
// an independent evaluation of the mixture density (the claim side uses the closed form J(y)/(2 omega)).
double mixture_density_by_quadrature(double x, double a, double b, double c, double beta) {
  static const std::array<double, 10> nodes{0.0765265211334973, 0.2277858511416451, 0.3737060887154195,
                                            0.5108670019508271, 0.6360536807265150, 0.7463319064601508,
                                            0.8391169718222188, 0.9122344282513259, 0.9639719272779138,
                                            0.9931285991850949};
  static const std::array<double, 10> weights{0.1527533871307258, 0.1491729864726037, 0.1420961093183820,
                                              0.1316886384491766, 0.1181945319615184, 0.1019301198172404,
                                              0.0832767415767048, 0.0626720483341091, 0.0406014298003869,
                                              0.0176140071391521};
  const auto f = [&](double r) { return 0.5 * beta * portable::binary64::exp(-beta * std::abs(x - c - (r * a + (1 - r) * b))); };
  const auto integrate = [&](double lo, double hi) {
    if (!(hi > lo)) return 0.0;
    const double m = 0.5 * (lo + hi), h = 0.5 * (hi - lo);
    double s = 0;
    for (std::size_t i = 0; i < nodes.size(); ++i) s += weights[i] * (f(m - h * nodes[i]) + f(m + h * nodes[i]));
    return s * h;
  };
  if (a == b) return f(0.5);
  const double kink = (x - c - b) / (a - b);  // where the exponent's argument vanishes
  if (kink <= 0 || kink >= 1) return integrate(0, 1);
  return integrate(0, kink) + integrate(kink, 1);
}

}  // namespace

// Lemma 2.2.1: for a transcript chi of Algorithm 1, log P(chi | f~_i)/P(chi | f^_i) = sum_k sum_l of agent i's
// per-coordinate log-ratios. The exact side is the log-likelihood ratio of the whole transcript (every agent, every
// step and coordinate) with each density by quadrature over the random weight; the claim side is the lemma's sum with
// the closed-form density J(y)/(2 omega) (accounting/gamma). Transcripts are simulated under f^_i.
ClaimResult check_lemma_2_2_1(const CheckContext& ctx) {
  const double scale = ctx.constant("sum_scale", 1);
  const int n = 3, dim = 2, steps = 3;
  const double D = 2, zeta = 0.5, b_inf = 0.5, q = 1;
  const int transcripts = ctx.quick ? 20 : 200;
  algorithms::Rng rng(ctx.seed);
  const std::array<std::array<double, 2>, 3> targets{{{1, -1}, {0, 2}, {-1.5, 0.5}}};
  double worst = 0, largest_llr = 0;
  std::string counter;
  for (int t = 0; t < transcripts; ++t) {
    // The neighbouring function f~_i adds a linear term: its gradient differs by shift (|shift_l| <= B_inf).
    const std::array<double, 2> shift{b_inf * (2 * rng.uniform01() - 1), t % 2 == 0 ? b_inf : -b_inf};
    std::vector<std::array<double, 2>> x(n), lambda(n, {0, 0});
    for (auto& xi : x)
      for (double& v : xi) v = rng.uniform(-1, 1);
    double exact = 0, lemma = 0;
    for (int k = 0; k < steps; ++k) {
      const double beta = 1.5 * portable::pow(1.02, k + 1);
      std::vector<std::array<double, 2>> next(n);
      for (int j = 0; j < n; ++j)
        for (int l = 0; l < dim; ++l) {
          double mean_others = 0;
          for (int o = 0; o < n; ++o)
            if (o != j) mean_others += x[o][l] / (n - 1);
          const double grad = q * (x[j][l] - targets[j][l]);
          const double c_hat = (-grad + lambda[j][l]) / D;                      // under f^_i
          const double c_tilde = j == 0 ? c_hat - shift[l] / D : c_hat;          // agent 0 is i
          const double r = rng.uniform01();
          next[j][l] = r * x[j][l] + (1 - r) * mean_others + c_hat + rng.laplace_rate(beta);
          // Exact side: every factor of the transcript's likelihood (the other agents' cancel given the history).
          exact += portable::binary64::log(mixture_density_by_quadrature(next[j][l], x[j][l], mean_others, c_tilde, beta)) -
                   portable::binary64::log(mixture_density_by_quadrature(next[j][l], x[j][l], mean_others, c_hat, beta));
          if (j == 0) {
            // Lemma side: agent i's factor by the closed form J(beta (x - lo))/(2 omega) (the 2 omega cancels).
            const double lo = std::min(x[j][l], mean_others), omega = std::abs(x[j][l] - mean_others);
            const Real u(beta * omega);
            const Real ratio = log(laplace_window(u, Real(beta * (next[j][l] - lo - c_tilde)))) -
                               log(laplace_window(u, Real(beta * (next[j][l] - lo - c_hat))));
            lemma += ratio.convert_to<double>();
          }
        }
      for (int j = 0; j < n; ++j)
        for (int l = 0; l < dim; ++l) {
          double s = 0;
          for (int o = 0; o < n; ++o)
            if (o != j) s += next[o][l] - next[j][l];
          lambda[j][l] += zeta * s;  // the corrected sign (docs/xiao2019.md E4)
        }
      x = next;
    }
    const double gap = std::abs(exact - scale * lemma) / (1 + std::abs(exact));
    largest_llr = std::max(largest_llr, std::abs(exact));
    if (gap > worst) {
      worst = gap;
      if (gap > 1e-8) {
        std::ostringstream c;
        c << "transcript " << t << " (shift " << num(shift[0], 3) << ", " << num(shift[1], 3) << "): exact log-likelihood ratio "
          << num(exact, 10) << ", " << num(scale) << " x the lemma's sum = " << num(scale * lemma, 10);
        counter = c.str();
      }
    }
  }
  ClaimResult r;
  r.region = "Algorithm 1 (2.2) with the corrected dual sign, complete graph N = 3, d = 2, K = 3, D = 2, zeta = 0.5, beta_k = "
             "1.5 x 1.02^k, f_j = ||x - a_j||^2/2, f~_i = f^_i + <shift, x> with |shift_l| <= B_inf = 0.5; " +
             std::to_string(transcripts) + " transcripts drawn under f^_i, seed " + std::to_string(ctx.seed);
  r.claimed = "log P(chi | f~_i)/P(chi | f^_i) = " + num(scale) + " x sum_k sum_l log P(x_i^{k+1}[l] | f~_i, history)/P(. | f^_i, history)";
  r.computed = "largest |exact - claimed| relative to 1 + |exact|: " + num(worst, 3) + " (largest |log-likelihood ratio| " +
               num(largest_llr, 4) + "; densities by quadrature over the random weight vs the closed form)";
  r.deficit = worst - 1e-8;
  r.status = worst <= 1e-8 ? Status::holds : Status::fails;
  if (r.status == Status::fails) r.counterexample = counter;
  r.reproduce = "dpledger check 000/lemma-2.2.1";
  r.note = "The chain rule over steps and the independence of the coordinates' noise; the other agents' factors cancel "
           "because their conditional laws do not involve f_i. The lemma's sup over (f^_i, f~_i) is outside the sum; "
           "the per-step bound of each term is 000/thm-2.2.1.";
  return r;
}

// Footnote 2: the advanced composition of the per-step losses. As printed the whole bound is multiplied by log(delta)
// (negative): no mechanism is (eps, delta)-DP with eps < 0 and e^eps + delta < 1 (take S = the whole output space).
// The reading without the trailing log(delta), eps~ = sum eps (e^eps - 1)/(e^eps + 1) + sqrt(2 log(1/delta) sum
// eps^2) (Kairouz-Oh-Viswanath), is checked against the exact delta of the composition (randomized responses).
ClaimResult check_footnote_2(const CheckContext& ctx) {
  const double factor = ctx.constant("sqrt_factor", 2);
  std::vector<Axis> axes{{"eps1", 0.005, 1, {0.01, 0.1, 0.5}, true},
                         {"k1", 1, 300, {1, 10, 100, 300}, true, true},
                         {"eps2", 0.005, 1, {0.02, 0.3}, true},
                         {"k2", 0, 100, {0, 20}, false, true},
                         {"delta", 1e-8, 0.3, {1e-6, 1e-3, 0.1}, true}};
  const auto reading = [&](const Point& p) {
    const double e1 = p[0], e2 = p[2], k1 = p[1], k2 = p[3];
    const double mean_part = k1 * e1 * portable::binary64::expm1(e1) / (portable::binary64::exp(e1) + 1) + k2 * e2 * portable::binary64::expm1(e2) / (portable::binary64::exp(e2) + 1);
    return mean_part + std::sqrt(factor * portable::binary64::log(1 / p[4]) * (k1 * e1 * e1 + k2 * e2 * e2));
  };
  const auto margin = [&](const Point& p) {
    const double eps = reading(p);
    const double delta = exact_pure_composition_delta(p[0], static_cast<std::int64_t>(p[1]), p[2], static_cast<std::int64_t>(p[3]), eps);
    return (p[4] - delta) / p[4] + 1e-9;
  };
  const SearchOutcome s = search_counterexample(axes, ctx.quick ? 6 : 60, ctx.seed, margin);
  // As printed: (reading) x log(delta) < 0; violated when e^{eps} + delta < 1.
  const Point first{0.1, 10, 0.02, 0, 1e-6};
  const double printed = reading(first) * portable::binary64::log(first[4]);
  const double whole_space = portable::binary64::exp(printed) + first[4];
  ClaimResult r;
  r.region = "two groups of pure steps (k1 of eps1, k2 of eps2, delta_l = 0): " + s.region;
  r.claimed = "(sum eps (e^eps - 1)/(e^eps + 1) + sqrt(-" + num(factor) + " sum eps^2 log delta)) log(delta), delta)-LDP";
  r.computed = "as printed at " + describe(axes, first) + ": eps = " + num(printed, 6) + " < 0, and e^eps + delta = " +
               num(whole_space, 6) + " < 1; without the trailing log(delta): exact delta(eps~)/delta smallest margin " +
               num(s.worst_margin, 4) + " at " + describe(axes, s.worst_point);
  r.deficit = -s.worst_margin;
  if (s.smallest_failure) {
    r.status = Status::fails;
    const Point& p = *s.smallest_failure;
    r.counterexample = describe(axes, p) + ": eps~ = " + num(reading(p), 6) + " but the exact composition needs delta = " +
                       num(exact_pure_composition_delta(p[0], static_cast<std::int64_t>(p[1]), p[2], static_cast<std::int64_t>(p[3]), reading(p)), 6) +
                       " (and as printed eps < 0)";
  } else {
    r.status = Status::fails_as_printed;
    r.counterexample = describe(axes, first) + ": the printed eps = " + num(printed, 6) +
                       " is negative; the whole output space S has P(S) = 1 > e^eps P'(S) + delta = " + num(whole_space, 6);
    r.holds_where = "without the trailing log(delta), with the sum over the K steps actually run (k = 0..K-1): the "
                    "Kairouz-Oh-Viswanath bound, confirmed against the exact composition on the region searched";
  }
  r.reproduce = "dpledger compose -m pure:eps=0.1,steps=10 --delta 1e-6 --accountant optimal";
  r.note = "The printed sum runs to k = K (one step more than Algorithm 1 makes: eps_l^{K+1} is not defined); the "
           "footnote's composition is of the per-step worst cases e = beta_k B_inf/D_i.";
  return r;
}

// Sec. 2.2 (Fig. 2-1 right, b) and the abstract: "on average, we achieve 30% privacy loss reduction" ("empirically
// around 30%"), by runs of the library's Algorithm 1 with the experiment's parameters on synthetic data of the
// experiment's shape (the UCI Adult data are not shipped): reduction = 1 - expected loss / worst case.
ClaimResult check_30_percent(const CheckContext& ctx) {
  const double claimed = ctx.constant("reduction", 0.3);
  const std::vector<std::uint64_t> seeds = ctx.quick ? std::vector<std::uint64_t>{1} : std::vector<std::uint64_t>{1, 2, 3};
  std::vector<double> reductions;
  std::ostringstream list;
  for (std::uint64_t seed : seeds) {
    algorithms::RunParameters p = algorithms::RunParameters::from_assignments(
        {"data=synthetic", "synthetic_rows=1000", "synthetic_dim=14", "agents=10", "per_agent=100", "graph=random",
         "edges=20", "loss=logistic", "l2=1", "l1=0", "K=100", "D=10", "zeta=0.5", "beta0=1", "growth=1.02",
         "random_weights=on", "noise=on", "b_inf=0", "dual_sign=corrected", "average_case=on", "gamma=auto"});
    const algorithms::RunResult run = algorithms::run_admm_random_aggregation(p, seed);
    const auto& acc = run.accounted;
    if (!acc.contains("expected_epsilon") || !acc["expected_epsilon"].is_number() || !acc["epsilon"].is_number())
      throw NotApplicable("the run recorded no expected loss (diverged or average_case off)");
    const double worst = acc["epsilon"].get<double>(), expected = acc["expected_epsilon"].get<double>();
    reductions.push_back(1 - expected / worst);
    list << (list.tellp() ? "; " : "") << "seed " << seed << ": worst " << num(worst, 5) << ", expected " << num(expected, 5)
         << ", reduction " << num(1 - expected / worst, 4);
  }
  const MeanEstimate m = mean_of(reductions);
  // "Around 30%": within a third of the claimed reduction (20%..40% for the printed 30%).
  const double tolerance = claimed / 3;
  ClaimResult r;
  r.region = "the library's Algorithm 1 (explicit parameters): N = 10, random graph with 20 edges, 100 synthetic samples "
             "of d = 14 per agent, logistic loss + ||x||^2/2, D = 10, zeta = 0.5, beta_k = 1.02^k, K = 100, r ~ U(0,1), B_inf = the replace-one bound 2/b_i = 0.02; " +
             std::to_string(seeds.size()) + " seeded runs";
  r.claimed = "reduction of the average loss against the worst case = " + num(claimed) + " (accepted within +-" + num(tolerance, 3) + ")";
  r.computed = list.str() + "; mean reduction " + describe(m, 4) +
               " (expected loss: sum beta s gamma along the run, gamma by its certified upper enclosure)";
  r.deficit = std::abs(m.mean - claimed) - tolerance;
  r.status = r.deficit <= 0 ? Status::holds : Status::fails;
  if (r.status == Status::fails)
    r.counterexample = "measured reduction " + num(m.mean, 4) + ", not within " + num(tolerance, 3) + " of " + num(claimed);
  r.reproduce = "dpledger run admm-random-aggregation --seed 1";
  r.note = "Synthetic data of the experiment's shape (the Adult curves themselves need the data set). The library enforces the "
           "replace-one sensitivity 2/b_i (the thesis's one-sided 1/b_i is below it); s = B_inf/D enters gamma(beta omega, beta s) "
           "only at O(beta s) < 0.015, and cancels from the ratio otherwise. The expected loss is "
           "an upper bound (certified gamma), so the reduction is a lower bound. The thesis's other '30%' (Fig. E-2: "
           "Algorithm 2* has 30% of [45]'s loss) needs [45]'s accountant and is listed as left out.";
  return r;
}

}  // namespace dpl::proofs::seed000
