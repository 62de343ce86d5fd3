// SPDX-License-Identifier: Apache-2.0
// Seed 003: E. Cyffers, A. Bellet, D. Basu, "From Noisy Fixed-Point Iterations to Private ADMM for Centralized
// and Federated Learning". RDP claims: the exact Renyi divergence of the released z_K on linear losses (the
// library's ADMM operator gives the mean gap, the Gaussian noise is data-independent), accounting/rdp for the
// Poisson-subsampled Gaussian (certified); Theorem 1 by exact second moments on linear contractions (and seeded
// runs of the library's Algorithm 1); Corollaries 5.1-5.3 by minimising Theorem 1's bound at the theorems' noise;
// the proof steps of Theorem 4 and Appendix C.2 by exact series, seeded simulation of the random walk and
// eigenvalues.
#include "accounting/numeric/portable_math.h"
#include "accounting/rdp/rdp_basic_mechanisms.h"
#include "accounting/rdp/rdp_subsampled_gaussian.h"
#include "algorithms/rng/portable_rng.h"
#include "algorithms/seed003/consensus_admm_operator.h"
#include "algorithms/seed003/fixed_point_iteration.h"
#include "proofs-check/counterexample_search.h"
#include "proofs-check/rate_derivation.h"
#include "proofs-check/registry.h"
#include "proofs-check/run_statistics.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <functional>
#include <sstream>

namespace dpl::proofs {
// The checks of this paper (a namespace of their own: the papers name their theorems alike).
namespace paper_003_checks {
namespace {

// Lemma C.1's validity region for sampling rate q and noise multiplier z at order alpha (as printed).
bool lemma_c1_valid(double q, double z, double alpha) {
  const double M = portable::binary64::log(1 + 1 / (q * (alpha - 1)));
  return q < 0.2 && z >= 4 && alpha <= (M * M * z * z / 2 - portable::binary64::log(5 * z * z)) / (M + portable::binary64::log(q * alpha) + 1 / (2 * z * z));
}

// Theorem 3 (central) = Theorem 10: federated private ADMM is (alpha, 16 K alpha L^2 gamma^2/(n^2 sigma^2))-RDP
// against a third party. Recomputed: the released increment (1/n) sum_{j in S} Delta u_j has sensitivity
// 4 lambda L gamma/n and noise (lambda/n) sqrt(m) sigma, i.e. noise multiplier z = sqrt(m) sigma/(4 L gamma),
// subsampled with q = m/n; its exact RDP per round (Poisson model, Mironov-Talwar-Zhang) times K.
ClaimResult check_thm_10(const CheckContext& ctx) {
  const double c16 = ctx.constant("constant", 16);
  const double n = 1000;
  std::vector<Axis> axes{{"m", 10, 199, {10, 100}, true, true}, {"sigma", 4, 64, {4, 8, 16}, true}, {"alpha", 2, 64, {2, 3, 5, 8}, false, true}};
  const auto margin = [&](const Point& p) {
    const double m = p[0], sigma = p[1], alpha = p[2], q = m / n;
    if (!(m < n / 5) || !lemma_c1_valid(q, sigma, alpha)) return kInfinity;  // the theorem's hypotheses (as printed)
    const double claimed = c16 * alpha / (n * n * sigma * sigma);           // per round, L = gamma = 1
    const double exact_rdp = lo_down(SubsampledGaussianRdp(q, std::sqrt(m) * sigma / 4).at(Real(alpha)));
    return (claimed - exact_rdp) / claimed;
  };
  const SearchOutcome s = search_counterexample(axes, ctx.quick ? 10 : 60, ctx.seed, margin);
  ClaimResult r;
  r.region = "n = 1000, L = gamma = 1, per round (K cancels); the theorem's hypotheses m < n/5, sigma >= 4 and its "
             "alpha condition enforced; " + s.region;
  r.claimed = "RDP per round " + num(c16) + " alpha L^2 gamma^2/(n^2 sigma^2)";
  r.computed = "exact subsampled-Gaussian RDP (q = m/n, z = sqrt(m) sigma/4) exceeds it at " + std::to_string(s.failures) +
               " of " + std::to_string(s.evaluated) + " points; worst ratio exact/claimed = " + num(1 - s.worst_margin, 4);
  r.deficit = -s.worst_margin;
  if (s.smallest_failure) {
    const Point& p = *s.smallest_failure;
    const double q = p[0] / n, z = std::sqrt(p[0]) * p[1] / 4;
    r.status = Status::fails;
    r.counterexample = describe(axes, p) + " (n = 1000): claimed " + num(c16 * p[2] / (n * n * p[1] * p[1]), 6) +
                       " < exact " + num(lo_down(SubsampledGaussianRdp(q, z).at(Real(p[2]))), 6) + " per round";
    r.reproduce = "dpledger rdp -m gaussian:sigma=" + num(z, 10) + ",q=" + num(q, 10) + " --orders " + num(p[2]);
  } else {
    r.status = Status::holds;
  }
  r.note = "Two errors: secure aggregation of m noises divides the per-round loss by m, not m^2, "
           "and Lemma C.1's bound is 4q^2 times the base RDP, not 2q^2. Model: Poisson sampling with rate m/n (the "
           "paper samples m of n; for that the exact curve differs at second order in q).";
  return r;
}

// Lemma C.1: the subsampled Gaussian has RDP <= 2 alpha q^2 Delta^2/sigma^2 inside its validity region.
ClaimResult check_lemma_c1(const CheckContext& ctx) {
  const double c2 = ctx.constant("constant", 2);
  std::vector<Axis> axes{{"q", 0.001, 0.199, {0.01, 0.1, 0.19}, true}, {"z", 4, 100, {4, 8, 20}, true}, {"alpha", 2, 40, {2, 3, 6, 12}, false, true}};
  const auto margin = [&](const Point& p) {
    const double q = p[0], z = p[1], alpha = p[2];
    if (!lemma_c1_valid(q, z, alpha)) return kInfinity;
    const double closed = c2 * alpha * q * q / (z * z);
    const double exact_rdp = hi_up(SubsampledGaussianRdp(q, z).at(Real(alpha)));
    return (closed - exact_rdp) / closed;
  };
  const SearchOutcome s = search_counterexample(axes, ctx.quick ? 20 : 150, ctx.seed, margin);
  ClaimResult r;
  r.region = s.region + "; only points inside the lemma's region (q < 1/5, z >= 4, alpha condition)";
  r.claimed = num(c2) + " alpha q^2/z^2 >= exact RDP of the Poisson-subsampled Gaussian";
  r.computed = "smallest relative margin " + num(s.worst_margin, 4) + " (exact/closed = " + num(1 - s.worst_margin, 4) +
               ") at " + describe(axes, s.worst_point);
  r.deficit = -s.worst_margin;
  r.status = s.smallest_failure ? Status::fails : Status::holds;
  if (s.smallest_failure) {
    const Point& p = *s.smallest_failure;
    r.counterexample = describe(axes, p);
    r.reproduce = "dpledger rdp -m gaussian:sigma=" + num(p[1], 10) + ",q=" + num(p[0], 10) + " --orders " + num(p[2]);
  } else {
    r.reproduce = "dpledger rdp -m gaussian:sigma=4,q=0.1 --orders 2,4,6";
  }
  r.note = "Holds with room: inside the region the closed form is about 4x the exact value (Mironov et al.'s own "
           "bound); the paper's use of it with a factor 2q^2 instead of 4q^2 is the error in 003/thm-3-central.";
  return r;
}

// Proof of Theorem 4: sum_{k>=1} (1 - 1/n)^k / k = ln n.
ClaimResult check_app_c2_argmin(const CheckContext& ctx) {
  const double c2 = ctx.constant("sensitivity_factor", 2);
  std::vector<Axis> axes{{"v", -10, 10, {0, 1}}, {"c", -10, 10, {-1, 0}}, {"c'", -10, 10, {1, 5}},
                         {"L", 0.01, 10, {1}, true}, {"gamma", 0.01, 10, {1}, true}, {"kind", 0, 1, {0, 1}}};
  const auto prox = [](double v, double c, double L, double gamma, bool huber) {
    // prox_{gamma f}(v) for f(x) = L |x - c| (soft threshold) or f = L huber_1(x - c) (gradient L clamp(x - c)).
    const double t = v - c;
    if (!huber) return c + (t > 0 ? 1 : -1) * std::max(std::abs(t) - gamma * L, 0.0);
    return std::abs(t) <= 1 + gamma * L ? c + t / (1 + gamma * L) : v - (t > 0 ? 1 : -1) * gamma * L;
  };
  const auto margin = [&](const Point& p) {
    const bool huber = p[5] >= 0.5;
    const double x = prox(p[0], p[1], p[3], p[4], huber), xp = prox(p[0], p[2], p[3], p[4], huber);
    const double rounding = 1e-13 * (1 + std::abs(p[0]) + std::abs(p[1]) + std::abs(p[2]));  // double round-off
    return (c2 * p[3] * p[4] - std::abs(x - xp) + rounding) / (p[3] * p[4]);
  };
  const SearchOutcome s = search_counterexample(axes, ctx.quick ? 500 : 5000, ctx.seed, margin);
  ClaimResult r;
  r.region = "f = L|x - c| and L huber(x - c) against the same with c'; " + s.region;
  r.claimed = "||prox_{gamma f}(v) - prox_{gamma f'}(v)|| <= " + num(c2) + " L gamma";
  r.computed = "largest change " + num(c2 - s.worst_margin, 6) + " L gamma";
  record_search_verdict(r, s, axes);
  r.reproduce = "dpledger check 003/app-C.2-argmin";
  r.note = "With prox_{gamma f_i} as printed in Algorithm 2 this is 2 L gamma per block; eq. (25)'s 1/n needs the "
           "1/n-weighted prox (docs/cyffers2023.md sec. 3).";
  return r;
}

// Theorem 3 (local) = Theorem 9: per participation the Gaussian mechanism on Delta u_i costs 8 alpha L^2 gamma^2/sigma^2.

ClaimResult check_thm_4_series(const CheckContext& ctx) {
  const double factor = ctx.constant("factor", 1);
  std::ostringstream list;
  bool all = true;
  for (int n : ctx.quick ? std::vector<int>{2, 10, 1000} : std::vector<int>{2, 3, 10, 100, 1000, 10000}) {
    const Interval x = exact(1) - exact(1) / exact_int(n);
    Interval sum = exact(0), power = exact(1);
    const int terms = 80 * n;  // x^terms <= e^-80: the tail bound is far below the printed digits
    for (int k = 1; k <= terms; ++k) {
      power *= x;
      sum += power / exact_int(k);
    }
    // Tail sum_{k > N} x^k/k <= x^{N+1}/((N+1)(1 - x)).
    const Interval tail_bound = power * x / (exact_int(terms + 1) * (exact(1) - x));
    const Interval enclosure = hull(sum, sum + tail_bound);
    const Interval claimed = exact(factor) * log(exact_int(n));
    const bool ok = !(certainly_lt(enclosure, claimed) || certainly_gt(enclosure, claimed)) &&
                    hi_up(enclosure) - lo_down(enclosure) < 1e-12 * hi_up(claimed) + 1e-300;
    all = all && ok;
    list << (list.tellp() ? "; " : "") << "n=" << n << ": [" << num(lo_down(enclosure), 14) << ", "
         << num(hi_up(enclosure), 14) << "] vs " << num(factor) << " ln n = " << num(mid_double(claimed), 14);
  }
  ClaimResult r;
  r.region = "n in {2, 3, 10, 100, 1000, 1e4}; head sum of 80 n terms in MPFI plus a geometric tail bound";
  r.claimed = "sum_{k>=1} (1 - 1/n)^k / k = " + num(factor) + " ln n";
  r.computed = list.str();
  r.status = all ? Status::holds : Status::fails;
  if (!all) r.counterexample = "the certified enclosure excludes " + num(factor) + " ln n";
  r.reproduce = "dpledger check 003/thm-4-series";
  r.note = "It is -ln(1 - x) at x = 1 - 1/n. Exact.";
  return r;
}

// Proof of Theorem 4: the number of steps T of the random walk from i to j satisfies P(T = k) = (1/n)(1 - 1/n)^k.
ClaimResult check_thm_4_hitting(const CheckContext& ctx) {
  const double offset = ctx.constant("exponent_offset", 0);
  algorithms::Rng rng(ctx.seed);
  const int walks = ctx.quick ? 20000 : 200000;
  std::ostringstream list;
  bool fails = false;
  std::string counter;
  for (int n : {2, 5, 20}) {
    // The walk on the complete graph visits a uniformly random user at every step (probability 1/n each).
    int hit1 = 0;
    double inv_sum = 0;
    for (int w = 0; w < walks; ++w) {
      int t = 1;
      while (rng.uniform_int(n) != 0 && t < 100000) ++t;
      hit1 += t == 1;
      inv_sum += 1.0 / t;
    }
    const double p1 = double(hit1) / walks, se = std::sqrt(p1 * (1 - p1) / walks);
    const double claimed_p1 = (1.0 / n) * portable::pow(1 - 1.0 / n, 1 + offset);
    // 6 standard errors: the chance that sampling noise alone separates them is below 1e-8.
    const bool differs = std::abs(p1 - claimed_p1) > 6 * se;
    if (differs && !fails) counter = "n = " + std::to_string(n) + ": P(T = 1) = " + num(p1, 4) + " +- " + num(se, 2) +
                                     " (exact 1/n = " + num(1.0 / n, 4) + ") vs claimed " + num(claimed_p1, 4) +
                                     "; the claimed law has total mass " + num(portable::pow(1 - 1.0 / n, 1 + offset) , 4);
    fails = fails || differs;
    list << (list.tellp() ? "; " : "") << "n=" << n << ": P(T=1) = " << num(p1, 4) << " (claimed " << num(claimed_p1, 4)
         << "), E[1/T] = " << num(inv_sum / walks, 4) << " (exact ln n/(n-1) = " << num(portable::binary64::log(n) / (n - 1), 4)
         << ", proof uses ln n/n = " << num(portable::binary64::log(n) / n, 4) << ")";
  }
  ClaimResult r;
  r.region = std::to_string(walks) + " seeded simulated walks per n in {2, 5, 20} (seed " + std::to_string(ctx.seed) +
             "); a difference is called at 6 standard errors (false-alarm probability < 1e-8)";
  r.claimed = "P(T = k) = (1/n)(1 - 1/n)^(k" + (offset == 0 ? std::string("") : (offset > 0 ? " + " : " - ") + num(std::fabs(offset))) +
              ") (the weights of the proof's mixture)";
  r.computed = list.str();
  r.status = fails ? Status::fails : Status::holds;
  if (fails) {
    r.counterexample = counter;
    r.reproduce = "dpledger check 003/thm-4-hitting";
  }
  r.note = "The geometric law of parameter 1/n on {1, 2, ...} is (1/n)(1 - 1/n)^(k-1); with it E[1/T] = ln n/(n-1), "
           "not ln n/n. The factor 1/2 that the proof's next line drops covers this, since ln n/(2(n-1)) <= ln n/n for "
           "n >= 2; what it cannot cover is (1 + c) (see 003/thm-4).";
  return r;
}

// Theorem 4's hypothesis with the proof's component bound: sigma > 2 L gamma sqrt(alpha(alpha - 1)) makes the
// weak-convexity constant c <= 1.
ClaimResult check_thm_4_sigma(const CheckContext& ctx) {
  const double c2 = ctx.constant("sigma_factor", 2);
  std::vector<Axis> axes{{"alpha", 1.01, 100, {1.5, 2, 10, 50}, true}, {"sigma_over_threshold", 1.0000001, 3, {1.01, 1.2, 1.5, 2}, true}};
  const auto margin = [&](const Point& p) {
    const double alpha = p[0], sigma = p[1] * c2 * std::sqrt(alpha * (alpha - 1));  // L = gamma = 1
    const double eps1 = 8 * alpha / (sigma * sigma);  // the proof's component bound at T = 1 (its previous line)
    const double c = (alpha - 1) * eps1;              // Prop. 3 needs eps_t <= c/(alpha - 1) with c <= 1
    return 1 - c;
  };
  const SearchOutcome s = search_counterexample(axes, ctx.quick ? 20 : 200, ctx.seed, margin);
  ClaimResult r;
  r.region = "L = gamma = 1, sigma = sigma_over_threshold * " + num(c2) + " sqrt(alpha(alpha - 1)); " + s.region;
  r.claimed = "sigma > " + num(c2) + " L gamma sqrt(alpha(alpha-1)) gives c <= 1 in Prop. 3 (weak convexity)";
  r.computed = "c = (alpha - 1) 8 alpha L^2 gamma^2/sigma^2 up to " + num(1 - s.worst_margin, 6);
  r.deficit = -s.worst_margin;
  if (s.smallest_failure) {
    r.status = Status::fails;
    r.counterexample = describe(axes, *s.smallest_failure) + ": c = " + num(1 - s.smallest_failure_margin, 6) + " > 1";
    r.reproduce = "dpledger check 003/thm-4-sigma";
  } else {
    r.status = Status::holds;
  }
  r.note = "What is refuted is the step from the printed hypothesis to c <= 1 with the component bound the proof "
           "derives in its previous line (eps_1 = 8 alpha L^2 gamma^2/sigma^2 for a walk of length 1), not a threshold "
           "printed in the statement: with that bound the printed sigma > 2 L gamma sqrt(alpha(alpha-1)) only gives "
           "c < 2; c <= 1 needs sigma >= 2 sqrt(2) L gamma sqrt(alpha(alpha-1)).";
  return r;
}

// The per-participation sensitivity of a user's message Delta u_i = 2 lambda (x_i - z + eta/2): the largest
// ||Delta u(d) - Delta u(d')|| over a search of states v = 2z - u_i and pairs of L-Lipschitz losses (f = L|x - c| and
// f = L s.x), each prox computed by the library's consensus-ADMM operator. Returns the sup found divided by lambda.
double message_sensitivity_search(double L, double gamma, int p, algorithms::Rng& rng, int draws) {
  double best = 0;
  for (int k = 0; k < draws; ++k) {
    const bool abs_loss = k % 2 == 0;
    Eigen::VectorXd c(p), c2(p), v(p);
    for (int l = 0; l < p; ++l) c(l) = rng.uniform(-3, 3), c2(l) = rng.uniform(-3, 3), v(l) = rng.uniform(-5, 5);
    if (!abs_loss) c /= c.norm(), c2 = -c;  // linear losses L s.x with ||s|| = 1: the worst pair s, -s
    const auto prox_of = [&](const Eigen::VectorXd& centre) {
      return algorithms::seed003::RecordProx([=](int, const Eigen::VectorXd& w, double t) -> Eigen::VectorXd {
        if (!abs_loss) return w - t * L * centre;  // prox of L s.x: a shift
        // prox of L ||x - c||_2 (L-Lipschitz): shrink toward the centre by t L.
        const Eigen::VectorXd d = w - centre;
        const double nd = d.norm();
        return nd <= t * L ? Eigen::VectorXd(centre) : Eigen::VectorXd(centre + d * (1 - t * L / nd));
      });
    };
    const auto reg = [](const Eigen::VectorXd& w, double) { return w; };
    algorithms::seed003::ConsensusAdmmOperator A(1, p, prox_of(c), reg, gamma, gamma), B(1, p, prox_of(c2), reg, gamma, gamma);
    // One user (n = 1), state u = v with z = mean(u) = v: R(u) = u + 2(x - z), x = prox(2z - u) = prox(v).
    const Eigen::VectorXd ra = A.averaged(v, 1), rb = B.averaged(v, 1);
    best = std::max(best, (ra - rb).norm());  // averaged(., 1) = R = u + 2(x - z): R_d - R_d' = 2(x - x')
  }
  return best;
}

// Theorem 3 (local) = Theorem 9: per participation the Gaussian mechanism on Delta u_i costs 8 alpha L^2 gamma^2/sigma^2.
ClaimResult check_thm_9(const CheckContext& ctx) {
  const double c8 = ctx.constant("constant", 8);
  algorithms::Rng rng(ctx.seed);
  const int draws = ctx.quick ? 400 : 4000;
  double worst = kInfinity;
  std::ostringstream list;
  for (double L : {0.5, 1.0, 3.0})
    for (double gamma : {0.1, 1.0}) {
      // Delta u = lambda (R(u) - u + eta): sensitivity lambda S with S = sup ||R_d(u) - R_d'(u)||, noise lambda sigma.
      const double S = message_sensitivity_search(L, gamma, 2, rng, draws);
      for (double sigma : {0.5, 2.0, 10.0})
        for (double alpha : {1.5, 2.0, 32.0}) {
          const double exact_rdp = alpha * S * S / (2 * sigma * sigma);  // Gaussian shift S/sigma (lambda cancels)
          const double claimed = c8 * alpha * L * L * gamma * gamma / (sigma * sigma);
          worst = std::min(worst, (claimed - exact_rdp) / claimed);
        }
      list << (list.tellp() ? "; " : "") << "L=" << num(L) << ", gamma=" << num(gamma) << ": sup ||Delta u - Delta u'||/lambda = "
           << num(S, 8) << " (4 L gamma = " << num(4 * L * gamma, 8) << ")";
    }
  ClaimResult r;
  r.region = "one participation, p = 2, losses L ||x - c|| and L s.x (L-Lipschitz) with " + std::to_string(draws) +
             " seeded random states and pairs per (L, gamma), L in {0.5, 1, 3}, gamma in {0.1, 1}, sigma in {0.5, 2, 10}, "
             "alpha in {1.5, 2, 32}; prox by the library's consensus-ADMM operator";
  r.claimed = "(alpha, " + num(c8) + " alpha K_i L^2 gamma^2/sigma^2)-RDP for user i (local model)";
  r.computed = "the largest message change found " + list.str() + "; Renyi divergence of the Gaussian message alpha "
               "S^2/(2 sigma^2) (lambda cancels): smallest relative margin to the claim " + num(worst, 4);
  r.deficit = -worst;
  r.status = worst >= -1e-12 ? Status::holds : Status::fails;
  if (r.status == Status::fails) r.counterexample = "the sensitivity attained by the searched pairs exceeds the claim's";
  r.reproduce = "dpledger check 003/thm-3-local";
  r.note = "The search reaches the sensitivity 4 lambda L gamma the claim needs (linear losses s.x vs -s.x); composition "
           "over the K_i participations is additive. The server sees every Delta u_i, so the user's hidden state does "
           "not matter in the local model.";
  return r;
}

// ---- Theorem 2 = Theorem 8 and (25): Algorithm 2 on linear losses, exact divergence of the released z_K ----

// Record losses f_i(x) = L s_i x (L-Lipschitz, p = 1), s_i in {-1, +1}; r = 0. Runs the noiseless averaged operator
// of Algorithm 2 (library) `steps` times from u = 0 with prox step t, and returns mean(u) (= z with r = 0).
double admm_linear_mean(int n, int steps, double lambda, double t, double L, double s1) {
  const auto prox = [=](int i, const Eigen::VectorXd& v, double step) -> Eigen::VectorXd {
    const double s = i == 0 ? s1 : (i % 2 ? 1.0 : -1.0);
    return Eigen::VectorXd::Constant(1, v(0) - step * L * s);
  };
  const auto reg = [](const Eigen::VectorXd& w, double) { return w; };
  algorithms::seed003::ConsensusAdmmOperator op(n, 1, prox, reg, t, t);
  Eigen::VectorXd u = Eigen::VectorXd::Zero(n);
  for (int k = 0; k < steps; ++k) u = op.averaged(u, lambda);
  return op.z_of(u)(0);
}

// Exact D_alpha of z_K between D (s_1 = +1) and D' (s_1 = -1): z_K is Gaussian with the same variance under both;
// the mean gap from the library's noiseless run, the variance (K - 1) lambda^2 sigma^2/n: with r = 0 the mean of u
// moves by lambda mean_i(eta_i) per step whatever the data (z = mean u, mean_i(x_i - z) is data plus no u).
double algorithm2_exact_divergence(int n, int K, double lambda, double t, double L, double sigma, double alpha) {
  const double gap = admm_linear_mean(n, K - 1, lambda, t, L, 1) - admm_linear_mean(n, K - 1, lambda, t, L, -1);
  const double var = (K - 1) * lambda * lambda * sigma * sigma / n;
  return var > 0 ? alpha * gap * gap / (2 * var) : 0;
}

ClaimResult check_thm_2(const CheckContext& ctx) {
  const double n_power = ctx.constant("n_power", 2);
  std::vector<Axis> axes{{"n", 2, 200, {2, 5, 20, 100}, true, true},
                         {"K", 2, 200, {2, 10, 100}, true, true},
                         {"gamma", 0.01, 10, {0.1, 1}, true},
                         {"alpha", 1.1, 64, {2, 16}, true}};
  const double lambda = 0.5, sigma = 1, L = 1;
  // step = 1: prox_{gamma f_i} as printed in Algorithm 2; step = 1/n: the 1/n-weighted prox of (25) (gamma_DR).
  const auto margin_for = [&](double step_scale_power) {
    return [&, step_scale_power](const Point& p) {
      const int n = static_cast<int>(p[0]), K = static_cast<int>(p[1]);
      const double gamma = p[2], alpha = p[3];
      const double t = gamma / portable::pow(n, step_scale_power);
      const double exact = algorithm2_exact_divergence(n, K, lambda, t, L, sigma, alpha);
      const double claimed = 8 * alpha * K * L * L * gamma * gamma / (sigma * sigma * portable::pow(n, n_power));
      return (claimed - exact) / claimed;
    };
  };
  const SearchOutcome s = search_counterexample(axes, ctx.quick ? 4 : 30, ctx.seed, margin_for(0));
  const SearchOutcome w = search_counterexample(axes, ctx.quick ? 4 : 30, ctx.seed + 1, margin_for(1));
  ClaimResult r;
  r.region = "record losses L s_i x (L = 1, p = 1), r = 0, lambda = 1/2, sigma = 1, neighbours s_1 = +1 vs -1; " + s.region;
  r.claimed = "(alpha, 8 alpha K L^2 gamma^2/(sigma^2 n^" + num(n_power) + "))-RDP of the released z_K";
  r.computed = "exact Renyi divergence of z_K (Gaussian, same variance; mean gap from the library's noiseless Algorithm 2): "
               "largest exact/claimed " + num(1 - s.worst_margin, 4) + " with prox_{gamma f_i} as printed (at " +
               describe(axes, s.worst_point) + "), " + num(1 - w.worst_margin, 4) + " with the prox step gamma/n";
  r.deficit = -s.worst_margin;
  if (!s.smallest_failure) {
    r.status = Status::holds;
  } else {
    r.counterexample = describe(axes, *s.smallest_failure) + ": exact D_alpha(z_K) is " +
                       num(1 - s.smallest_failure_margin, 4) + " times the claim";
    r.reproduce = "dpledger check 003/thm-2";
    if (w.smallest_failure) {
      r.status = Status::fails;
    } else {
      r.status = Status::fails_as_printed;
      r.holds_where = "when gamma is n times the prox step (prox_{gamma f_i/n}, the 1/n-weighted prox of (25), i.e. ADMM's "
                      "parameter on the problem (5.1)); with prox_{gamma f_i} as Algorithm 2 prints it the exact divergence is "
                      "n (K-1)/K times the bound";
    }
  }
  r.note = "The mean of u drifts by 2 lambda t L (s_1 - s_1')/n per step and its noise is lambda mean_i(eta_i): exactly "
           "D_alpha(z_K) = 8 alpha t^2 L^2 (K - 1)/(sigma^2 n) for prox step t.";
  return r;
}

// (25): ||T(u) - T'(u)|| <= 4 lambda L gamma/n for the averaged operator on neighbouring data sets.
ClaimResult check_eq_25(const CheckContext& ctx) {
  const double n_power = ctx.constant("n_power", 1);
  algorithms::Rng rng(ctx.seed);
  const int draws = ctx.quick ? 200 : 2000;
  double worst_printed = -kInfinity, worst_reading = -kInfinity;
  std::string where;
  for (int k = 0; k < draws; ++k) {
    const int n = 2 + static_cast<int>(rng.uniform_int(50));
    const double lambda = rng.uniform(0.05, 1), gamma = portable::binary64::exp(rng.uniform(-3, 2)), L = portable::binary64::exp(rng.uniform(-2, 1));
    Eigen::VectorXd u(n);
    for (int i = 0; i < n; ++i) u(i) = rng.uniform(-5, 5);
    for (int reading = 0; reading < 2; ++reading) {
      const double t = reading ? gamma / n : gamma;
      const auto make = [&](double s1) {
        return algorithms::seed003::ConsensusAdmmOperator(
            n, 1, [=](int i, const Eigen::VectorXd& v, double step) -> Eigen::VectorXd {
              return Eigen::VectorXd::Constant(1, v(0) - step * L * (i == 0 ? s1 : 1.0));
            }, [](const Eigen::VectorXd& w, double) { return w; }, t, t);
      };
      const double diff = (make(1).averaged(u, lambda) - make(-1).averaged(u, lambda)).norm();
      const double claimed = 4 * lambda * L * gamma / portable::pow(n, n_power);
      const double excess = diff / claimed - 1;
      if (reading == 0 && excess > worst_printed) worst_printed = excess, where = "n=" + std::to_string(n) + ", lambda=" + num(lambda, 4) + ", gamma=" + num(gamma, 4) + ", L=" + num(L, 4);
      if (reading == 1) worst_reading = std::max(worst_reading, excess);
    }
  }
  ClaimResult r;
  r.region = std::to_string(draws) + " seeded random (n in 2..51, lambda, gamma, L, u), record 1's loss L x vs -L x, "
             "the library's averaged operator T = lambda R + (1 - lambda) I";
  r.claimed = "||T(u) - T'(u)|| <= 4 lambda L gamma/n^" + num(n_power);
  r.computed = "largest ||T(u) - T'(u)|| / claim - 1: " + num(worst_printed, 4) + " with prox_{gamma f_i} (at " + where +
               "), " + num(worst_reading, 4) + " with prox_{(gamma/n) f_i}";
  r.deficit = worst_printed;
  // Tolerance 1e-8 relative: T(u) - T'(u) is a difference of two states of size |u| ~ 5 (double round-off).
  if (worst_printed <= 1e-8) {
    r.status = Status::holds;
  } else {
    r.counterexample = where + ": the change is " + num(worst_printed + 1, 4) + " times the claim (= n: the block of "
                       "record 1 moves by 4 lambda L gamma)";
    if (worst_reading <= 1e-8) {
      r.status = Status::fails_as_printed;
      r.holds_where = "with the 1/n-weighted prox step gamma/n (f(x; D) = (1/n) sum f_i in the x-update)";
    } else {
      r.status = Status::fails;
    }
  }
  r.reproduce = "dpledger check 003/eq-25";
  r.note = "Only block i differs, so the full-vector difference equals the block difference 2 lambda ||x_i - x_i'|| "
           "= 4 lambda L t for prox step t.";
  return r;
}

// ---- Theorem 7 and (24): general A (Algorithm 5) ----

// Algorithm 5 for min f(x; D) + g(z) s.t. A x - z = 0 (B = -I, c = 0, g = 0), f(x; D) = (1/n) sum_i L s_i.x with
// ||s_i|| <= 1: z_{k+1} = u_k, x_{k+1} = (A^T A)^{-1}(A^T u_k - gamma L s-bar), u_{k+1} = u_k + 2 lambda (A x - z +
// eta/2) (the updates (19)-(21) solved in closed form; A square, full rank). Returns the noiseless z after `steps`.
Eigen::VectorXd algorithm5_linear(const Eigen::MatrixXd& A, const Eigen::VectorXd& sbar, double gamma, double lambda,
                                  double L, int steps) {
  const Eigen::MatrixXd AtA_inv = (A.transpose() * A).inverse();
  Eigen::VectorXd u = Eigen::VectorXd::Zero(A.rows()), z = u;
  for (int k = 0; k < steps; ++k) {
    z = u;
    const Eigen::VectorXd x = AtA_inv * (A.transpose() * u - gamma * L * sbar);
    u = u + 2 * lambda * (A * x - z);
  }
  return u;  // z_{steps + 1} = u_steps
}

struct GeneralA {
  Eigen::MatrixXd A;
  double norm = 0, omega = 0;
};
GeneralA random_full_rank(algorithms::Rng& rng, int p, double scale) {
  GeneralA g;
  g.A = Eigen::MatrixXd(p, p);
  for (int i = 0; i < p; ++i)
    for (int j = 0; j < p; ++j) g.A(i, j) = rng.gaussian() * scale;
  const Eigen::JacobiSVD<Eigen::MatrixXd> svd(g.A);
  g.norm = svd.singularValues().maxCoeff();
  g.omega = svd.singularValues().minCoeff();
  return g;
}

ClaimResult check_thm_7(const CheckContext& ctx) {
  const double omega_power = ctx.constant("omega_power", 2);
  algorithms::Rng rng(ctx.seed);
  const int draws = ctx.quick ? 60 : 600;
  const double lambda = 0.5, sigma = 1, L = 1;
  double worst = -kInfinity, worst_reading = -kInfinity, worst_large = -kInfinity;
  std::string where;
  for (int k = 0; k < draws; ++k) {
    const int p = 1 + static_cast<int>(rng.uniform_int(3)), n = 2 + static_cast<int>(rng.uniform_int(20));
    const int K = 2 + static_cast<int>(rng.uniform_int(30));
    const GeneralA g = random_full_rank(rng, p, portable::binary64::exp(rng.uniform(-2, 1.5)));
    if (g.omega < 1e-3) continue;
    const double gamma = portable::binary64::exp(rng.uniform(-2, 1)), alpha = 1 + portable::binary64::exp(rng.uniform(-2, 3));
    // Worst record change: s_1 = e vs -e with e A's right singular vector of the smallest singular value (A^{-T} =
    // U S^-1 V^T has its largest gain 1/omega_A on it).
    const Eigen::JacobiSVD<Eigen::MatrixXd> svd(g.A, Eigen::ComputeFullV);
    const Eigen::VectorXd e = svd.matrixV().col(p - 1);
    const Eigen::VectorXd gap = algorithm5_linear(g.A, 2 * e / n, gamma, lambda, L, K - 1) - algorithm5_linear(g.A, Eigen::VectorXd::Zero(p), gamma, lambda, L, K - 1);
    const double var = (K - 1) * lambda * lambda * sigma * sigma;  // z = u, noise lambda eta per step
    const double exact = alpha * gap.squaredNorm() / (2 * var);
    const double printed = 8 * K * alpha * g.norm * g.norm * L * L * gamma * gamma / (sigma * sigma * n * n * portable::pow(g.omega, omega_power));
    const double reading = 8 * K * alpha * g.norm * g.norm * L * L * gamma * gamma / (sigma * sigma * n * n * portable::pow(g.omega, 4));
    const double ex = exact / printed - 1;
    if (ex > worst) worst = ex, where = "p=" + std::to_string(p) + ", ||A||=" + num(g.norm, 4) + ", omega_A=" + num(g.omega, 4) + ", n=" + std::to_string(n) + ", K=" + std::to_string(K);
    worst_reading = std::max(worst_reading, exact / reading - 1);
    if (g.norm >= 1) worst_large = std::max(worst_large, ex);
  }
  ClaimResult r;
  r.region = std::to_string(draws) + " seeded random square full-rank A (p in 1..3, entries N(0, s^2), s in [e^-2, e^1.5]), "
             "n in 2..21, K in 2..31, gamma, alpha; losses L s.x (L = 1), neighbours s_1 = 2e/n apart along A's weakest "
             "direction, lambda = 1/2, sigma = 1";
  r.claimed = "(alpha, 8 K alpha ||A||^2 L^2 gamma^2/(sigma^2 n^2 omega_A^" + num(omega_power) + "))-RDP";
  r.computed = "exact Renyi divergence of z_K (Algorithm 5's updates in closed form, Gaussian): largest exact/claim - 1 = " +
               num(worst, 4) + " (at " + where + "); " + num(worst_large, 4) + " over the draws with ||A|| >= 1; " +
               num(worst_reading, 4) + " with omega_A^4";
  r.deficit = worst;
  if (worst <= 1e-9) {
    r.status = Status::holds;
  } else {
    r.counterexample = where + ": the exact divergence is " + num(worst + 1, 4) + " times the claim";
    r.reproduce = "dpledger check 003/thm-7";
    if (worst_reading <= 1e-9) {
      r.status = Status::fails_as_printed;
      r.holds_where = "with omega_A^4 in the denominator (App. C.2's phi is omega_A^2/gamma-strongly convex, "
                      "003/app-C.2-strong-convexity), and as printed when ||A||_2 >= 1 (e.g. A = I, Theorem 8)";
    } else {
      r.status = Status::fails;
    }
  }
  r.note = "The per-step shift of u is 2 lambda gamma L A^{-T}(s_1 - s_1')/n, of norm up to 4 lambda gamma L/(n omega_A): "
           "the printed ||A||/omega_A^2 is smaller than 1/omega_A exactly when ||A|| < 1.";
  return r;
}

// (24): ||T(u) - T'(u)|| <= 4 lambda L gamma ||A||_2/(n omega_A) for general A.
ClaimResult check_eq_24(const CheckContext& ctx) {
  const double omega_power = ctx.constant("omega_power", 1);
  algorithms::Rng rng(ctx.seed);
  const int draws = ctx.quick ? 100 : 1000;
  double worst = -kInfinity, worst_large = -kInfinity;
  std::string where;
  for (int k = 0; k < draws; ++k) {
    const int p = 1 + static_cast<int>(rng.uniform_int(3)), n = 2 + static_cast<int>(rng.uniform_int(20));
    const GeneralA g = random_full_rank(rng, p, portable::binary64::exp(rng.uniform(-2, 1.5)));
    if (g.omega < 1e-3) continue;
    const double lambda = rng.uniform(0.05, 1), gamma = portable::binary64::exp(rng.uniform(-2, 1)), L = 1;
    const Eigen::JacobiSVD<Eigen::MatrixXd> svd(g.A, Eigen::ComputeFullV);
    const Eigen::VectorXd e = svd.matrixV().col(p - 1);
    // One step of Algorithm 5 from the same (random) u on D and D': the u-updates differ by 2 lambda A (x - x').
    const double diff = (algorithm5_linear(g.A, 2 * e / n, gamma, lambda, L, 1) - algorithm5_linear(g.A, Eigen::VectorXd::Zero(p), gamma, lambda, L, 1)).norm();
    const double claimed = 4 * lambda * L * gamma * g.norm / (n * portable::pow(g.omega, omega_power));
    const double ex = diff / claimed - 1;
    if (ex > worst) worst = ex, where = "p=" + std::to_string(p) + ", ||A||=" + num(g.norm, 4) + ", omega_A=" + num(g.omega, 4);
    if (g.norm >= 1) worst_large = std::max(worst_large, ex);
  }
  ClaimResult r;
  r.region = std::to_string(draws) + " seeded random square full-rank A (as for 003/thm-7), lambda, gamma; record 1's loss s.x "
             "vs -s.x along A's weakest direction";
  r.claimed = "||T(u) - T'(u)|| <= 4 lambda L gamma ||A||_2/(n omega_A^" + num(omega_power) + ")";
  r.computed = "largest change/claim - 1: " + num(worst, 4) + " (at " + where + "); " + num(worst_large, 4) + " when ||A|| >= 1";
  r.deficit = worst;
  if (worst <= 1e-9) {
    r.status = Status::holds;
  } else {
    r.counterexample = where + ": the change is " + num(worst + 1, 4) + " times the claim";
    r.status = worst_large <= 1e-9 ? Status::fails_as_printed : Status::fails;
    if (r.status == Status::fails_as_printed) r.holds_where = "when ||A||_2 >= 1 (the exact bound is 4 lambda L gamma/(n omega_A))";
  }
  r.reproduce = "dpledger check 003/eq-24";
  r.note = "||A (x - x')|| = gamma L ||A^{-T}(s - s')||/n <= 2 gamma L/(n omega_A): the factor ||A||/omega_A of (24) "
           "is below 1/omega_A when ||A|| < 1.";
  return r;
}

// Remark 4: with secure aggregation the server sees sum_{i in S} Delta u_i; "the sensitivity is divided by m and the
// privacy of users with respect to the server is amplified by a factor 1/m^2".
ClaimResult check_remark_4(const CheckContext& ctx) {
  const double m_power = ctx.constant("m_power", 2);
  algorithms::Rng rng(ctx.seed);
  double worst = -kInfinity;
  std::ostringstream list;
  for (int m : {2, 10, 100}) {
    const double lambda = 0.5, gamma = 1, L = 1, sigma = 2, alpha = 4;
    // m users' local steps on D and D' (user 0's loss L s.x vs -L s.x), library operator, same state.
    Eigen::VectorXd u(m);
    for (int i = 0; i < m; ++i) u(i) = rng.uniform(-1, 1);
    const auto make = [&](double s1) {
      return algorithms::seed003::ConsensusAdmmOperator(
          m, 1, [=](int i, const Eigen::VectorXd& v, double t) -> Eigen::VectorXd {
            return Eigen::VectorXd::Constant(1, v(0) - t * L * (i == 0 ? s1 : 1.0));
          }, [](const Eigen::VectorXd& w, double) { return w; }, gamma, gamma);
    };
    // The server's view: sum_i Delta u_i = lambda sum_i (R(u)_i - u_i) + lambda sum_i eta_i; noise variance m lambda^2 sigma^2.
    const double shift = ((make(1).averaged(u, lambda) - u).sum() - (make(-1).averaged(u, lambda) - u).sum());
    const double exact = alpha * shift * shift / (2 * m * lambda * lambda * sigma * sigma);
    const double local = 8 * alpha * L * L * gamma * gamma / (sigma * sigma);
    const double claimed = local / portable::pow(m, m_power);
    worst = std::max(worst, exact / claimed - 1);
    list << (list.tellp() ? "; " : "") << "m=" << m << ": exact " << num(exact, 6) << " (local/m = " << num(local / m, 6)
         << ") vs claimed " << num(claimed, 6);
  }
  ClaimResult r;
  r.region = "m in {2, 10, 100} users, one round, p = 1, loss L s x (L = 1), lambda = 1/2, gamma = 1, sigma = 2, alpha = 4; "
             "the library's consensus-ADMM operator";
  r.claimed = "secure aggregation amplifies the per-round local RDP 8 alpha L^2 gamma^2/sigma^2 by 1/m^" + num(m_power);
  r.computed = list.str();
  r.deficit = worst;
  if (worst <= 1e-9) {
    r.status = Status::holds;
  } else {
    r.status = Status::fails;
    r.counterexample = "m = 100: the sum's Renyi divergence is local/m, " + num(worst + 1, 4) + " times the claim";
  }
  r.reproduce = "dpledger check 003/remark-4";
  r.note = "The m noises add up (variance m lambda^2 sigma^2) while the shift stays 4 lambda L gamma: the factor is 1/m. "
           "So m = n does not recover the centralized guarantee either.";
  return r;
}

// Proposition 1: Algorithm 1 with R(u) = u - (2/beta) grad f(u; D), lambda = gamma beta/2, e_k = (2/beta)(grad f(u_k) -
// grad f(u_k; d_ik)) is DP-SGD: u_{k+1} = u_k - gamma (grad f(u_k; d_ik) + eta'), eta' ~ N(0, beta^2 sigma^2/4).
class DpSgdOperator final : public algorithms::seed003::BlockOperator {
 public:
  DpSgdOperator(const Eigen::MatrixXd& X, const Eigen::VectorXd& y, double beta) : X_(X), y_(y), beta_(beta) {}
  // R(u) + e_k = u - (2/beta) grad f(u; d_{i_k}) with i_k = k mod n (deterministic passes).
  void evaluate(const Eigen::VectorXd& u, const std::vector<int>&, std::int64_t k, Eigen::VectorXd& out) override {
    out = u - 2 / beta_ * record_gradient(u, static_cast<int>(k % X_.rows()));
  }
  Eigen::VectorXd record_gradient(const Eigen::VectorXd& u, int i) const {
    const double m = y_(i) * X_.row(i).dot(u);
    return -y_(i) / (1 + portable::binary64::exp(m)) * X_.row(i).transpose();  // logistic loss log(1 + e^{-y x.u})
  }
  Eigen::VectorXd full_gradient(const Eigen::VectorXd& u) const {
    Eigen::VectorXd g = Eigen::VectorXd::Zero(u.size());
    for (Eigen::Index i = 0; i < X_.rows(); ++i) g += record_gradient(u, static_cast<int>(i));
    return g / static_cast<double>(X_.rows());
  }

 private:
  Eigen::MatrixXd X_;
  Eigen::VectorXd y_;
  double beta_;
};

ClaimResult check_prop_1(const CheckContext& ctx) {
  const double lambda_factor = ctx.constant("lambda_factor", 0.5);
  algorithms::Rng rng(ctx.seed);
  const int n = 20, p = 3, K = ctx.quick ? 50 : 500;
  Eigen::MatrixXd X(n, p);
  Eigen::VectorXd y(n);
  for (int i = 0; i < n; ++i) {
    for (int l = 0; l < p; ++l) X(i, l) = rng.gaussian();
    X.row(i) /= X.row(i).norm();
    y(i) = rng.uniform01() < 0.5 ? -1 : 1;
  }
  const double beta = 0.25;  // logistic with unit rows: per-record smoothness 1/4; L = 1
  double worst_identity = 0, worst_e = 0, worst_expansion = -kInfinity;
  for (double gamma : {0.5, 2.0, 7.0}) {
    DpSgdOperator R(X, y, beta);
    algorithms::seed003::FixedPointConfig cfg;
    cfg.iterations = K;
    cfg.lambda = lambda_factor * gamma * beta;
    cfg.sigma = 0.7;
    std::vector<Eigen::VectorXd> noise;
    cfg.observe_noise = [&](std::int64_t, const Eigen::VectorXd& eta) { noise.push_back(eta); };
    std::vector<Eigen::VectorXd> path;
    Eigen::VectorXd u0(p);
    for (int l = 0; l < p; ++l) u0(l) = rng.uniform(-2, 2);
    algorithms::Rng run_rng(ctx.seed + 17);
    algorithms::seed003::private_fixed_point_iteration(u0, R, cfg, run_rng, {}, [&](std::int64_t, const algorithms::seed003::FixedPointRun& r) { path.push_back(r.u); });
    // Replay DP-SGD with eta' = -(beta/2) eta (same law): u <- u - gamma (grad f(u; d_ik) + eta').
    Eigen::VectorXd v = u0;
    for (int k = 0; k < K; ++k) {
      v = v - gamma * (R.record_gradient(v, k % n) - beta / 2 * noise[static_cast<std::size_t>(k)]);
      worst_identity = std::max(worst_identity, (v - path[static_cast<std::size_t>(k)]).norm() / (1 + v.norm()));
      const Eigen::VectorXd e = 2 / beta * (R.full_gradient(v) - R.record_gradient(v, k % n));
      worst_e = std::max(worst_e, e.norm() / (4 * 1.0 / beta));
    }
  }
  // R non-expansive for beta-smooth convex f: ||R(u) - R(v)|| <= ||u - v|| on random pairs.
  DpSgdOperator R(X, y, beta);
  for (int k = 0; k < (ctx.quick ? 200 : 2000); ++k) {
    Eigen::VectorXd a(p), b(p);
    for (int l = 0; l < p; ++l) a(l) = rng.uniform(-5, 5), b(l) = a(l) + rng.gaussian() * portable::binary64::exp(rng.uniform(-5, 1));
    const Eigen::VectorXd Ra = a - 2 / beta * R.full_gradient(a), Rb = b - 2 / beta * R.full_gradient(b);
    worst_expansion = std::max(worst_expansion, (Ra - Rb).norm() / (a - b).norm() - 1);
  }
  ClaimResult r;
  r.region = "logistic loss on n = 20 unit-norm records in R^3 (beta = 1/4 smooth, L = 1), gamma in {0.5, 2, 7} "
             "(in (0, 2/beta)), sigma = 0.7, K = " + std::to_string(K) + " steps, i_k = k mod n; the library's Algorithm 1 "
             "(its noise observed) against DP-SGD replayed with eta' = (beta/2) eta";
  r.claimed = "lambda = " + num(lambda_factor) + " gamma beta makes Algorithm 1's update u_k - gamma (grad f(u_k; d_ik) + eta'), "
              "||e_k|| <= 4L/beta, R non-expansive";
  r.computed = "largest |Algorithm 1 - DP-SGD| / (1 + |u|) = " + num(worst_identity, 3) + "; largest ||e_k||/(4L/beta) = " +
               num(worst_e, 4) + "; largest ||R(u) - R(v)||/||u - v|| - 1 = " + num(worst_expansion, 3);
  const bool ok = worst_identity < 1e-10 && worst_e <= 1 && worst_expansion <= 1e-12;
  r.deficit = std::max({worst_identity - 1e-10, worst_e - 1, worst_expansion});
  r.status = ok ? Status::holds : Status::fails;
  if (!ok) r.counterexample = worst_identity >= 1e-10 ? "the two updates differ by " + num(worst_identity, 3) : "a bound is exceeded";
  r.reproduce = "dpledger check 003/prop-1";
  r.note = "The noise that enters is lambda eta = gamma (beta/2) eta, i.e. eta' ~ N(0, beta^2 sigma^2/4).";
  return r;
}

// ---- Theorem 1 (13) and Lemma A.1 ----

// Exact second moment of Algorithm 1 on R(u) = tau Q u (u* = 0), blocks of dimension 1 active independently with
// probability q: u' = (I + lambda Lambda N) u + lambda sigma Lambda eta with N = tau Q - I, so
// Sigma' = Sigma + lambda q (N Sigma + Sigma N^T) + lambda^2 (q^2 N Sigma N^T + (q - q^2) Diag(N Sigma N^T)) + lambda^2 sigma^2 q I
// (E[Lambda X Lambda] = q^2 X + (q - q^2) Diag X for Bernoulli masks). Sigma N^T is computed as such (not as (N Sigma)^T,
// which is right only while Sigma is exactly symmetric), and each step is symmetrised, so rounding cannot grow an
// antisymmetric part. Returns Sigma_k for k = 0..K.
std::vector<Eigen::MatrixXd> exact_second_moment_matrices(const Eigen::MatrixXd& Q, double tau, double q, double lambda,
                                                          double sigma, const Eigen::VectorXd& u0, int K) {
  const Eigen::Index p = Q.rows();
  const Eigen::MatrixXd N = tau * Q - Eigen::MatrixXd::Identity(p, p);
  Eigen::MatrixXd S = u0 * u0.transpose();
  std::vector<Eigen::MatrixXd> out{S};
  out.reserve(static_cast<std::size_t>(K) + 1);
  for (int k = 0; k < K; ++k) {
    const Eigen::MatrixXd NS = N * S, SNt = S * N.transpose(), NSNt = NS * N.transpose();
    Eigen::MatrixXd next = S + lambda * q * (NS + SNt) + lambda * lambda * q * q * NSNt;
    for (Eigen::Index i = 0; i < p; ++i) next(i, i) += lambda * lambda * ((q - q * q) * NSNt(i, i) + sigma * sigma * q);
    S = 0.5 * (next + next.transpose());
    out.push_back(S);
  }
  return out;
}

// E||u_k||^2 = trace Sigma_k for k = 0..K.
std::vector<double> traces_of(const std::vector<Eigen::MatrixXd>& moments) {
  std::vector<double> out;
  out.reserve(moments.size());
  for (const auto& S : moments) out.push_back(S.trace());
  return out;
}

// The smallest eigenvalue of Sigma_k relative to its trace, over k (>= 0 up to rounding for a covariance), and the
// smallest diagonal entry.
struct MomentSanity {
  double smallest_relative_eigenvalue = kInfinity, smallest_diagonal = kInfinity;
};
MomentSanity moment_sanity(const std::vector<Eigen::MatrixXd>& moments) {
  MomentSanity s;
  for (const auto& S : moments) {
    const double e = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(S, Eigen::EigenvaluesOnly).eigenvalues().minCoeff();
    s.smallest_relative_eigenvalue = std::min(s.smallest_relative_eigenvalue, e / S.trace());
    s.smallest_diagonal = std::min(s.smallest_diagonal, S.diagonal().minCoeff());
  }
  return s;
}

Eigen::MatrixXd random_orthogonal(algorithms::Rng& rng, int p) {
  Eigen::MatrixXd G(p, p);
  for (int i = 0; i < p; ++i)
    for (int j = 0; j < p; ++j) G(i, j) = rng.gaussian();
  return Eigen::HouseholderQR<Eigen::MatrixXd>(G).householderQ();
}

class LinearContraction final : public algorithms::seed003::BlockOperator {
 public:
  explicit LinearContraction(Eigen::MatrixXd M) : M_(std::move(M)) {}
  void evaluate(const Eigen::VectorXd& u, const std::vector<int>&, std::int64_t, Eigen::VectorXd& out) override { out = M_ * u; }

 private:
  Eigen::MatrixXd M_;
};

struct Theorem1Case {
  int p;
  double tau, q, sigma2;
};

// Theorem 1 (13) on the given cases (see check_thm_1); `hypothesis` names the cases' domain for the report.
ClaimResult theorem_1_on(const CheckContext& ctx, std::vector<Theorem1Case> cases, const std::string& hypothesis) {
  const double floor_constant = ctx.constant("floor_constant", 8);
  algorithms::Rng rng(ctx.seed);
  using Case = Theorem1Case;
  if (ctx.quick) cases.resize(2);
  const int K = ctx.quick ? 600 : 3000;
  std::ostringstream list;
  bool all_hold = true;
  std::string counter;
  double worst_ratio = 0;
  // The exact moments are checked against seeded runs of the library's Algorithm 1 at every k printed, at
  // kAgreementZ standard errors (two-sided, normal mean: a false alarm has probability 5.7e-7 per comparison, below
  // 1e-5 over a check's comparisons), and for being covariances (Sigma_k PSD up to rounding).
  constexpr double kAgreementZ = 5;
  std::string disagreement;
  double smallest_eigenvalue = kInfinity;
  const std::vector<int> printed_k = ctx.quick ? std::vector<int>{10, 100, K} : std::vector<int>{10, 100, 1000, K};
  for (const Case& c : cases) {
    const Eigen::MatrixXd Q = random_orthogonal(rng, c.p);
    Eigen::VectorXd u0(c.p);
    for (int l = 0; l < c.p; ++l) u0(l) = rng.gaussian();
    u0 /= u0.norm();  // D = 1
    const double D = 1, sigma = std::sqrt(c.sigma2);
    const double floor = floor_constant * ((std::sqrt(c.p) * sigma) / (std::sqrt(c.q) * (1 - c.tau)) +
                                           c.p * c.sigma2 / (portable::pow(c.q, 3) * portable::pow(1 - c.tau, 3)));
    // "There exists lambda in (0, 1]": the best lambda of a grid.
    bool exists = false;
    double best_lambda = 0, best_excess = kInfinity;
    std::vector<Eigen::MatrixXd> best_moments;
    for (double lambda : {0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 1.0}) {
      auto moments = exact_second_moment_matrices(Q, c.tau, c.q, lambda, sigma, u0, K);
      const MomentSanity sane = moment_sanity(moments);
      smallest_eigenvalue = std::min(smallest_eigenvalue, sane.smallest_relative_eigenvalue);
      if (sane.smallest_relative_eigenvalue < -1e-9 || sane.smallest_diagonal < 0) {
        if (disagreement.empty())
          disagreement = "p = " + std::to_string(c.p) + ", lambda = " + num(lambda) + ": a propagated Sigma_k is not a covariance "
                         "(smallest eigenvalue/trace " + num(sane.smallest_relative_eigenvalue, 3) + ")";
      }
      const auto m = traces_of(moments);
      double excess = -kInfinity;
      for (int k = 0; k < K; ++k) {
        const double bound = portable::pow(1 - c.q * c.q * (1 - c.tau) / 8, k) * D + floor;
        excess = std::max(excess, m[static_cast<std::size_t>(k + 1)] / bound);
      }
      if (excess < best_excess) best_excess = excess, best_lambda = lambda, best_moments = std::move(moments);
      exists = exists || excess <= 1;
    }
    worst_ratio = std::max(worst_ratio, best_excess);
    // Seeded runs of the library's Algorithm 1 at the best lambda, against the exact second moment at every printed k.
    LinearContraction R(c.tau * Q);
    algorithms::seed003::FixedPointConfig cfg;
    cfg.iterations = K;
    cfg.lambda = best_lambda;
    cfg.sigma = sigma;
    cfg.activation = algorithms::seed003::BlockActivation::poisson;
    cfg.q = c.q;
    const int runs = ctx.quick ? 100 : 400;
    std::vector<std::vector<double>> at_k(printed_k.size());
    for (int k = 0; k < runs; ++k) {
      algorithms::Rng run_rng(ctx.seed + 101 + static_cast<std::uint64_t>(k));
      algorithms::seed003::private_fixed_point_iteration(
          u0, R, cfg, run_rng, {}, [&](std::int64_t step, const algorithms::seed003::FixedPointRun& run) {
            for (std::size_t j = 0; j < printed_k.size(); ++j)
              if (step == printed_k[j]) at_k[j].push_back(run.u.squaredNorm());
          });
    }
    list << (list.tellp() ? "; " : "") << "p=" << c.p << ", tau=" << num(c.tau) << ", q=" << num(c.q) << ", sigma^2="
         << num(c.sigma2) << ": best lambda " << num(best_lambda) << ", max_k E||u_k||^2/bound = " << num(best_excess, 3)
         << " (floor term " << num(floor, 4) << "); exact E||u_k||^2 vs " << runs << " seeded runs:";
    for (std::size_t j = 0; j < printed_k.size(); ++j) {
      const double exact = best_moments[static_cast<std::size_t>(printed_k[j])].trace();
      const MeanEstimate mc = mean_of(at_k[j]);
      list << " k=" << printed_k[j] << " " << num(exact, 4) << " vs " << describe(mc, 4);
      if (!(std::fabs(mc.mean - exact) <= kAgreementZ * mc.standard_error) && disagreement.empty())
        disagreement = "p = " + std::to_string(c.p) + ", k = " + std::to_string(printed_k[j]) + ": exact " + num(exact, 6) +
                       " vs runs " + describe(mc, 4) + " (more than " + num(kAgreementZ) + " standard errors apart)";
    }
    if (!exists) {
      all_hold = false;
      if (counter.empty()) counter = "p = " + std::to_string(c.p) + ", tau = " + num(c.tau) + ", q = " + num(c.q) + ": every lambda in the grid exceeds the bound (best ratio " + num(best_excess, 4) + ")";
    }
  }
  ClaimResult r;
  r.region = "R(u) = tau Q u (Q random orthogonal, u* = 0, a tau-contraction), blocks of dimension 1 active with "
             "probability q (Poisson), zeta = 0, D = ||u_0||^2 = 1, " + hypothesis + ", k <= " + std::to_string(K) +
             "; lambda over {0.05, ..., 1}; exact second moments Sigma_k (symmetric propagation), each checked PSD and "
             "against seeded runs of the library's Algorithm 1 at every printed k (" + num(kAgreementZ) + " standard errors)";
  r.claimed = "exists lambda in (0, 1]: E||u_{k+1} - u*||^2 <= (1 - q^2(1 - tau)/8)^k D + " + num(floor_constant) +
              "((sqrt(p) sigma + zeta)/(sqrt(q)(1 - tau)) + (p sigma^2 + zeta^2)/(q^3 (1 - tau)^3))";
  r.computed = list.str() + "; smallest eigenvalue/trace of any Sigma_k " + num(smallest_eigenvalue, 3);
  r.deficit = worst_ratio - 1;
  if (!disagreement.empty()) {
    r.status = Status::inconclusive;
    r.why = "the exact moments are not confirmed: " + disagreement;
  } else {
    r.status = all_hold ? Status::holds : Status::fails;
  }
  if (!all_hold) r.counterexample = counter;
  r.reproduce = "dpledger check 003/thm-1";
  r.note = "Holds with several orders of magnitude of slack; the proof's own lambda exceeds 1 (003/thm-1-proof-lambda), "
           "so the statement stands on other lambdas.";
  return r;
}

ClaimResult check_thm_1(const CheckContext& ctx) {
  return theorem_1_on(ctx, {{2, 0.5, 1, 0.6}, {4, 0.9, 0.5, 0.2}, {8, 0.99, 0.25, 0.02}}, "sigma^2 > 1 - tau");
}

// Remark 1: Theorem 1 holds more generally for sigma sqrt(p) + zeta > sqrt(q)(1 - tau): cases with sigma^2 <= 1 - tau
// (outside the theorem's own hypothesis) but inside the remark's, one of them near its boundary.
ClaimResult check_remark_1(const CheckContext& ctx) {
  ClaimResult r = theorem_1_on(ctx, {{2, 0.5, 1, 0.13}, {4, 0.9, 0.5, 0.05}, {8, 0.99, 0.25, 0.005}},
                               "sigma^2 <= 1 - tau < ... but sigma sqrt(p) > sqrt(q)(1 - tau) (Remark 1's domain)");
  r.reproduce = "dpledger check 003/remark-1";
  r.note = "The remark's weaker hypothesis, on cases Theorem 1's own sigma^2 > 1 - tau excludes; the bound is unchanged.";
  return r;
}

// Remark 2: R(u) = u - 2/(beta + mu) grad f(u) is (beta - mu)/(beta + mu)-contractive for mu-strongly convex, beta-smooth
// f. Searched on f(u) = mu/2 ||u||^2 + (beta - mu) sum_l log cosh(u_l) (Hessian between mu I and beta I, not quadratic)
// and on quadratics with eigenvalues mu and beta (where the factor is attained).
ClaimResult check_remark_2(const CheckContext& ctx) {
  const double factor = ctx.constant("contraction_factor", 1);
  std::vector<Axis> axes{{"mu", 0.01, 10, {0.1, 1}, true},
                         {"beta_over_mu", 1, 1000, {1.5, 10, 100}, true},
                         {"p", 1, 8, {1, 3}, false, true},
                         {"draw", 0, 1000, {1, 2, 3, 4}, false, true}};
  const auto margin = [&](const Point& pt) {
    const double mu = pt[0], beta = pt[0] * pt[1];
    const int p = static_cast<int>(pt[2]);
    const bool quadratic = static_cast<int>(pt[3]) % 2 == 0;
    algorithms::Rng rng(ctx.seed + static_cast<std::uint64_t>(pt[3] * 7919 + pt[2] * 104729 + pt[1] * 1e3 + pt[0] * 1e6));
    Eigen::VectorXd u(p), v(p), h(p);
    for (int l = 0; l < p; ++l) u(l) = 3 * rng.gaussian(), v(l) = 3 * rng.gaussian(), h(l) = l % 2 == 0 ? mu : beta;
    const auto grad = [&](const Eigen::VectorXd& x) {
      Eigen::VectorXd g(p);
      for (int l = 0; l < p; ++l) g(l) = quadratic ? h(l) * x(l) : mu * x(l) + (beta - mu) * portable::tanh(x(l));
      return g;
    };
    const Eigen::VectorXd Ru = u - 2 / (beta + mu) * grad(u), Rv = v - 2 / (beta + mu) * grad(v);
    const double tau = factor * (beta - mu) / (beta + mu);
    return (tau * (u - v).norm() - (Ru - Rv).norm()) / (u - v).norm() + 1e-12;
  };
  const SearchOutcome s = search_counterexample(axes, ctx.quick ? 20 : 200, ctx.seed, margin);
  ClaimResult r;
  r.region = s.region + "; odd draws f = mu/2 ||u||^2 + (beta - mu) sum log cosh(u_l), even draws the quadratic diag(mu, beta, ...)";
  r.claimed = "||R(u) - R(v)|| <= " + num(factor) + " (beta - mu)/(beta + mu) ||u - v||";
  r.computed = "smallest margin (relative to ||u - v||) " + num(s.worst_margin - 1e-12, 4) + " at " + describe(axes, s.worst_point);
  record_search_verdict(r, s, axes);
  r.reproduce = "dpledger check 003/remark-2";
  r.note = "Ryu & Boyd's contraction factor; attained by quadratics (the even draws), so any smaller factor fails.";
  return r;
}

// Lemma A.1: 0 < chi(lambda) < 1 exactly for lambda in ((1+c-q)/((1+c)(1-b)), that * (1/2 + 1/2 sqrt(1 + 4(1+c)(1-b)/((1-tau)(1+c-q)^2)))).
ClaimResult check_lemma_a1(const CheckContext& ctx) {
  const double half = ctx.constant("half", 0.5);
  algorithms::Rng rng(ctx.seed);
  const int draws = ctx.quick ? 300 : 3000;
  int wrong = 0, above_one = 0, checked = 0;
  std::string first;
  for (int k = 0; k < draws; ++k) {
    const double tau = rng.uniform(0, 0.999), q = rng.uniform(0.001, 1), c = portable::binary64::exp(rng.uniform(-4, 2));
    const double b = std::sqrt(1 - q * (1 - tau)), s1 = (1 + c) * (1 - tau);
    const double lo = (1 + c - q) / ((1 + c) * (1 - b));
    const double hi = lo * (half + half * std::sqrt(1 + 4 * (1 + c) * (1 - b) / ((1 - tau) * (1 + c - q) * (1 + c - q))));
    if (!(hi > lo) || !std::isfinite(hi)) continue;
    ++checked;
    above_one += lo >= 1;
    const auto chi = [&](double l) { return 1 + l * (s1 - (1 - b * b)) - l * l * s1 * (1 - b); };
    for (double f : {0.001, 0.25, 0.5, 0.75, 0.999}) {
      const double l = lo + f * (hi - lo), x = chi(l);
      if (!(x > 0 && x < 1)) {
        ++wrong;
        if (first.empty()) first = "tau=" + num(tau, 4) + ", q=" + num(q, 4) + ", c=" + num(c, 4) + ", lambda=" + num(l, 6) + ": chi = " + num(x, 6);
      }
    }
    for (double l : {lo * 0.999, hi * 1.001}) {
      const double x = chi(l);
      if (x > 0 && x < 1) {
        ++wrong;
        if (first.empty()) first = "outside the range at lambda=" + num(l, 6) + ": chi = " + num(x, 6) + " (tau=" + num(tau, 4) + ", q=" + num(q, 4) + ", c=" + num(c, 4) + ")";
      }
    }
  }
  ClaimResult r;
  r.region = std::to_string(draws) + " seeded random (tau in [0, 0.999), q in (0, 1], c in [e^-4, e^2]); chi at 5 points "
             "inside and just outside the range";
  r.claimed = "chi(lambda) = 1 + lambda(sigma_1 - (1 - b^2)) - lambda^2 sigma_1 (1 - b) is in (0, 1) exactly on the range (upper "
              "end with the factor (" + num(half) + " + " + num(half) + " sqrt(...)))";
  r.computed = std::to_string(wrong) + " wrong of " + std::to_string(7 * checked) + " points; the range's lower end is >= 1 in " +
               std::to_string(above_one) + " of " + std::to_string(checked) + " draws";
  r.deficit = wrong;
  r.status = wrong == 0 ? Status::holds : Status::fails;
  if (wrong) r.counterexample = first;
  r.reproduce = "dpledger check 003/lemma-A.1";
  r.note = "True as algebra of the quadratic chi; the range usually lies above 1, outside Algorithm 1's lambda in (0, 1] "
           "(see 003/thm-1-proof-lambda).";
  return r;
}

// Proof of Theorem 1, Step 2: the chosen lambda = (1/(1-b))(1 - q/(2(1+c))) is a learning rate of Algorithm 1 (in (0, 1]).
ClaimResult check_thm_1_proof_lambda(const CheckContext& ctx) {
  const double lambda_max = ctx.constant("lambda_max", 1);
  std::vector<Axis> axes{{"tau", 0, 0.999, {0, 0.5, 0.9, 0.99}}, {"q", 0.001, 1, {0.01, 0.1, 1}, true}, {"c", 0.01, 10, {0.1, 1}, true}};
  const auto margin = [&](const Point& p) {
    const double b = std::sqrt(1 - p[1] * (1 - p[0]));
    const double lambda = (1 / (1 - b)) * (1 - p[1] / (2 * (1 + p[2])));
    return lambda_max - lambda;
  };
  const SearchOutcome s = search_counterexample(axes, ctx.quick ? 20 : 200, ctx.seed, margin);
  ClaimResult r;
  r.region = s.region;
  r.claimed = "lambda = (1/(1-b))(1 - q/(2(1+c))) <= " + num(lambda_max) + " (Algorithm 1 requires lambda in (0, 1])";
  r.computed = "largest lambda - " + num(lambda_max) + ": " + num(-s.worst_margin, 4) + " at " + describe(axes, s.worst_point);
  record_search_verdict(r, s, axes);
  if (r.status == Status::fails)
    r.counterexample += ": lambda = " + num(lambda_max - s.smallest_failure_margin, 6);
  r.reproduce = "dpledger check 003/thm-1-proof-lambda";
  r.note = "1 - b <= q(1 - tau)/2 + ..., so 1/(1 - b) >= 2/(q(1 - tau)) >= 2: the chosen lambda always exceeds 1.";
  return r;
}

// ---- Corollaries 5.1-5.3: the stated rates against Theorem 1's bound at the theorems' noise, minimised over K ----

struct CorollaryParameters {
  double n = 1e4, eps = 1, p = 10, alpha = 10, one_minus_tau = 0.1, r = 0.05, L = 1, gamma = 1;
};

// Theorem 1 (13) with zeta = 0, D = 1: (1 - q^2 (1 - tau)/8)^K + 8 (sqrt(p) sigma/(sqrt(q)(1 - tau)) + p sigma^2/(q^3 (1 - tau)^3)).
double theorem1_bound(double K, double q, double sigma2, const CorollaryParameters& c) {
  return portable::pow(1 - q * q * c.one_minus_tau / 8, K) +
         8 * (std::sqrt(c.p * sigma2) / (std::sqrt(q) * c.one_minus_tau) + c.p * sigma2 / (portable::pow(q, 3) * portable::pow(c.one_minus_tau, 3)));
}

ClaimResult corollary_check(const CheckContext& ctx, int which) {
  // Exponent moves a test can make on the claimed rate: x (1 - tau)^-tau_extra, r^-r_extra (5.2), n^n_extra (5.3).
  const double tau_extra = ctx.constant("tau_extra", 0);
  const double r_extra = which == 2 ? ctx.constant("r_extra", 0) : 0;
  const double n_extra = which == 3 ? ctx.constant("n_extra", 0) : 0;
  // eps^eps_extra (5.2, 5.3): the privacy-utility trade-off's exponent (a plausible slip: sqrt(eps) -> eps is -1/2).
  const double eps_extra = which != 1 ? ctx.constant("eps_extra", 0) : 0;
  const auto bound_min = [&](const CorollaryParameters& c) {
    return minimise_over_horizon([&](double K) {
      double q = 1, sigma2 = 0;
      if (which == 1) q = 1, sigma2 = 8 * K * c.alpha * c.L * c.L * c.gamma * c.gamma / (c.eps * c.n * c.n);
      if (which == 2) q = c.r, sigma2 = 16 * K * c.alpha * c.L * c.L * c.gamma * c.gamma / (c.eps * c.n * c.n);
      if (which == 3) q = 1 / c.n, sigma2 = 8 * K * c.alpha * c.L * c.L * c.gamma * c.gamma * portable::binary64::log(c.n) / (c.eps * c.n * c.n);
      return theorem1_bound(K, q, sigma2, c);
    }, 1, 1e14);
  };
  const auto claimed = [&](const CorollaryParameters& c) {
    const double a = std::sqrt(c.p * c.alpha) * c.L * c.gamma, b = c.p * c.alpha * c.L * c.L * c.gamma * c.gamma;
    const double t = c.one_minus_tau;
    double v = 0;
    if (which == 1) v = a / (std::sqrt(c.eps) * c.n * t) + b / (c.eps * c.n * c.n * t * t * t);
    if (which == 2) v = a / (std::sqrt(c.eps * c.r) * c.n * t) + b / (c.eps * c.r * c.r * c.n * c.n * t * t * t);
    if (which == 3) v = a / (std::sqrt(c.eps * c.n) * t) + b / (c.eps * c.n * t * t * t);
    return v * portable::pow(t, -tau_extra) * portable::pow(c.r, which == 2 ? -r_extra : 0.0) * portable::pow(c.n, n_extra) *
           portable::pow(c.eps, eps_extra);
  };
  // Defaults where Theorem 1's bound is informative (its minimum well below D = 1) across every sweep.
  CorollaryParameters base;
  if (which == 1) base.n = 1e8;
  if (which == 2) base.n = 1e10, base.eps = 100;
  if (which == 3) base.n = 100, base.eps = 1e22;
  struct Sweep {
    std::string name;
    std::vector<double> values;
  };
  std::vector<Sweep> sweeps;
  if (which == 1) sweeps = {{"n", {1e7, 1e8, 1e9, 1e10}}, {"eps", {0.1, 1, 10, 100}}, {"p", {1, 10, 100}}, {"1-tau", {0.3, 0.1, 0.03}}};
  if (which == 2)
    sweeps = {{"n", {1e10, 1e11, 1e12, 1e13}}, {"eps", {10, 100, 1000, 1e4}}, {"p", {1, 10, 100}}, {"1-tau", {0.3, 0.1, 0.03}},
              {"r", {0.2, 0.1, 0.05, 0.02}}};
  if (which == 3) sweeps = {{"n", {10, 30, 100, 300}}, {"eps", {1e21, 1e22, 1e23, 1e24}}, {"p", {1, 10, 100}}, {"1-tau", {0.3, 0.1, 0.03}}};
  // The parameters of the privacy-utility trade-off the corollary is cited for: while they hold, only the O(.) that
  // the derivation gives in the others fails (fails as printed); if one of them fails, the trade-off does (fails).
  const std::vector<std::string> trade_off = which == 1 ? std::vector<std::string>{"n", "eps", "p"}
                                             : which == 2 ? std::vector<std::string>{"n", "eps", "p"}
                                                          : std::vector<std::string>{"eps", "p"};
  std::string table, bad, bad_reading, held;
  double worst = 0;
  int vacuous = 0;
  for (const auto& sw : sweeps) {
    std::vector<double> xs, ratio;
    for (double v : sw.values) {
      CorollaryParameters c = base;
      if (sw.name == "n") c.n = v;
      if (sw.name == "eps") c.eps = v;
      if (sw.name == "p") c.p = v;
      if (sw.name == "1-tau") c.one_minus_tau = v;
      if (sw.name == "r") c.r = v;
      const double b = bound_min(c);
      if (b > 0.1) {  // Theorem 1's bound says nothing there (at least D/10): not a test of the rate
        ++vacuous;
        continue;
      }
      xs.push_back(v);
      ratio.push_back(b / claimed(c));
    }
    if (xs.size() < 3) {
      table += (table.empty() ? "" : "; ") + sw.name + ": Theorem 1's bound is vacuous on the sweep";
      continue;
    }
    const Slope s = log_log_slope(xs, ratio);
    worst = std::max(worst, std::fabs(s.slope));
    table += (table.empty() ? "" : "; ") + sw.name + ": slope of (minimised bound / claimed rate) " + num(s.slope, 3);
    if (std::fabs(s.slope) > 0.25) {
      bad += (bad.empty() ? "" : ", ") + sw.name + " (" + num(s.slope, 3) + ")";
      if (std::find(trade_off.begin(), trade_off.end(), sw.name) != trade_off.end()) bad_reading += sw.name;
    } else {
      held += (held.empty() ? "" : ", ") + sw.name;
    }
  }
  ClaimResult r;
  r.region = std::string("Theorem 1's bound (13) (zeta = 0, D = 1) at ") +
             (which == 1 ? "q = 1 and Theorem 2's sigma^2 = 8 K alpha L^2 gamma^2/(eps n^2)"
              : which == 2 ? "q = r and Theorem 3's sigma^2 = 16 K alpha L^2 gamma^2/(eps n^2)"
                           : "q = 1/n and Theorem 4's sigma^2 = 8 K alpha L^2 gamma^2 ln n/(eps n^2)") +
             ", minimised over K; defaults n = " + num(base.n) + ", eps = " + num(base.eps) + ", p = 10, alpha = 10, 1 - tau = 0.1" +
             (which == 2 ? ", r = 0.05" : "") + ", L = gamma = 1 (chosen so that the bound's minimum is below D/10); each "
             "swept over the values listed (" + std::to_string(vacuous) + " points skipped where the bound exceeds D/10); a "
             "slope of the ratio beyond 0.25 in absolute value is more than logarithmic";
  r.claimed = std::string("Theorem 1 at these sigma gives E||u_K - u*||^2 = ") +
              (which == 1 ? "O~(sqrt(p alpha) L gamma/(sqrt(eps) n (1-tau)) + p alpha L^2 gamma^2/(eps n^2 (1-tau)^3))"
               : which == 2 ? "O~(sqrt(p alpha) L gamma/(sqrt(eps r) n (1-tau)) + p alpha L^2 gamma^2/(eps r^2 n^2 (1-tau)^3))"
                            : "O~(sqrt(p alpha) L gamma/(sqrt(eps n) (1-tau)) + p alpha L^2 gamma^2/(eps n (1-tau)^3))") +
              (tau_extra != 0 || r_extra != 0 || n_extra != 0 || eps_extra != 0
                   ? " times (1-tau)^-" + num(tau_extra) + (which == 2 ? " r^-" + num(r_extra) : "") +
                         (which == 3 ? " n^" + num(n_extra) : "") + (which != 1 ? " eps^" + num(eps_extra) : "")
                   : "");
  r.computed = table;
  r.deficit = worst - 0.25;
  if (bad.empty()) {
    r.status = Status::holds;
  } else if (bad_reading.empty()) {
    r.status = Status::fails_as_printed;
    r.counterexample = "more than logarithmic growth of the ratio in " + bad;
    r.holds_where = which == 1
                        ? "in its dependence on n, eps, p and alpha (up to logarithms); the (1 - tau) powers are off because the "
                          "K that makes the linear term small is O(log(.)/(q^2 (1 - tau))), not O(log(.))"
                        : "in its dependence on " + held + " (up to logarithms), the privacy-utility trade-off; what fails is "
                          "the O(.) that Theorem 1's bound (13), an upper bound, gives in the others: the algorithm's utility "
                          "is not shown to be worse (no run)";
  } else {
    r.status = Status::fails;
    r.counterexample = "more than logarithmic growth of the ratio in " + bad;
  }
  r.reproduce = "dpledger check 003/cor-5." + std::to_string(which);
  r.note = std::string("A statement about what Theorem 1 gives (the corollary's own derivation), not a run of the algorithm. ") +
           (which == 2 ? "With q = r the noise term p sigma^2/q^3 carries r^-3 and the K needed r^-2 more."
            : which == 3 ? "With q = 1/n the noise term p sigma^2/q^3 carries n^3 sigma^2 ~ n ln n K and K ~ n^2: the bound grows "
                           "with n, it does not decay as 1/n."
                         : "Remark 5's comparison of the three settings rests on these rates.");
  return r;
}

// Remark 5: the federated utility with m sampled users of n (r = m/n) recovers the centralized one at m = n and the
// decentralized one at m = 1. Both sides are the minimum over K of Theorem 1's bound (13) at the three theorems' noise
// (Theorems 2, 3 and 4), compared in the regimes where the bound is informative (those of 003/cor-5.1 and 003/cor-5.3);
// recovering means the ratio grows at most logarithmically in n (log-log slope within 0.25).
ClaimResult check_remark_5(const CheckContext& ctx) {
  const double m_exponent = ctx.constant("m_exponent", 1);  // "m = n" recovers the centralized utility: m = n^m_exponent
  const auto minimised = [](CorollaryParameters c, double q, double sigma2_per_K) {
    return minimise_over_horizon([&](double K) { return theorem1_bound(K, q, sigma2_per_K * K, c); }, 1, 1e14);
  };
  const auto noise = [](const CorollaryParameters& c, double factor) {  // sigma^2/K = factor alpha L^2 gamma^2/(eps n^2)
    return factor * c.alpha * c.L * c.L * c.gamma * c.gamma / (c.eps * c.n * c.n);
  };
  std::vector<double> ns_c{1e7, 1e8, 1e9, 1e10}, ratio_c, ns_d{10, 30, 100, 300}, ratio_d;
  for (double n : ns_c) {
    CorollaryParameters c;
    c.n = n;
    const double m = portable::pow(n, m_exponent);
    ratio_c.push_back(minimised(c, m / n, noise(c, 16)) / minimised(c, 1, noise(c, 8)));
  }
  for (double n : ns_d) {
    CorollaryParameters c;
    c.n = n, c.eps = 1e22;
    ratio_d.push_back(minimised(c, 1 / n, noise(c, 16)) / minimised(c, 1 / n, noise(c, 8 * portable::binary64::log(n))));
  }
  const double slope_c = log_log_slope(ns_c, ratio_c).slope, slope_d = log_log_slope(ns_d, ratio_d).slope;
  ClaimResult r;
  r.region = "Theorem 1's bound (13) (zeta = 0, D = 1) minimised over K: federated q = r = m/n at Theorem 3's sigma^2 = 16 K alpha "
             "L^2 gamma^2/(eps n^2), centralized q = 1 at Theorem 2's 8 K ..., decentralized q = 1/n at Theorem 4's 8 K ... ln n; "
             "p = 10, alpha = 10, 1 - tau = 0.1, L = gamma = 1; n in {1e7 .. 1e10} at eps = 1 (centralized regime) and n in "
             "{10 .. 300} at eps = 1e22 (decentralized regime, where (13) is informative); a log-log slope of the ratio beyond "
             "0.25 in absolute value is more than logarithmic";
  r.claimed = std::string("federated with m = ") + (m_exponent == 1 ? "n" : "n^" + num(m_exponent)) +
              " recovers the centralized utility, with m = 1 the decentralized one";
  r.computed = "slope in n of federated(m = " + (m_exponent == 1 ? std::string("n") : "n^" + num(m_exponent)) + ")/centralized " +
               num(slope_c, 3) + " (ratios " + num(ratio_c.front(), 3) + " .. " + num(ratio_c.back(), 3) + "); of federated(m = 1)/"
               "decentralized " + num(slope_d, 3) + " (ratios " + num(ratio_d.front(), 3) + " .. " + num(ratio_d.back(), 3) + ")";
  r.deficit = std::max(std::fabs(slope_c), std::fabs(slope_d)) - 0.25;
  if (r.deficit <= 0) {
    r.status = Status::holds;
  } else {
    r.status = Status::fails;
    r.counterexample = std::fabs(slope_c) > 0.25 ? "federated/centralized grows like n^" + num(slope_c, 3)
                                                 : "federated(m = 1)/decentralized grows like n^" + num(slope_d, 3);
  }
  r.reproduce = "dpledger check 003/remark-5";
  r.note = "The comparison holds between the minimised bounds whatever their own rates: the rates themselves are "
           "003/cor-5.1 to 003/cor-5.3 (the decentralized bound grows with n, so 'recovers' compares two failing rates).";
  return r;
}

ClaimResult check_cor_5_1(const CheckContext& ctx) { return corollary_check(ctx, 1); }
ClaimResult check_cor_5_2(const CheckContext& ctx) { return corollary_check(ctx, 2); }
ClaimResult check_cor_5_3(const CheckContext& ctx) { return corollary_check(ctx, 3); }

// Exact network Renyi divergence of user j's view in a two-iteration run of Algorithm 4 on n users, the token
// starting at user i, the next holder uniform over all n users (self included): user i contributes at k = 0 and
// sends z_1; with probability 1/n user j holds the token at k = 1, contributes, and its view (definition (8): z at
// its contribution times) is z_1; otherwise user i contributes again (K_i = 2) and j's view is empty, the same
// under both data sets. Linear losses L s x (s = +1 vs -1 for user i, p = 1), r = 0, z_0 = u_0 = 0: x_1 =
// 2 z_0 - u_0 - gamma L s, z_1 = z_0 + (2 lambda/n)(x_1 - z_0 + eta/2), a Gaussian of std lambda sigma/n whose mean
// moves by (2 lambda/n) 2 gamma L. The mixture's D_alpha in closed form: log(1 - 1/n + e^{(alpha-1) eps_1}/n)/(alpha - 1)
// with eps_1 = alpha gap^2/(2 sd^2).
double algorithm4_two_step_divergence(int n, double alpha, double sigma, double gamma, double L, double lambda) {
  const double gap = 2 * lambda / n * 2 * gamma * L;
  const double sd = lambda * sigma / n;
  const double eps_1 = alpha * gap * gap / (2 * sd * sd);
  return portable::binary64::log1p(portable::binary64::expm1((alpha - 1) * eps_1) / n) / (alpha - 1);
}

// Theorem 4's RDP value against a lower bound (the exact divergence of a two-iteration run, above) and an upper bound
// (the local guarantee, Theorem 3 local, which 003/thm-3-local verifies: user j's view is a post-processing of user
// i's messages).
ClaimResult check_thm_4(const CheckContext& ctx) {
  const double constant = ctx.constant("constant", 1);
  std::ostringstream list, lower_list;
  double worst_upper_ratio = 0, worst_lower_ratio = 0;
  std::string lower_where;
  for (double n : {10.0, 100.0, 1000.0})
    for (double alpha : {2.0, 8.0}) {
      const double sigma = 2 * std::sqrt(2.0) * std::sqrt(alpha * (alpha - 1)) * 1.01;  // inside c <= 1
      const double claimed = constant * 8 * alpha * portable::binary64::log(n) / (sigma * sigma * n);
      const double local = 8 * alpha / (sigma * sigma);  // certified upper bound (L = gamma = K_i = 1)
      worst_upper_ratio = std::max(worst_upper_ratio, local / claimed);
      list << (list.tellp() ? "; " : "") << "n=" << n << ", alpha=" << alpha << ": claimed " << num(claimed, 4)
           << ", upper bound " << num(local, 4);
    }
  // The two-iteration run at sigma just above the theorem's printed threshold 2 L gamma sqrt(alpha (alpha - 1)),
  // L = gamma = 1, lambda = 1/2; the claim with K_i = 2, the most contributions of user i in that run.
  for (int n : {2, 3, 10})
    for (double alpha : {1.5, 2.0, 8.0, 32.0}) {
      const double sigma = 2 * std::sqrt(alpha * (alpha - 1)) * 1.001;
      const double exact = algorithm4_two_step_divergence(n, alpha, sigma, 1, 1, 0.5);
      const double claimed = constant * 8 * alpha * 2 * portable::binary64::log(static_cast<double>(n)) / (sigma * sigma * n);
      if (alpha == 2.0)
        lower_list << (lower_list.tellp() ? "; " : "") << "n=" << n << ", alpha=2: exact " << num(exact, 5)
                   << " vs claimed " << num(claimed, 5);
      if (exact / claimed > worst_lower_ratio) {
        worst_lower_ratio = exact / claimed;
        lower_where = "n = " + std::to_string(n) + ", alpha = " + num(alpha) + ", sigma = " + num(sigma, 6) +
                      " (1.001 x the printed threshold), K = 2, K_i = 2: exact D_alpha of user j's view " +
                      num(exact, 6) + " > claimed " + num(claimed, 6);
      }
    }
  ClaimResult r;
  r.region = "lower bound: two iterations of Algorithm 4 from user i, n in {2, 3, 10}, alpha in {1.5, 2, 8, 32}, sigma "
             "1.001 x 2 L gamma sqrt(alpha (alpha - 1)), linear losses, L = gamma = 1; upper bound: n in {10, 100, "
             "1000}, alpha in {2, 8}, sigma just inside c <= 1, L = gamma = K_i = 1";
  r.claimed = "(alpha, " + (constant == 1 ? std::string("") : num(constant) + " x ") + "8 alpha K_i L^2 gamma^2 ln n/(sigma^2 n))-network RDP";
  r.computed = "exact network divergence of a two-iteration run (the token reaches j after one step of i with "
               "probability 1/n): " + lower_list.str() + "; certified upper bound: the local guarantee 8 alpha K_i L^2 "
               "gamma^2/sigma^2 (post-processing); " + list.str();
  if (worst_lower_ratio > 1) {
    r.status = Status::fails;
    r.deficit = worst_lower_ratio - 1;
    r.counterexample = lower_where;
    r.note = "Renyi divergences do not average over the walk's hidden paths with the paths' probabilities: the view's "
             "divergence is log(1 - 1/n + e^{(alpha-1) eps_1}/n)/(alpha - 1), above eps_1/n when (alpha - 1) eps_1 is not "
             "small; at n = 2 the run's is 1.034 times the claim at every alpha. At Proposition 3's sigma (c <= 1, "
             "003/thm-4-sigma) the same run stays below the claim.";
  } else if (worst_upper_ratio <= 1) {
    r.status = Status::holds;
    r.deficit = worst_upper_ratio - 1;
    r.note = "The claimed value is at least the local guarantee, which bounds every user's view.";
  } else {
    r.status = Status::inconclusive;
    r.deficit = worst_upper_ratio - 1;
    r.why = "the claim is between the exact divergence of the two-iteration run (up to " + num(worst_lower_ratio, 4) +
            "x the claim) and the certified upper bound (up to " + num(worst_upper_ratio, 4) + "x the claim)";
  }
  r.reproduce = "dpledger check 003/thm-4";
  return r;
}

// Appendix C.2: phi(x) = (1/2 gamma)||A x + B z + u + c||^2 is omega_A/gamma-strongly convex.
ClaimResult check_app_c2_strong_convexity(const CheckContext& ctx) {
  const double power = ctx.constant("omega_power", 1);
  std::vector<Axis> axes{{"omega_A", 0.01, 10, {0.1, 0.5, 1, 2}, true}, {"gamma", 0.01, 10, {1}, true}};
  const auto margin = [&](const Point& p) {
    // A = diag(omega_A, 2 omega_A + 1): smallest singular value omega_A; Hessian A^T A / gamma.
    Eigen::Matrix2d A;
    A << p[0], 0, 0, 2 * p[0] + 1;
    const double mu = Eigen::SelfAdjointEigenSolver<Eigen::Matrix2d>(A.transpose() * A / p[1]).eigenvalues().minCoeff();
    const double claimed = portable::pow(p[0], power) / p[1];
    return (mu - claimed) / claimed + 1e-12;
  };
  const SearchOutcome s = search_counterexample(axes, ctx.quick ? 20 : 100, ctx.seed, margin);
  ClaimResult r;
  r.region = "A = diag(omega_A, 2 omega_A + 1); " + s.region;
  r.claimed = "strong convexity modulus omega_A^" + num(power) + "/gamma";
  r.computed = "smallest eigenvalue of A^T A/gamma = omega_A^2/gamma; worst relative margin " + num(s.worst_margin, 4);
  r.deficit = -s.worst_margin;
  if (s.smallest_failure) {
    r.status = Status::fails;
    r.counterexample = describe(axes, *s.smallest_failure) + ": modulus omega_A^2/gamma < omega_A/gamma";
    r.reproduce = "dpledger check 003/app-C.2-strong-convexity";
  } else {
    r.status = Status::holds;
  }
  r.note = "The modulus is omega_A^2/gamma, so Theorem 7's denominator should be omega_A^4 (no change for A = I; see 003/thm-7).";
  return r;
}

}  // namespace
}  // namespace paper_003_checks

std::vector<Claim> paper_003_claims() {
  using namespace paper_003_checks;
  using K = ClaimKind;
  using Me = Method;
  return {
      {"003/prop-1", "Proposition 1 (DP-SGD as a noisy fixed-point iteration)",
       "R(u) = u - (2/beta) grad f, lambda = gamma beta/2, e_k = (2/beta)(grad f(u_k) - grad f(u_k; d_ik)) turn Algorithm 1 "
       "into DP-SGD; E||e_k|| <= 4L/beta",
       Status::holds, {"lambda_factor=0.5"}, check_prop_1, K::lemma, Me::simulation,
       {"lambda_factor", 1, "lambda = gamma beta/2 -> gamma beta"}},
      {"003/thm-1", "Theorem 1, eq. (13)",
       "for a tau-contractive R there is lambda in (0, 1] with E||u_{k+1} - u*||^2 <= (1 - q^2(1-tau)/8)^k D + 8((sqrt(p) "
       "sigma + zeta)/(sqrt(q)(1-tau)) + (p sigma^2 + zeta^2)/(q^3 (1-tau)^3))",
       Status::holds, {"floor_constant=8"}, check_thm_1, K::convergence, Me::simulation,
       {"floor_constant", 1e-6, "the constant 8 of the noise floor -> 1e-6"}},
      {"003/remark-1", "Remark 1",
       "Theorem 1 holds more generally for sigma sqrt(p) + zeta > sqrt(q)(1 - tau) (in place of sigma^2 > 1 - tau)",
       Status::holds, {"floor_constant=8"}, check_remark_1, K::convergence, Me::simulation,
       {"floor_constant", 1e-6, "the constant 8 of the noise floor -> 1e-6"}},
      {"003/remark-2", "Remark 2",
       "R(u) = u - 2/(beta + mu) grad f(u) is (beta - mu)/(beta + mu)-contractive for mu-strongly convex beta-smooth f",
       Status::holds, {"contraction_factor=1"}, check_remark_2, K::lemma, Me::search,
       {"contraction_factor", 0.95, "(beta - mu)/(beta + mu) -> 0.95 (beta - mu)/(beta + mu)"}},
      {"003/lemma-A.1", "Lemma A.1 (choices of the learning rate)",
       "0 < chi < 1 exactly for lambda in ((1+c-q)/((1+c)(1-b)), (1+c-q)/((1+c)(1-b)) (1/2 + 1/2 sqrt(1 + 4(1+c)(1-b)/((1-tau)(1+c-q)^2))))",
       Status::holds, {"half=0.5"}, check_lemma_a1, K::lemma, Me::search, {"half", 0.6, "the factors 1/2 of the upper end -> 0.6"}},
      {"003/thm-1-proof-lambda", "Proof of Theorem 1, Step 2",
       "the chosen lambda = (1/(1-b))(1 - q/(2(1+c))) is a learning rate of Algorithm 1, in (0, 1]", Status::fails,
       {"lambda_max=1"}, check_thm_1_proof_lambda, K::proof_step, Me::search, {"lambda_max", 1e9, "allow lambda up to 1e9"}},
      {"003/thm-2", "Theorem 2 = Theorem 8",
       "Algorithm 2 (record-level) is (alpha, 8 alpha K L^2 gamma^2/(sigma^2 n^2))-RDP", Status::fails_as_printed,
       {"n_power=2"}, check_thm_2, K::privacy, Me::simulation, {"n_power", 1, "the 1/n^2 -> 1/n"}},
      {"003/eq-25", "Appendix C.2, eq. (25)", "||T(u) - T'(u)|| <= 4 lambda L gamma/n for neighbouring data sets",
       Status::fails_as_printed, {"n_power=1"}, check_eq_25, K::proof_step, Me::search, {"n_power", 0, "the 1/n -> 1"}},
      {"003/thm-7", "Theorem 7 (private classic centralized ADMM), eq. (26)",
       "Algorithm 5 is (alpha, 8 K alpha ||A||^2 L^2 gamma^2/(sigma^2 n^2 omega_A^2))-RDP for full-rank A",
       Status::fails_as_printed, {"omega_power=2"}, check_thm_7, K::privacy, Me::simulation,
       {"omega_power", 4, "the omega_A^2 in the denominator -> omega_A^4 (the corrected modulus)"}},
      {"003/eq-24", "Appendix C.2, eq. (24)", "||T(u) - T'(u)|| <= 4 lambda L gamma ||A||_2/(n omega_A)", Status::fails_as_printed,
       {"omega_power=1"}, check_eq_24, K::proof_step, Me::search, {"omega_power", 0, "the omega_A in the denominator -> 1"}},
      {"003/thm-3-central", "Theorem 3 (central) = Theorem 10",
       "federated private ADMM is (alpha, 16 K alpha L^2 gamma^2/(n^2 sigma^2))-RDP against a third party", Status::fails,
       {"constant=16"}, check_thm_10, K::privacy, Me::search, {"constant", 6400, "the constant 16 -> 6400 (= 32 m at m = 200)"}},
      {"003/lemma-C.1", "Lemma C.1 (Mironov et al. 2019)",
       "the subsampled Gaussian is (alpha, 2 alpha q^2 Delta^2/sigma^2)-RDP in its validity region", Status::holds,
       {"constant=2"}, check_lemma_c1, K::lemma, Me::search, {"constant", 0.4, "the constant 2 -> 0.4"}},
      {"003/thm-3-local", "Theorem 3 (local) = Theorem 9",
       "federated private ADMM is (alpha, 8 alpha K_i L^2 gamma^2/sigma^2)-RDP for user i against the server",
       Status::holds, {"constant=8"}, check_thm_9, K::privacy, Me::search, {"constant", 4, "the constant 8 -> 4"}},
      {"003/remark-4", "Remark 4 (secure aggregation)",
       "with secure aggregation the server's view of sum_{i in S} Delta u_i amplifies the local RDP by 1/m^2",
       Status::fails, {"m_power=2"}, check_remark_4, K::privacy, Me::simulation, {"m_power", 1, "1/m^2 -> 1/m"}},
      {"003/app-C.2-argmin", "Appendix C.2, argmin sensitivity (Chaudhuri et al. 2011)",
       "the prox/argmin of an L-Lipschitz loss moves by at most 2 L gamma when the loss is replaced", Status::holds,
       {"sensitivity_factor=2"}, check_app_c2_argmin, K::lemma, Me::search, {"sensitivity_factor", 1.5, "2 L gamma -> 1.5 L gamma"}},
      {"003/app-C.2-strong-convexity", "Appendix C.2, before (24)",
       "phi(x) = ||A x + B z + u + c||^2/(2 gamma) is omega_A/gamma-strongly convex", Status::fails, {"omega_power=1"},
       check_app_c2_strong_convexity, K::proof_step, Me::search, {"omega_power", 2, "omega_A/gamma -> omega_A^2/gamma"}},
      {"003/thm-4", "Theorem 4", "Algorithm 4 is (alpha, 8 alpha K_i L^2 gamma^2 ln n/(sigma^2 n))-network RDP",
       Status::fails, {"constant=1"}, check_thm_4, K::privacy, Me::certified,
       {"constant", 1.05, "the claimed RDP x 1.05 (the exact divergence at n = 2 is 1.034 times the claim)"}},
      {"003/thm-4-series", "Proof of Theorem 4 (last line)", "sum_{k>=1} (1 - 1/n)^k/k = ln n", Status::holds,
       {"factor=1"}, check_thm_4_series, K::proof_step, Me::certified, {"factor", 1.01, "ln n -> 1.01 ln n"}},
      {"003/thm-4-hitting", "Proof of Theorem 4 (hitting time)",
       "the walk reaches j after k steps with probability (1/n)(1 - 1/n)^k", Status::fails, {"exponent_offset=0"},
       check_thm_4_hitting, K::proof_step, Me::simulation, {"exponent_offset", -1, "(1 - 1/n)^k -> (1 - 1/n)^(k-1)"}},
      {"003/thm-4-sigma", "Theorem 4 (hypothesis) with Proposition 3",
       "sigma > 2 L gamma sqrt(alpha(alpha-1)) suffices for the weak-convexity step (c <= 1)", Status::fails,
       {"sigma_factor=2"}, check_thm_4_sigma, K::proof_step, Me::search, {"sigma_factor", 2.8285, "2 -> 2.8285 (> 2 sqrt 2)"}},
      {"003/remark-5", "Remark 5",
       "federated learning with m sampled users recovers the centralized utility when m = n and the decentralized one when m = 1",
       Status::holds, {"m_exponent=1"}, check_remark_5, K::utility, Me::derivation,
       {"m_exponent", 0.5, "m = n -> m = sqrt(n) (exponent off by 1/2)"}},
      {"003/cor-5.1", "Corollary 5.1 (centralized privacy-utility trade-off)",
       "E||u_K - u*||^2 = O~(sqrt(p alpha) L gamma/(sqrt(eps) n (1-tau)) + p alpha L^2 gamma^2/(eps n^2 (1-tau)^3))",
       Status::fails_as_printed, {"tau_extra=0"}, check_cor_5_1, K::utility, Me::derivation,
       {"tau_extra", 0.5, "the claimed rate times (1 - tau)^-1/2"}},
      {"003/cor-5.2", "Corollary 5.2 (federated, central model)",
       "E||u_K - u*||^2 = O~(sqrt(p alpha) L gamma/(sqrt(eps r) n (1-tau)) + p alpha L^2 gamma^2/(eps r^2 n^2 (1-tau)^3))",
       Status::fails_as_printed, {"tau_extra=0", "r_extra=0", "eps_extra=0"}, check_cor_5_2, K::utility, Me::derivation,
       {"eps_extra", -0.5, "the exponent of eps off by 1/2 (sqrt(eps) -> eps)"}},
      {"003/cor-5.3", "Corollary 5.3 (decentralized)",
       "E||u_K - u*||^2 = O~(sqrt(p alpha) L gamma/(sqrt(eps n) (1-tau)) + p alpha L^2 gamma^2/(eps n (1-tau)^3))",
       Status::fails_as_printed, {"tau_extra=0", "n_extra=0", "eps_extra=0"}, check_cor_5_3, K::utility, Me::derivation,
       {"eps_extra", -0.5, "the exponent of eps off by 1/2 (sqrt(eps) -> eps)"}},
  };
}

}  // namespace dpl::proofs
