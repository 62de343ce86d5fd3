// SPDX-License-Identifier: Apache-2.0
// Seed 001: Y. Wang, A. Nedic, "Differentially-Private Distributed Optimization with Guaranteed Optimality".
// Theorem 2 is recomputed with the certified series of algorithms/seed001 (the paper's formula) against the
// accumulated sensitivity (the exact worst case under Definition 3's coupling), its sensitivity step (8) and Lemma 7's
// pairing by the coupled-observation audit; Theorem 1's convergence and Remark 3's rates by seeded runs of the library's
// update (4); the chain (19)-(22) and (25) by exact conditional expectations; Lemma 4 on the recursion with equality;
// Lemma 6 in exact rationals; the contraction of Assumption 1 by eigenvalues.
#include "accounting/numeric/exact_rational.h"
#include "accounting/numeric/portable_math.h"
#include "algorithms/graphs/graph.h"
#include "algorithms/rng/portable_rng.h"
#include "algorithms/seed001/accumulated_sensitivity.h"
#include "algorithms/seed001/claimed_epsilon.h"
#include "algorithms/seed001/coupled_audit.h"
#include "algorithms/seed001/ratio_series.h"
#include "algorithms/seed001/step_schedule.h"
#include "algorithms/seed001/algorithm1_step.h"
#include "proofs-check/counterexample_search.h"
#include "proofs-check/registry.h"
#include "proofs-check/run_statistics.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <functional>
#include <sstream>

namespace dpl::proofs {
// The checks of this paper (a namespace of their own: the papers name their theorems alike).
namespace paper_001_checks {
namespace {

using namespace dpl::algorithms::seed001;

// Theorem 2(1)/(3): eps <= 2C sum_{k=1}^T lambda^k/nu^k, with the Theorem 2(3) schedules at claimed eps = 1.
ClaimResult check_thm_2(const CheckContext& ctx) {
  const double factor = ctx.constant("sensitivity_factor", 2);  // the 2 of 2 C lambda^k
  const double C = 1, eps = 1;
  const StepSchedule nu = theorem2_nu(C, eps);
  const std::int64_t t_max = ctx.quick ? 1000 : 10000;
  std::vector<Axis> axes{{"T", 1, double(t_max), {1, 2, 3, 10, 100, double(t_max)}, true, true},
                         {"a", 0.25, 1, {0.25, 0.5, 1}}};
  const auto claimed = [&](std::int64_t T) {
    return factor / 2 * hi_up(paper_epsilon(theorem2_lambda(), nu, C, 1, T).epsilon);
  };
  const auto margin = [&](const Point& p) {
    const auto T = static_cast<std::int64_t>(p[0]);
    const double truth = lo_down(accumulated_epsilon(theorem2_lambda(), theorem2_gamma(), nu, C, {p[1]}, 1, T).epsilon);
    return claimed(T) - truth;
  };
  const SearchOutcome s = search_counterexample(axes, ctx.quick ? 4 : 16, ctx.seed, margin);
  ClaimResult r;
  r.region = "Theorem 2(3): lambda = 1/k, gamma = k^-0.9, nu = (2 C Phi/eps) k^0.3, eps = 1, C = 1; " + s.region +
             "; a = |w_ii|";
  const auto Tw = static_cast<std::int64_t>(s.worst_point[0]);
  const double truth_w = lo_down(accumulated_epsilon(theorem2_lambda(), theorem2_gamma(), nu, C, {s.worst_point[1]}, 1, Tw).epsilon);
  r.claimed = "eps(T) = " + num(factor) + " C sum_{k=1}^T lambda^k/nu^k = " + num(claimed(Tw), 6) + " at T = " +
              std::to_string(Tw) + " (-> " + num(factor / 2, 4) + " eps as T -> inf)";
  r.computed = "exact worst-case loss (accumulated sensitivity, certified) = " + num(truth_w, 6) + " at " +
               describe(axes, s.worst_point) + "; below the claim at " + std::to_string(s.failures) + " of " +
               std::to_string(s.evaluated) + " points";
  r.deficit = -s.worst_margin;
  if (s.smallest_failure) {
    const Point& p = *s.smallest_failure;
    const auto T = static_cast<std::int64_t>(p[0]);
    r.status = Status::fails;
    r.counterexample = describe(axes, p) + ": claimed " + num(claimed(T), 6) + " < exact " +
                       num(lo_down(accumulated_epsilon(theorem2_lambda(), theorem2_gamma(), nu, C, {p[1]}, 1, T).epsilon), 6);
    r.reproduce = "dpledger check 001/thm-2";
  } else {
    r.status = Status::holds;
  }
  r.note = "Step (8) assumes o^k = o'^k, but agent i mixes its own un-noised state, so the sensitivity accumulates "
           "(001/eq-8); the exact loss grows like T^0.6 while the claim stays below eps (docs/wang2022.md).";
  return r;
}

// Proof of Theorem 2, step (8): ||x_i^{k+1} - x_i'^{k+1}||_1 <= 2 C lambda^k under identical observations.
ClaimResult check_eq_8(const CheckContext& ctx) {
  const double factor = ctx.constant("sensitivity_factor", 2);
  const double C = 1;
  const StepSchedule nu = theorem2_nu(C, 1);
  algorithms::Rng rng(ctx.seed);
  const int K = ctx.quick ? 50 : 2000;
  AgentTranscript t;
  t.a = 7.0 / 12;
  t.k0 = 1;
  t.x_start = Eigen::VectorXd::Constant(1, rng.uniform(-1, 1));
  t.weights = {t.a / 2, t.a / 2};
  for (int s = 0; s < K; ++s) {
    Eigen::MatrixXd y(2, 1);
    y << rng.uniform(-5, 5), rng.uniform(-5, 5);
    t.received.push_back(y);
  }
  const CoupledAudit a = coupled_sensitivity_audit(t, theorem2_lambda(), theorem2_gamma(), nu, C,
                                                   huber_gradient(C, 100), huber_gradient(C, -100));
  // The audit compares with 2 C lambda^k; rescale for a perturbed constant.
  double worst = 0;
  std::int64_t first = -1;
  for (std::size_t k = 1; k < a.delta_l1.size(); ++k) {
    const double bound = a.paper_bound[k] * factor / 2;
    if (a.delta_l1[k] / bound > worst) worst = a.delta_l1[k] / bound;
    if (first < 0 && a.delta_l1[k] > bound * (1 + 1e-9)) first = static_cast<std::int64_t>(k) + t.k0;
  }
  ClaimResult r;
  r.region = "Theorem 2(3) schedules, one agent with |w_ii| = 7/12, d = 1, K = " + std::to_string(K) +
             " iterations on seeded random observations (seed " + std::to_string(ctx.seed) +
             "), the Huber pair f_i = C huber(x - 100), f_i' = C huber(x + 100) (gradients bounded by C = 1)";
  r.claimed = "||delta^{k+1}||_1 <= " + num(factor) + " C lambda^k for every k";
  r.computed = "max_k ||delta^{k+1}||_1 / (" + num(factor) + " C lambda^k) = " + num(worst, 6) +
               "; the accumulated sensitivity s^{k+1} " + (a.accumulated_bound_holds ? "holds" : "FAILS") +
               " (max ratio " + num(a.max_ratio_to_accumulated, 10) + ")";
  r.deficit = worst - 1;
  if (first >= 0) {
    r.status = Status::fails;
    r.counterexample = "the coupled pair above at iteration k + 1 = " + std::to_string(first) +
                       " (delta^2 = 2 C lambda^1 exactly; delta^3 exceeds 2 C lambda^2)";
    r.reproduce = "dpledger check 001/eq-8";
  } else {
    r.status = Status::holds;
  }
  r.note = "Equality with the accumulated sensitivity s^{k+1} = |1 - gamma^k a| s^k + 2 C lambda^k shows the "
           "recursion is tight; the paper's bound keeps only its last term.";
  return r;
}

// Theorem 2(3): Phi = sum_{k>=1} k^-1.3 ~ 3.93.
ClaimResult check_phi(const CheckContext& ctx) {
  const double printed = ctx.constant("phi", 3.93);
  const Interval phi = theorem2_phi();
  ClaimResult r;
  r.claimed = "Phi = sum k^-1.3 ~ " + num(printed, 6) + " (to the printed 3 significant digits: within 0.005)";
  r.computed = "Phi = zeta(1.3) in [" + num(lo_down(phi), 15) + ", " + num(hi_up(phi), 15) +
               "] (certified head sum + Euler-Maclaurin tail)";
  r.region = "the series itself";
  const double err = std::max(std::abs(hi_up(phi) - printed), std::abs(lo_down(phi) - printed));
  r.deficit = err - 0.005;
  r.status = err <= 0.005 ? Status::holds : Status::fails;
  if (r.status == Status::fails) r.counterexample = "Phi = " + num(mid_double(phi), 8) + " is not " + num(printed) + " to 3 digits";
  r.reproduce = "dpledger check 001/thm-2.3-phi";
  r.note = "Naive truncation is badly wrong here (the tail decays like T^-0.3): mpmath.nsum gives 0.947 for the "
           "simulation's series.";
  return r;
}

// sum_{k>=1} k^-p for p > 1, computed here independently of the library's series: the head sum to N = 2000 in long
// double plus the Euler-Maclaurin tail N^{1-p}/(p-1) - N^-p/2 + p N^{-p-1}/12 - p(p+1)(p+2) N^{-p-3}/720 (the head
// includes k = N; error far below 1e-15 relative for p in (1, 3)).
// The powers are e^{y log x} from portable_math (relative error about (|y log x| + 4) u_ld, the same on every CPU).
double zeta_independent(double p) {
  const int N = 2000;
  auto power = [](long double x, long double y) { return portable::exp(y * portable::log(x)); };
  long double head = 0;
  for (int k = N; k >= 1; --k) head += power(static_cast<long double>(k), -static_cast<long double>(p));
  const long double n = N;
  const long double tail = power(n, 1 - p) / (p - 1) - power(n, -p) / 2 + p * power(n, -p - 1) / 12 -
                           p * (p + 1) * (p + 2) * power(n, -p - 3) / 720;
  return static_cast<double>(head + tail);
}

// Theorem 2(2): nu^k = (2 C Phi/eps) nu'^k makes the paper's formula 2 C sum lambda^k/nu^k equal to eps (for any eps > 0,
// as T -> inf). Phi from the library's calibration; the sum recomputed here for power laws lambda = k^-u, nu' = k^w:
// 2 C sum k^-u/((c C Phi/eps) k^w) = 2 eps zeta(u + w)/(c Phi).
ClaimResult check_calibration(const CheckContext& ctx) {
  const double cfac = ctx.constant("calibration_factor", 2);
  std::vector<Axis> axes{{"u", 0.6, 1.2, {0.7, 1}}, {"w", 0.1, 0.8, {0.3, 0.6}}, {"eps", 0.05, 10, {0.1, 1, 5}, true}};
  const auto margin = [&](const Point& p) {
    if (p[0] + p[1] <= 1.05) return kInfinity;  // Phi must converge (u + w > 1)
    const StepSchedule lambda = power_schedule(1, -p[0]), shape = power_schedule(1, p[1]);
    const NuCalibration cal = calibrate_nu(lambda, shape, 1, p[2]);
    const double Phi = mid_double(cal.phi);
    const double budget = 2 * p[2] * zeta_independent(p[0] + p[1]) / (cfac * Phi);  // 2 C sum lambda/nu with nu = (c C Phi/eps) k^w
    return 1e-9 - std::abs(budget / p[2] - 1);
  };
  const SearchOutcome s = search_counterexample(axes, ctx.quick ? 3 : 12, ctx.seed, margin);
  ClaimResult r;
  r.region = "lambda = k^-u, nu' = k^w (u + w > 1.05), C = 1; " + s.region;
  r.claimed = "with nu^k = (" + num(cfac) + " C Phi/eps) nu'^k, 2 C sum_k lambda^k/nu^k = eps";
  r.computed = "largest relative error of the budget summed independently (head + Euler-Maclaurin tail) with the library's Phi: " +
               num(1e-9 - s.worst_margin, 3);
  record_search_verdict(r, s, axes);
  r.reproduce = "dpledger check 001/thm-2.2";
  r.note = "Holds as algebra of the paper's formula; the formula itself is not a bound (001/thm-2).";
  return r;
}

// Theorem 2(3): the schedule satisfies Theorem 1 and Assumption 3 (sum lambda^2/gamma, sum gamma^2 nu^2 finite).
ClaimResult check_thm_2_3_assumptions(const CheckContext& ctx) {
  const double w = ctx.constant("nu_exponent", 0.3);
  const SeriesEnclosure s1 = certified_ratio_sum(power_schedule(1, -1.1), power_schedule(1, 0), 1, kInfiniteHorizon);
  // sum gamma^2 nu^2/(2 C Phi/eps)^2 = sum k^(-1.8 + 2w): finite iff 1.8 - 2w > 1.
  const SeriesEnclosure s2 = certified_ratio_sum(power_schedule(1, -1.8 + 2 * w), power_schedule(1, 0), 1, kInfiniteHorizon);
  StepSchedule nu = theorem2_nu(1, 1);
  nu.c = w;
  const auto rows = feasibility_table(exponents(theorem2_lambda(), theorem2_gamma(), nu));
  bool all = !s1.diverges && !s2.diverges;
  std::ostringstream list;
  for (const auto& row : rows) {
    // The corrected-accountant row is not part of the claim (it is why 001/thm-2 fails); shown for information.
    const bool part_of_claim = row.condition.find("corrected") == std::string::npos;
    if (part_of_claim) all = all && row.holds;
    list << (list.tellp() ? "; " : "") << row.condition << ": " << (row.holds ? "yes" : "no")
         << (part_of_claim ? "" : " (not claimed)");
  }
  ClaimResult r;
  r.region = "lambda = 1/k, gamma = k^-0.9, nu = (2 C Phi/eps) k^" + num(w) + " (scale-free conditions)";
  r.claimed = "the choice satisfies Theorem 1's step conditions and Assumption 3";
  r.computed = "sum lambda^2/gamma = zeta(1.1) in [" + num(lo_down(s1.value), 12) + ", " + num(hi_up(s1.value), 12) +
               "]; sum gamma^2 nu^2 / (2 C Phi/eps)^2 = sum k^" + num(-1.8 + 2 * w) + " " +
               (s2.diverges ? std::string("diverges") : "in [" + num(lo_down(s2.value), 12) + ", " + num(hi_up(s2.value), 12) + "]") +
               "; " + list.str();
  r.status = all ? Status::holds : Status::fails;
  if (!all) r.counterexample = "nu ~ k^" + num(w) + ": a condition fails (" + list.str() + ")";
  r.reproduce = "dpledger check 001/thm-2.3-conditions";
  return r;
}

// Sec. VI: the simulation's schedules satisfy Theorem 1 and Assumption 3.
ClaimResult check_sec_vi(const CheckContext& ctx) {
  StepSchedule nu_s = simulation_nu();
  nu_s.c = ctx.constant("nu_exponent", 0.3);
  const auto rows = feasibility_table(exponents(simulation_lambda(), simulation_gamma(), nu_s));
  bool all = true;
  std::ostringstream list;
  for (const auto& row : rows) {
    const bool part_of_claim = row.condition.find("corrected") == std::string::npos;
    if (part_of_claim) all = all && row.holds;
    list << (list.tellp() ? "; " : "") << row.condition << " (" << row.exponent_form << " = " << num(row.value, 4)
         << "): " << (row.holds ? "yes" : "no") << (part_of_claim ? "" : " (not claimed)");
  }
  const SeriesEnclosure claimed = certified_ratio_sum(simulation_lambda(), nu_s, 1, kInfiniteHorizon);
  ClaimResult r;
  r.region = "lambda = 0.02/(1 + 0.1 k), gamma = 1/(1 + 0.1 k^0.9), nu = 1 + 0.1 k^" + num(nu_s.c);
  r.claimed = "the simulation's schedules meet Theorems 1 and 2 (convergence with finite eps)";
  r.computed = list.str() + "; the paper's eps(inf)/C = 2 sum lambda/nu in [" + num(2 * lo_down(claimed.value), 11) +
               ", " + num(2 * hi_up(claimed.value), 11) + "]";
  r.status = all ? Status::holds : Status::fails;
  if (!all) r.counterexample = "nu = 1 + 0.1 k^" + num(nu_s.c) + ": a condition fails";
  r.reproduce = "dpledger run wang-nedic --set K=1000";
  r.note = "The conditions hold, but C is never given and the quadratic losses violate Assumption 4; the eps itself "
           "is not a bound (001/thm-2).";
  return r;
}

// Lemma 6 (proof): pi = [1, 1/(m kappa)] is a left fixed vector of [[1, gamma/m], [0, 1 - kappa gamma]].
ClaimResult check_lemma_6(const CheckContext& ctx) {
  const double factor = ctx.constant("pi2_factor", 1);
  algorithms::Rng rng(ctx.seed);
  const int draws = ctx.quick ? 100 : 2000;
  int bad = 0;
  for (int i = 0; i < draws; ++i) {
    const Rational m = 2 + static_cast<long>(rng.uniform_int(100));
    const Rational kappa = exact_rational(rng.uniform(1e-3, 1)), gamma = exact_rational(rng.uniform(1e-3, 1));
    const Rational p1 = 1, p2 = exact_rational(factor) / (m * kappa);
    const Rational c1 = p1 * 1 + p2 * 0, c2 = p1 * gamma / m + p2 * (1 - kappa * gamma);
    bad += !(c1 == p1 && c2 == p2);
  }
  ClaimResult r;
  r.region = std::to_string(draws) + " seeded random (m in 2..101, kappa, gamma in (0.001, 1)), exact rationals";
  r.claimed = "pi = [1, " + num(factor) + "/(m kappa)] satisfies pi^T M = pi^T";
  r.computed = std::to_string(draws - bad) + " of " + std::to_string(draws) + " exact equalities";
  r.status = bad == 0 ? Status::holds : Status::fails;
  if (bad) r.counterexample = std::to_string(bad) + " random (m, kappa, gamma) with pi^T M != pi^T";
  r.reproduce = "dpledger check 001/lemma-6";
  return r;
}

// Assumption 1 as used in the proof of Theorem 1: ||I + gamma W - 11^T/m|| <= 1 - gamma kappa, kappa = 1 - rho.
ClaimResult check_contraction(const CheckContext& ctx) {
  const double factor = ctx.constant("gamma_kappa_factor", 1);
  algorithms::Rng rng(ctx.seed);
  const int graphs = ctx.quick ? 5 : 40;
  double worst = kInfinity;
  std::string where;
  for (int gi = 0; gi < graphs; ++gi) {
    const int n = 3 + static_cast<int>(rng.uniform_int(10));
    const int edges = n - 1 + static_cast<int>(rng.uniform_int(n));
    const algorithms::Graph g = algorithms::make_graph("random", n, std::min(edges, n * (n - 1) / 2), rng);
    const Eigen::MatrixXd W = algorithms::negative_laplacian_weights(g);
    const Eigen::MatrixXd J = Eigen::MatrixXd::Constant(n, n, 1.0 / n), I = Eigen::MatrixXd::Identity(n, n);
    auto norm2 = [](const Eigen::MatrixXd& M) {
      return Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(M).eigenvalues().cwiseAbs().maxCoeff();
    };
    const double rho = norm2(I + W - J), kappa = 1 - rho;
    for (double gamma : {0.01, 0.1, 0.3, 0.5, 0.9, 1.0}) {
      const double m = (1 - factor * gamma * kappa) - norm2(I + gamma * W - J) + 1e-12;
      if (m < worst) worst = m, where = "n=" + std::to_string(n) + ", gamma=" + num(gamma);
    }
  }
  ClaimResult r;
  r.region = std::to_string(graphs) + " seeded random connected graphs (3..12 nodes), Metropolis-based W, gamma in {0.01 .. 1}";
  r.claimed = "||I + gamma W - 11^T/m||_2 <= 1 - " + num(factor) + " gamma kappa with kappa = 1 - ||I + W - 11^T/m||_2";
  r.computed = "smallest margin " + num(worst, 4) + " (" + where + ")";
  r.deficit = -worst;
  r.status = worst >= 0 ? Status::holds : Status::fails;
  if (r.status == Status::fails) r.counterexample = where;
  r.reproduce = "dpledger check 001/thm-1-contraction";
  return r;
}

// ---- Algorithm 1 runs (Theorem 1 and Remark 3) ----

// m agents on a 5-cycle with a chord (W = Metropolis - I, Assumption 1), quadratic local objectives
// f_i(theta) = (mu/2)||theta - c_i||^2 (gradient mu-Lipschitz, F strongly convex with modulus mu, theta* = mean c_i),
// Theorem 2(3)'s lambda = 1/k and gamma = k^-0.9, Laplace noise of scale nu_scale k^nu_exponent (Assumption 3 when
// nu_exponent < 0.4; nu_scale k^0.3 with nu_scale = 2 C Phi/eps = 7.86 is Theorem 2(3)'s at C = eps = 1; 0: no noise).
struct NedicRun {
  std::vector<std::int64_t> k;
  std::vector<double> consensus;   // sum_i ||x_i^k - xbar^k||^2
  std::vector<double> mean_error;  // ||xbar^k - theta*||
  std::vector<double> agent_error;  // max_i ||x_i^k - theta*||
};

NedicRun run_algorithm1(double mu, double nu_scale, const std::vector<std::int64_t>& checkpoints, std::uint64_t seed,
                        double limit_offset = 0, double nu_exponent = 0.3, double spread = 2) {
  const int m = 5, d = 2;
  algorithms::Graph g;
  g.nodes = m;
  g.edges = {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {0, 4}, {0, 2}};
  g.neighbours = {{1, 2, 4}, {0, 2}, {0, 1, 3}, {2, 4}, {0, 3}};
  const Eigen::MatrixXd W = algorithms::negative_laplacian_weights(g);
  algorithms::Rng rng(seed);
  Eigen::MatrixXd c(m, d), x(m, d);
  for (int i = 0; i < m; ++i)
    for (int l = 0; l < d; ++l) c(i, l) = rng.uniform(-spread, spread), x(i, l) = rng.uniform(-5, 5);
  const Eigen::RowVectorXd theta = c.colwise().mean() + Eigen::RowVectorXd::Constant(d, limit_offset);
  const StepSchedule lambda = theorem2_lambda(), gamma = theorem2_gamma(), nu = power_schedule(nu_scale > 0 ? nu_scale : 1, nu_exponent);
  NedicRun out;
  std::size_t next = 0;
  Eigen::MatrixXd y(m, d);
  for (std::int64_t k = 1; k <= checkpoints.back(); ++k) {
    const double nk = nu.at(k), gk = gamma.at(k), lk = lambda.at(k);
    for (int j = 0; j < m; ++j)
      for (int l = 0; l < d; ++l) y(j, l) = x(j, l) + (nu_scale > 0 ? rng.laplace_scale(nk) : 0.0);
    Eigen::MatrixXd nx(m, d);
    for (int i = 0; i < m; ++i) {
      const auto& nb = g.neighbours[static_cast<std::size_t>(i)];
      std::vector<double> w;
      Eigen::MatrixXd rec(static_cast<Eigen::Index>(nb.size()), d);
      for (std::size_t r = 0; r < nb.size(); ++r) w.push_back(W(i, nb[r])), rec.row(static_cast<Eigen::Index>(r)) = y.row(nb[r]);
      const Eigen::VectorXd grad = mu * (x.row(i) - c.row(i)).transpose();
      nx.row(i) = algorithm1_step(x.row(i).transpose(), w, rec, gk, lk, grad).transpose();  // eq. (4), the library's
    }
    x = nx;
    if (next < checkpoints.size() && k == checkpoints[next]) {
      const Eigen::RowVectorXd xbar = x.colwise().mean();
      double cons = 0, worst = 0;
      for (int i = 0; i < m; ++i) cons += (x.row(i) - xbar).squaredNorm(), worst = std::max(worst, (x.row(i) - theta).norm());
      out.k.push_back(k);
      out.consensus.push_back(cons);
      out.mean_error.push_back((xbar - theta).norm());
      out.agent_error.push_back(worst);
      ++next;
    }
  }
  return out;
}

// Mean over seeded runs, per checkpoint, of one of the curves.
std::vector<MeanEstimate> curve_means(const std::vector<NedicRun>& runs, std::vector<double> NedicRun::*curve) {
  std::vector<MeanEstimate> out;
  for (std::size_t c = 0; c < runs.front().k.size(); ++c) {
    std::vector<double> v;
    for (const auto& r : runs) v.push_back((r.*curve)[c]);
    out.push_back(mean_of(v));
  }
  return out;
}

std::vector<std::int64_t> decade_checkpoints(bool quick) {
  return quick ? std::vector<std::int64_t>{100, 1000, 10000} : std::vector<std::int64_t>{100, 1000, 10000, 100000};
}

// Theorem 1: under Assumptions 1-3 and sum gamma = inf, sum lambda = inf, sum lambda^2/gamma < inf, Algorithm 1
// converges a.s. to a solution.
ClaimResult check_thm_1_convergence(const CheckContext& ctx) {
  const double offset = ctx.constant("limit_offset", 0);
  const auto cps = decade_checkpoints(ctx.quick);
  const int runs = ctx.quick ? 12 : 24;
  // Converging is judged on the fitted decay exponent of the error: its 99% interval (Student t over the runs) must lie
  // below the slowest rate the paper gives for every agent with these steps, (k gamma^k)^-1/2 = k^-0.05 (Remark 3).
  constexpr double kConfidence = 0.99;
  const double slowest_rate = -0.05;
  std::ostringstream list;
  bool all = true, undecided = false;
  double worst_upper = -kInfinity;
  std::string counter;
  for (double mu : {0.2, 1.7}) {
    std::vector<NedicRun> rs;
    for (int k = 0; k < runs; ++k) rs.push_back(run_algorithm1(mu, 1, cps, ctx.seed + static_cast<std::uint64_t>(k), offset, 0, 0.05));
    const auto e = curve_means(rs, &NedicRun::agent_error);
    // The decay exponent of each run's error over the decades after the first (past the transient), with its interval.
    std::vector<double> xs;
    for (std::size_t c = 1; c < cps.size(); ++c) xs.push_back(static_cast<double>(cps[c]));
    std::vector<std::vector<double>> ys;
    for (const auto& run : rs) ys.emplace_back(run.agent_error.begin() + 1, run.agent_error.end());
    const ExponentInterval fit = exponent_over_runs(xs, ys, kConfidence);
    worst_upper = std::max(worst_upper, fit.upper);
    if (fit.lower > slowest_rate) {
      all = false;
      if (counter.empty())
        counter = "mu = " + num(mu) + ": max_i ||x_i - theta_claimed|| " + describe(e.front(), 3) + " at k = " + std::to_string(cps.front()) +
                  " -> " + describe(e.back(), 3) + " at k = " + std::to_string(cps.back()) + ", fitted exponent " + describe(fit) +
                  ", slower than k^" + num(slowest_rate);
    } else if (fit.upper > slowest_rate) {
      undecided = true;
    }
    list << (list.tellp() ? "; " : "") << "mu=" << num(mu) << ":";
    for (std::size_t c = 0; c < e.size(); ++c) list << " k=" << cps[c] << " " << describe(e[c], 3);
    list << ", fitted exponent " << describe(fit);
  }
  ClaimResult r;
  r.region = "m = 5 agents (5-cycle + chord, W = Metropolis - I), d = 2, f_i = (mu/2)||theta - c_i||^2 with c_i in [-0.05, "
             "0.05]^2 and mu in {0.2, 1.7}, x^1 in [-5, 5]^2, "
             "lambda = 1/k, gamma = k^-0.9 (Theorem 2(3)'s) and Laplace noise of constant scale nu = 1 (Assumption 3: sum gamma^2 "
             "nu^2 < inf), " +
             std::to_string(runs) + " seeded runs of the library's update (4) each";
  r.claimed = "every x_i^k -> theta*" + (offset == 0 ? std::string("") : " + " + num(offset)) + " a.s.";
  r.computed = "run mean of max_i ||x_i^k - theta||: " + list.str() + " (the paper's slowest rate for every agent: exponent " +
               num(slowest_rate) + ")";
  r.deficit = worst_upper - slowest_rate;
  if (!all) {
    r.status = Status::fails;
    r.counterexample = counter;
  } else if (undecided) {
    r.status = Status::inconclusive;
    r.why = "a fitted exponent's interval contains the rate k^" + num(slowest_rate) + "; more runs or longer runs would decide";
  } else {
    r.status = Status::holds;
  }
  r.reproduce = "dpledger check 001/thm-1-convergence";
  r.note = "Converging means the runs' errors decay as a power of k at least as fast as k^-0.05, the rate Remark 3 gives "
           "every agent at these steps, by a 99% interval over the runs; an a.s. limit cannot be proved by finite runs. With far-apart c_i the disagreement "
           "decays only like lambda^k/gamma^k = k^-0.1 (001/remark-3).";
  return r;
}

// Remark 3: sum_i ||x_i - xbar||^2 decreases no slower than O(1/(k gamma^k)), xbar -> theta* no slower than O(k^-0.5),
// every x_i -> theta* no slower than O(1/(k gamma^k)^0.5) (k^-0.05 for gamma = k^-0.9).
ClaimResult check_remark_3(const CheckContext& ctx) {
  const double mean_rate = ctx.constant("mean_rate", 0.5);
  const auto cps = decade_checkpoints(ctx.quick);
  const int runs = ctx.quick ? 16 : 24;
  constexpr double kConfidence = 0.99;
  struct Fit {
    std::string name;
    ExponentInterval consensus, mean, agent;
    bool noisy;
  };
  std::vector<Fit> fits;
  for (auto [mu, nu_scale, name] : {std::tuple{0.2, 7.86, "mu=0.2, Theorem 2(3)'s noise"}, std::tuple{1.7, 7.86, "mu=1.7, Theorem 2(3)'s noise"},
                                     std::tuple{1.7, 0.0, "mu=1.7, no noise"}}) {
    std::vector<NedicRun> rs;
    for (int k = 0; k < runs; ++k) rs.push_back(run_algorithm1(mu, nu_scale, cps, ctx.seed + static_cast<std::uint64_t>(k)));
    std::vector<double> xs;
    for (std::size_t i = 1; i < cps.size(); ++i) xs.push_back(static_cast<double>(cps[i]));  // the decades after the first (past the transient)
    const auto per_run = [&](std::vector<double> NedicRun::*curve) {
      std::vector<std::vector<double>> ys;
      for (const auto& run : rs) ys.emplace_back((run.*curve).begin() + 1, (run.*curve).end());
      return exponent_over_runs(xs, ys, kConfidence);
    };
    fits.push_back({name, per_run(&NedicRun::consensus), per_run(&NedicRun::mean_error), per_run(&NedicRun::agent_error), nu_scale > 0});
  }
  // Claimed exponents (no slower than): consensus -(1 - 0.9) = -0.1, mean -mean_rate, every agent -0.05. A rate fails
  // when the whole interval of the fitted exponent lies above the claimed one (significantly slower).
  std::ostringstream list;
  bool noisy_fails = false, noiseless_fails = false;
  std::string counter;
  for (const auto& f : fits) {
    const bool ok = f.consensus.lower <= -0.1 && f.mean.lower <= -mean_rate && f.agent.lower <= -0.05;
    if (!ok) {
      (f.noisy ? noisy_fails : noiseless_fails) = true;
      if (counter.empty())
        counter = f.name + ": ||xbar - theta*|| decays like k^" + num(f.mean.slope, 3) + " (interval [" + num(f.mean.lower, 3) +
                  ", " + num(f.mean.upper, 3) + "]; claimed k^-" + num(mean_rate) + ")";
    }
    list << (list.tellp() ? "; " : "") << f.name << ": fitted exponents consensus " << describe(f.consensus)
         << " (theorem -0.1), ||xbar - theta*|| " << describe(f.mean) << " (theorem -" << num(mean_rate)
         << "), max_i ||x_i - theta*|| " << describe(f.agent) << " (theorem -0.05)";
  }
  ClaimResult r;
  r.region = "the instance of 001/thm-1-convergence with lambda = 1/k, gamma = k^-0.9 and Theorem 2(3)'s noise nu = 7.86 k^0.3 "
             "(mu in {0.2, 1.7}) and without noise (mu = 1.7), " + std::to_string(runs) + " seeded runs; each run's log-log "
             "slope over k = " + std::to_string(cps[1]) + " .. " + std::to_string(cps.back()) + ", their mean with a " +
             num(100 * kConfidence) + "% Student-t interval; a rate fails when the whole interval is above the claimed exponent";
  r.claimed = "exponents at most: consensus -0.1 (1/(k gamma^k)), ||xbar - theta*|| -" + num(mean_rate) + ", ||x_i - theta*|| -0.05 "
              "((k gamma^k)^-1/2)";
  r.computed = list.str();
  r.deficit = fits.front().mean.lower + mean_rate;
  if (!noisy_fails && !noiseless_fails) {
    r.status = Status::holds;
  } else if (!noiseless_fails) {
    r.status = Status::fails_as_printed;
    r.counterexample = counter;
    r.holds_where = "without noise when mu lambda^k k >= 1/2 (here mu = 1.7, lambda^k = 1/k); with Theorem 2(3)'s noise the mean's "
                    "error is carried by the tail sum of (gamma^j nu^j)^2 ~ k^-0.2, i.e. ~ k^-0.1 for every mu, and with "
                    "lambda^k = 1/k and small mu the deterministic part alone decays like k^-mu";
  } else {
    r.status = Status::fails;
    r.counterexample = counter;
  }
  r.reproduce = "dpledger check 001/remark-3";
  r.note = "The consensus rate and the overall (k gamma^k)^-1/2 = k^-0.05 hold here; Remark 3's step from 'square summable' to "
           "O(k^-0.5) is not a rate argument.";
  return r;
}

// ---- The chain (19)-(22) and (25) of the proof of Theorem 1, by exact conditional expectations ----

struct ChainInstance {
  int m, d;
  Eigen::MatrixXd W, x, c;
  double mu, lambda, gamma, nu, kappa;
  algorithms::Graph g;
};

ChainInstance random_chain_instance(algorithms::Rng& rng, int draw) {
  ChainInstance I;
  I.m = 3 + static_cast<int>(rng.uniform_int(6));
  I.d = 1 + static_cast<int>(rng.uniform_int(3));
  I.g = algorithms::make_graph("random", I.m, std::min(I.m * (I.m - 1) / 2, I.m - 1 + static_cast<int>(rng.uniform_int(I.m))), rng);
  I.W = algorithms::negative_laplacian_weights(I.g);
  const Eigen::MatrixXd J = Eigen::MatrixXd::Constant(I.m, I.m, 1.0 / I.m), Id = Eigen::MatrixXd::Identity(I.m, I.m);
  I.kappa = 1 - Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(Id + I.W - J).eigenvalues().cwiseAbs().maxCoeff();
  I.mu = portable::binary64::exp(rng.uniform(-3, 1));
  I.lambda = portable::binary64::exp(rng.uniform(-6, 0)) / I.mu, I.gamma = rng.uniform(0.01, 1), I.nu = portable::binary64::exp(rng.uniform(-3, 2));
  I.c = Eigen::MatrixXd(I.m, I.d), I.x = Eigen::MatrixXd(I.m, I.d);
  for (int i = 0; i < I.m; ++i)
    for (int l = 0; l < I.d; ++l) I.c(i, l) = rng.uniform(-2, 2), I.x(i, l) = rng.uniform(-3, 3);
  const Eigen::RowVectorXd theta = I.c.colwise().mean();
  if (draw % 3 == 1) {  // consensus at theta*: only the noise moves the state
    for (int i = 0; i < I.m; ++i) I.x.row(i) = theta;
  } else if (draw % 3 == 2) {  // the mean at theta*, the disagreement along W's slowest mode
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(Id + I.W - J);
    Eigen::Index k;
    es.eigenvalues().cwiseAbs().maxCoeff(&k);
    for (int i = 0; i < I.m; ++i) I.x.row(i) = theta + es.eigenvectors()(i, k) * Eigen::RowVectorXd::Ones(I.d);
  }
  return I;
}

// (19)-(22): E[||xbar^{k+1} - theta*||^2 | F^k] <= the right side of (22), exact (the noise enters linearly):
// E = ||xbar - theta* - (lambda/m) sum g_i||^2 + (gamma^2/m^2) sum_i w_ii^2 sigma_i^2, sigma_i^2 = 2 d nu^2.
ClaimResult check_eq_19_22(const CheckContext& ctx) {
  const double noise_factor = ctx.constant("noise_factor", 2);
  algorithms::Rng rng(ctx.seed);
  const int draws = ctx.quick ? 300 : 3000;
  double worst22 = -kInfinity, worst19 = -kInfinity, worst20 = -kInfinity;
  std::string where;
  for (int k = 0; k < draws; ++k) {
    const ChainInstance I = random_chain_instance(rng, k);
    const double L = I.mu, s2 = 2 * I.d * I.nu * I.nu;
    const Eigen::RowVectorXd theta = I.c.colwise().mean(), xbar = I.x.colwise().mean();
    Eigen::MatrixXd g(I.m, I.d);
    for (int i = 0; i < I.m; ++i) g.row(i) = I.mu * (I.x.row(i) - I.c.row(i));
    double sum_w2 = 0, cons = 0;
    for (int i = 0; i < I.m; ++i) sum_w2 += I.W(i, i) * I.W(i, i), cons += (I.x.row(i) - xbar).squaredNorm();
    const double lhs = (xbar - theta - I.lambda / I.m * g.colwise().sum()).squaredNorm() + I.gamma * I.gamma / (I.m * I.m) * sum_w2 * s2;
    const double Fgap = 0.5 * I.mu * I.m * (xbar - theta).squaredNorm() / I.m;  // F(xbar) - F(theta*) = (mu/2)||xbar - theta*||^2
    const double e2 = (xbar - theta).squaredNorm();
    const double rhs = e2 + I.gamma / I.m * cons + L * L * I.lambda * I.lambda * (1 / I.gamma + 4) * e2 - 2 * I.lambda * Fgap +
                       4 * L * L * I.lambda * I.lambda / I.m * cons + noise_factor / I.m * I.gamma * I.gamma * sum_w2 * s2;
    const double ex = (lhs - rhs) / std::max(1e-300, rhs);
    if (ex > worst22) worst22 = ex, where = "m=" + std::to_string(I.m) + ", d=" + std::to_string(I.d) + ", mu=" + num(I.mu, 4) + ", lambda=" + num(I.lambda, 4) + ", gamma=" + num(I.gamma, 4) + ", nu=" + num(I.nu, 4);
    // (19) and (20) on their own.
    double xx = 0;
    for (int i = 0; i < I.m; ++i) xx += (I.x.row(i) - theta).squaredNorm();
    worst19 = std::max(worst19, g.colwise().sum().squaredNorm() / (I.m * I.m) - L * L / I.m * xx);
    worst20 = std::max(worst20, xx - 2 * cons - 2 * I.m * e2);
  }
  ClaimResult r;
  r.region = std::to_string(draws) + " seeded random instances: connected graphs with 3..8 agents (W = Metropolis - I), d in 1..3, "
             "f_i = (mu/2)||theta - c_i||^2 (L = mu), lambda, gamma in (0, 1], Laplace nu; a third of the states at consensus on "
             "theta*, a third along W's slowest mode; E over the Laplace noise exact";
  r.claimed = "(22) with the noise term " + num(noise_factor) + " gamma^2/m sum w_ii^2 sigma_i^2; (19) and (20)";
  r.computed = "largest (left - right)/right of (22): " + num(worst22, 4) + " (at " + where + "); of (19): " + num(worst19, 3) +
               "; of (20): " + num(worst20, 3);
  const bool ok = worst22 <= 1e-12 && worst19 <= 1e-9 && worst20 <= 1e-9;
  r.deficit = worst22;
  r.status = ok ? Status::holds : Status::fails;
  if (!ok) r.counterexample = worst22 > 1e-12 ? where : "(19) or (20) at a random instance";
  r.reproduce = "dpledger check 001/eq-19-22";
  r.note = "The noise term of (14) is loose by a factor m (2/m instead of 1/m^2): the exact conditional variance is "
           "(gamma^2/m^2) sum w_ii^2 sigma_i^2.";
  return r;
}

// (25): E[||x^{k+1} - 1 xbar^{k+1}||^2 | F^k] <= (1 - gamma kappa + 4 L^2 lambda^2/(kappa gamma)) ||x - 1 xbar||^2 + 4 m L^2
// lambda^2/(kappa gamma) ||xbar - theta*||^2 + 4 lambda^2 m^2/(kappa gamma) ||grad f(x*)||^2 + m gamma^2 max_j sigma_j^2 C_W,
// with kappa = 1 - ||I + W - 11^T/m|| (the reading of "|nu|" for which ||I + gamma W - 11^T/m|| <= 1 - gamma kappa).
ClaimResult check_eq_25(const CheckContext& ctx) {
  const double kappa_factor = ctx.constant("kappa_factor", 1);
  algorithms::Rng rng(ctx.seed);
  const int draws = ctx.quick ? 300 : 3000;
  double worst = -kInfinity;
  std::string where;
  for (int k = 0; k < draws; ++k) {
    const ChainInstance I = random_chain_instance(rng, k);
    const int m = I.m, d = I.d;
    const double L = I.mu, kap = kappa_factor * I.kappa, s2 = 2 * d * I.nu * I.nu;
    const Eigen::MatrixXd J = Eigen::MatrixXd::Constant(m, m, 1.0 / m), Id = Eigen::MatrixXd::Identity(m, m);
    const Eigen::RowVectorXd theta = I.c.colwise().mean(), xbar = I.x.colwise().mean();
    Eigen::MatrixXd g(m, d), gstar(m, d);
    for (int i = 0; i < m; ++i) g.row(i) = I.mu * (I.x.row(i) - I.c.row(i)), gstar.row(i) = I.mu * (theta - I.c.row(i));
    const Eigen::MatrixXd What = Id + I.gamma * I.W - J, Xi = Id - J;
    const Eigen::MatrixXd dev = I.x - Eigen::MatrixXd::Ones(m, 1) * xbar;
    // Exact: ||What dev - lambda Xi g||^2 + gamma^2 E||Xi zeta_w||^2, zeta_w = W_off zeta, Cov per coordinate 2 nu^2 W_off W_off^T.
    Eigen::MatrixXd Woff = I.W;
    Woff.diagonal().setZero();
    const double noise = I.gamma * I.gamma * d * 2 * I.nu * I.nu * (Xi * Woff * Woff.transpose() * Xi).trace();
    const double lhs = (What * dev - I.lambda * Xi * g).squaredNorm() + noise;
    double CW = 0;
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < m; ++j)
        if (i != j) CW += Woff(i, j) * Woff(i, j);
    const double grad_star2 = gstar.squaredNorm() / (m * m);  // ||grad f(x*)||^2, f = (1/m) sum f_i
    const double rhs = (1 - I.gamma * kap + 4 * L * L * I.lambda * I.lambda / (kap * I.gamma)) * dev.squaredNorm() +
                       4 * m * L * L * I.lambda * I.lambda / (kap * I.gamma) * (xbar - theta).squaredNorm() +
                       4 * I.lambda * I.lambda * m * m / (kap * I.gamma) * grad_star2 + m * I.gamma * I.gamma * s2 * CW;
    const double ex = (lhs - rhs) / std::max(1e-300, rhs);
    if (ex > worst) worst = ex, where = "m=" + std::to_string(m) + ", d=" + std::to_string(d) + ", kappa=" + num(I.kappa, 4) + ", gamma=" + num(I.gamma, 4) + ", lambda=" + num(I.lambda, 4);
  }
  ClaimResult r;
  r.region = std::to_string(draws) + " seeded random instances as for 001/eq-19-22; kappa = 1 - ||I + W - 11^T/m||_2";
  r.claimed = "(25) with 1 - gamma kappa, kappa = " + (kappa_factor == 1 ? std::string("") : num(kappa_factor) + " x ") + "1 - ||I + W - 11^T/m||";
  r.computed = "largest (left - right)/right: " + num(worst, 4) + " (at " + where + ")";
  r.deficit = worst;
  r.status = worst <= 1e-12 ? Status::holds : Status::fails;
  if (r.status == Status::fails) r.counterexample = where;
  r.reproduce = "dpledger check 001/eq-25";
  r.note = "Its ||grad f(x*)||^2 term carries 4 where the substitution gives 2 (conservative). The printed '|nu|' (some "
           "eigenvalue of W) is read as the spectral gap, which makes ||I + gamma W - 11^T/m|| <= 1 - gamma kappa hold for gamma <= 1.";
  return r;
}

// Lemma 4: v^{k+1} <= (1 - alpha^k) v^k + beta^k with sum alpha = inf, alpha -> 0, beta/alpha -> 0 implies
// v^k <= C beta^k/alpha^k for k >= K.
ClaimResult check_lemma_4(const CheckContext& ctx) {
  const double power = ctx.constant("ratio_exponent", 1);
  // v^{k+1} = (1 - alpha^k) v^k + beta^k exactly (the extreme case of the hypothesis), v^1 = 1; sup_k v^k/(beta^k/alpha^k)^p.
  struct Family {
    std::string name;
    std::function<double(double)> alpha, beta;
    bool printed_domain_only;  // in the lemma's hypotheses but not a power law with alpha ~ k^-a, a < 1
  };
  const std::vector<Family> families{
      {"alpha = 1/(k+1), beta = alpha 2^-k", [](double k) { return 1 / (k + 1); }, [](double k) { return portable::pow(2.0, -k) / (k + 1); }, true},
      {"alpha = 1/(k+1), beta = (k+1)^-3", [](double k) { return 1 / (k + 1); }, [](double k) { return portable::pow(k + 1, -3.0); }, true},
      {"alpha = k^-0.5, beta = k^-1", [](double k) { return portable::pow(k, -0.5); }, [](double k) { return 1 / k; }, false},
      {"alpha = k^-0.9, beta = k^-1.5", [](double k) { return portable::pow(k, -0.9); }, [](double k) { return portable::pow(k, -1.5); }, false}};
  const std::int64_t K = ctx.quick ? 20000 : 200000;
  std::ostringstream list;
  bool printed_fails = false, power_fails = false;
  std::string counter;
  for (const auto& f : families) {
    double v = 1, sup_half = 0, sup_all = 0;
    for (std::int64_t k = 1; k <= K; ++k) {
      const double kk = static_cast<double>(k), a = f.alpha(kk), b = f.beta(kk);
      if (k > 1) {
        const double ratio = v / portable::pow(b / a, power);
        sup_all = std::max(sup_all, ratio);
        if (k <= K / 2) sup_half = std::max(sup_half, ratio);
      }
      v = (1 - a) * v + b;
    }
    // Unbounded: the supremum keeps growing (by more than 10% from k = K/2 to K and past 10^3 times its value at k = 2).
    const bool unbounded = sup_all > 1.1 * sup_half && sup_all > 1e3;
    list << (list.tellp() ? "; " : "") << f.name << ": sup_{k <= K/2} v/(beta/alpha)^" << num(power) << " = " << num(sup_half, 4)
         << ", sup_{k <= K} = " << num(sup_all, 4);
    if (unbounded) {
      (f.printed_domain_only ? printed_fails : power_fails) = true;
      if (counter.empty()) counter = f.name + ", v^1 = 1: v^k alpha^k/beta^k >= " + num(sup_all, 4) + " by k = " + std::to_string(K) +
                                     " and growing (v^k >= prod (1 - alpha^j) = 1/k while beta/alpha decays faster)";
    }
  }
  ClaimResult r;
  r.region = "the recursion with equality, v^1 = 1, k <= " + std::to_string(K) + ", four families satisfying the hypotheses";
  r.claimed = "v^k <= C (beta^k/alpha^k)^" + num(power) + " for k >= K";
  r.computed = list.str();
  r.deficit = printed_fails || power_fails ? 1 : -1;
  if (!printed_fails && !power_fails) {
    r.status = Status::holds;
  } else if (!power_fails) {
    r.status = Status::fails_as_printed;
    r.counterexample = counter;
    r.holds_where = "for power laws alpha ~ k^-a with a < 1 and beta/alpha a power (there v^k ~ beta^k/alpha^k): Lemma 4 needs "
                    "beta/alpha to decay no faster than prod (1 - alpha^j)";
  } else {
    r.status = Status::fails;
    r.counterexample = counter;
  }
  r.reproduce = "dpledger check 001/lemma-4";
  r.note = "Lemma 4 is stated but not used in this version of the paper. Since beta >= 0, v^k >= v^K prod_{j>=K} (1 - alpha^j), "
           "which for alpha^j = 1/(j+1) is v^K (K+1)/(k+1): a lower bound that beta^k/alpha^k = 2^-k cannot dominate.";
  return r;
}

// Lemma 7: "if each agent adds Laplace noise with parameter nu^k such that sum_{k=1}^T Delta^k/nu^k <= eps, Algorithm 1 is
// eps-DP for iterations k = 1 .. T+1". Delta^k bounds ||x^{k+1} - x'^{k+1}||, which is released at iteration k+1 with noise
// nu^{k+1}: the exact loss pairs it with nu^{k+1}.
ClaimResult check_lemma_7(const CheckContext& ctx) {
  const double shift = ctx.constant("index_shift", 0);
  const double C = 1;
  algorithms::Rng rng(ctx.seed);
  const int K = ctx.quick ? 60 : 400;
  AgentTranscript t;
  t.a = 7.0 / 12;
  t.k0 = 1;
  t.x_start = Eigen::VectorXd::Constant(1, rng.uniform(-1, 1));
  t.weights = {t.a / 2, t.a / 2};
  for (int s = 0; s < K; ++s) {
    Eigen::MatrixXd y(2, 1);
    y << rng.uniform(-5, 5), rng.uniform(-5, 5);
    t.received.push_back(y);
  }
  const StepSchedule lambda = theorem2_lambda(), gamma = theorem2_gamma();
  const CoupledAudit a = coupled_sensitivity_audit(t, lambda, gamma, theorem2_nu(C, 1), C, huber_gradient(C, 100), huber_gradient(C, -100));
  // The pair is deterministic (identical observations, gradients +-C far from the centres), so Delta^k = ||delta^{k+1}||_1
  // for this pair and the worst-case log-likelihood ratio of the messages is sum_k ||delta^{k+1}||_1/nu^{k+1} (attained on
  // the positive-probability event that every coordinate of every message lies beyond both states).
  std::ostringstream list;
  bool increasing_fails = false, decreasing_fails = false;
  std::string counter;
  for (int variant = 0; variant < 2; ++variant) {
    const StepSchedule nu = variant == 0 ? power_schedule(1, 0.3) : power_schedule(10, -0.5);
    double claimed = 0, exact = 0;
    for (std::size_t k = 1; k + 1 < a.delta_l1.size(); ++k) {  // iteration k = k0 + k - 1, Delta^k = delta_l1[k]
      const auto it = static_cast<std::int64_t>(k);
      claimed += a.delta_l1[k] / nu.at(it + static_cast<std::int64_t>(shift));
      exact += a.delta_l1[k] / nu.at(it + 1);
    }
    const bool fails = exact > claimed * (1 + 1e-12);
    (variant == 0 ? increasing_fails : decreasing_fails) = fails;
    list << (list.tellp() ? "; " : "") << (variant == 0 ? "nu^k = k^0.3" : "nu^k = 10 k^-0.5") << ": lemma's sum " << num(claimed, 6)
         << ", exact loss " << num(exact, 6);
    if (fails && counter.empty())
      counter = std::string(variant == 0 ? "nu^k = k^0.3" : "nu^k = 10 k^-0.5 (decreasing)") + ", T = " + std::to_string(K - 1) +
                ": with eps = the lemma's sum " + num(claimed, 6) + " the messages' worst-case loss is " + num(exact, 6);
  }
  ClaimResult r;
  r.region = "one agent of Theorem 2(3)'s schedules (|w_ii| = 7/12, d = 1, K = " + std::to_string(K) + " iterations of seeded observations, "
             "the Huber pair of 001/eq-8 replayed by the library's coupled audit); Laplace scales nu^k = k^0.3 (increasing, like the "
             "paper's) and 10 k^-0.5 (decreasing, allowed by the lemma)";
  r.claimed = "sum_k Delta^k/nu^(k" + (shift == 0 ? std::string("") : " + " + num(shift)) + ") <= eps makes the messages eps-DP";
  r.computed = list.str();
  r.deficit = decreasing_fails || increasing_fails ? 1 : -1;
  if (!increasing_fails && !decreasing_fails) {
    r.status = Status::holds;
  } else if (!increasing_fails) {
    r.status = Status::fails_as_printed;
    r.counterexample = counter;
    r.holds_where = "for non-decreasing nu^k (every schedule of the paper), where pairing Delta^k with nu^k instead of nu^{k+1} is "
                    "conservative";
  } else {
    r.status = Status::fails;
    r.counterexample = counter;
  }
  r.reproduce = "dpledger check 001/lemma-7";
  r.note = "Delta^k (Definition 3) bounds the state x^{k+1}, which iteration k+1 releases with Lap(nu^{k+1}); the lemma divides "
           "it by nu^k. What fails in Theorem 2 is the sensitivity fed into the lemma (001/eq-8).";
  return r;
}

// Remark 1: under gamma^k = O(1/k^0.9), a noise level sigma^k growing no faster than O(k^0.3) keeps (5),
// sum_k (gamma^k)^2 max_i (sigma_i^k)^2 < infinity. The sum with gamma^k = (k+1)^-0.9 and sigma^k = (k+1)^s for s up to
// the claimed rate: its partial sum to 10^6 and the integral-test tail, or its divergence (the partial sums' growth).
ClaimResult check_remark_1(const CheckContext& ctx) {
  const double rate = ctx.constant("sigma_rate", 0.3);
  const double gamma_exponent = 0.9;
  const int n = ctx.quick ? 100000 : 1000000;
  std::ostringstream list;
  bool summable = true;
  std::string counter;
  for (double s : {0.0, rate / 2, rate}) {
    const double e = 2 * gamma_exponent - 2 * s;  // the summand (k+1)^-e
    double partial = 0, half = 0;
    for (int k = 0; k < n; ++k) {
      partial += portable::pow(k + 1.0, -e);
      if (k + 1 == n / 10) half = partial;
    }
    // Integral test: the tail beyond n is at most int_n^inf x^-e dx = n^(1-e)/(e-1) for e > 1; for e <= 1 the sum grows
    // at least like the integral, i.e. without bound.
    const bool converges = e > 1;
    const double tail = converges ? portable::pow(n, 1 - e) / (e - 1) : kInfinity;
    list << (list.tellp() ? "; " : "") << "sigma ~ k^" << num(s) << ": summand k^-" << num(e, 4) << ", partial sum to " << n << " = "
         << num(partial, 6) << " (to " << n / 10 << ": " << num(half, 6) << "), tail " << (converges ? "<= " + num(tail, 4) : std::string("unbounded"));
    if (!converges && summable) {
      summable = false;
      counter = "sigma^k ~ k^" + num(s) + " with gamma^k ~ k^-0.9: sum (gamma^k sigma^k)^2 = sum k^-" + num(e, 4) +
                " diverges (partial sums " + num(half, 5) + " -> " + num(partial, 5) + ")";
    }
  }
  ClaimResult r;
  r.region = "gamma^k = (k+1)^-0.9, sigma^k = (k+1)^s for s in {0, rate/2, rate}; sums to k = " + std::to_string(n);
  r.claimed = "sigma^k growing no faster than O(k^" + num(rate) + ") keeps sum (gamma^k)^2 (sigma^k)^2 finite";
  r.computed = list.str();
  r.deficit = 1 - (2 * gamma_exponent - 2 * rate);
  r.status = summable ? Status::holds : Status::fails;
  if (!summable) r.counterexample = counter;
  r.reproduce = "dpledger check 001/remark-1";
  r.note = "The largest admissible rate is 0.4 (2(0.9 - s) > 1); the remark's 0.3 is inside.";
  return r;
}

}  // namespace
}  // namespace paper_001_checks

std::vector<Claim> paper_001_claims() {
  using namespace paper_001_checks;
  using K = ClaimKind;
  using Me = Method;
  return {
      {"001/thm-1-convergence", "Theorem 1",
       "under Assumptions 1-3, sum gamma^k = inf, sum lambda^k = inf and sum (lambda^k)^2/gamma^k < inf, Algorithm 1 converges "
       "a.s. to a solution",
       Status::holds, {"limit_offset=0"}, check_thm_1_convergence, K::convergence, Me::simulation,
       {"limit_offset", 0.5, "the claimed limit theta* moved by 0.5 in every coordinate"}},
      {"001/thm-1-contraction", "Assumption 1, proof of Theorem 1",
       "||I + gamma W - 11^T/m|| <= 1 - gamma kappa for gamma in (0, 1]", Status::holds, {"gamma_kappa_factor=1"},
       check_contraction, K::proof_step, Me::search, {"gamma_kappa_factor", 1.5, "1 - gamma kappa -> 1 - 1.5 gamma kappa"}},
      {"001/remark-3", "Remark 3",
       "sum_i ||x_i - xbar||^2 = O(1/(k gamma^k)), xbar -> theta* no slower than O(k^-0.5), every x_i no slower than O((k gamma^k)^-0.5)",
       Status::fails_as_printed, {"mean_rate=0.5"}, check_remark_3, K::convergence, Me::simulation,
       {"mean_rate", 0.1, "the mean's rate k^-0.5 -> k^-0.1"}},
      {"001/eq-19-22", "Proof of Theorem 1, (19)-(22)",
       "E[||xbar^{k+1} - theta*||^2 | F^k] <= (1 + L^2 lambda^2 (1/gamma + 4))||xbar - theta*||^2 + (gamma/m + 4 L^2 lambda^2/m) sum "
       "||x_i - xbar||^2 - 2 lambda (F(xbar) - F*) + (2/m) gamma^2 sum w_ii^2 sigma_i^2",
       Status::holds, {"noise_factor=2"}, check_eq_19_22, K::proof_step, Me::search,
       {"noise_factor", 0, "the noise term of (22) dropped"}},
      {"001/eq-25", "Proof of Theorem 1, (24)-(25)",
       "E[||x^{k+1} - 1 xbar^{k+1}||^2 | F^k] <= (1 - gamma |nu| + 4 L^2 lambda^2/(|nu| gamma)) ||x - 1 xbar||^2 + ... + m gamma^2 "
       "max_j sigma_j^2 C_W",
       Status::holds, {"kappa_factor=1"}, check_eq_25, K::proof_step, Me::search, {"kappa_factor", 2, "|nu| -> 2 |nu|"}},
      {"001/lemma-4", "Lemma 4",
       "v^{k+1} <= (1 - alpha^k) v^k + beta^k with sum alpha = inf, alpha -> 0, beta/alpha -> 0 gives v^k <= C beta^k/alpha^k",
       Status::fails_as_printed, {"ratio_exponent=1"}, check_lemma_4, K::lemma, Me::simulation,
       {"ratio_exponent", 0, "v^k <= C (beta/alpha)^1 -> v^k <= C"}},
      {"001/lemma-6", "Lemma 6 (proof, App. A)", "pi = [1, 1/(m kappa)] is a left fixed vector of the 2x2 matrix of (6)",
       Status::holds, {"pi2_factor=1"}, check_lemma_6, K::proof_step, Me::enumeration, {"pi2_factor", 1.1, "1/(m kappa) -> 1.1/(m kappa)"}},
      {"001/lemma-7", "Lemma 7", "Laplace noise with sum_{k=1}^T Delta^k/nu^k <= eps makes Algorithm 1 eps-DP for iterations 1 .. T+1",
       Status::fails_as_printed, {"index_shift=0"}, check_lemma_7, K::privacy, Me::simulation,
       {"index_shift", 1, "Delta^k paired with nu^{k+1} (the message that carries x^{k+1})"}},
      {"001/thm-2", "Theorem 2 (1) and (3)",
       "Algorithm 1 is eps-DP with eps <= sum_k 2 C lambda^k/nu^k, finite on an infinite horizon", Status::fails,
       {"sensitivity_factor=2"}, check_thm_2, K::privacy, Me::certified, {"sensitivity_factor", 2e4, "2 C lambda^k -> 2e4 C lambda^k"}},
      {"001/eq-8", "Proof of Theorem 2, eq. (8)",
       "under identical observations the state sensitivity is at most 2 C lambda^k", Status::fails,
       {"sensitivity_factor=2"}, check_eq_8, K::proof_step, Me::simulation, {"sensitivity_factor", 1e4, "2 C lambda^k -> 1e4 C lambda^k"}},
      {"001/thm-2.2", "Theorem 2 (2)", "nu^k = (2 C Phi/eps) nu'^k gives the budget eps for any eps > 0", Status::holds,
       {"calibration_factor=2"}, check_calibration, K::privacy, Me::search, {"calibration_factor", 1.8, "2 C Phi/eps -> 1.8 C Phi/eps"}},
      {"001/thm-2.3-phi", "Theorem 2 (3)", "Phi = sum_{k>=1} 1/k^1.3 ~ 3.93", Status::holds, {"phi=3.93"}, check_phi,
       K::privacy, Me::certified, {"phi", 3.95, "3.93 -> 3.95"}},
      {"001/thm-2.3-conditions", "Theorem 2 (3), with Theorem 1 and Assumption 3",
       "lambda = 1/k, gamma = k^-0.9, nu ~ k^0.3 satisfies Theorem 1 and Assumption 3", Status::holds, {"nu_exponent=0.3"},
       check_thm_2_3_assumptions, K::convergence, Me::certified, {"nu_exponent", 0.45, "nu ~ k^0.3 -> k^0.45"}},
      {"001/sec-VI", "Section VI (simulation schedules)",
       "the simulation's lambda, gamma, nu satisfy the conditions of Theorems 1 and 2", Status::holds, {"nu_exponent=0.3"},
       check_sec_vi, K::experiment, Me::certified, {"nu_exponent", 0.45, "nu = 1 + 0.1 k^0.3 -> 1 + 0.1 k^0.45"}},
      {"001/remark-1", "Remark 1",
       "under gamma^k = O(1/k^0.9), sigma^k increasing no faster than O(k^0.3) still satisfies the summability (5)", Status::holds,
       {"sigma_rate=0.3"}, check_remark_1, K::lemma, Me::certified, {"sigma_rate", 0.45, "O(k^0.3) -> O(k^0.45)"}},
  };
}

}  // namespace dpl::proofs
