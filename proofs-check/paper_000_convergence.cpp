// SPDX-License-Identifier: Apache-2.0
// Seed 000 (Xiao 2019), Chapter 3 and Appendix J: the convergence and utility claims of the random-penalty ADMM
// (Theorems 3.1.1-3.1.3, Lemmas J.0.1-J.0.2, Theorem J.0.1), of Algorithm 2 (Theorem 3.2.1) and of the random
// stochastic-matrix framework ((3.9), (3.10)). Each is computed from the thesis's own update rules, transcribed here
// with the theorems' constants (the library's Algorithm 1 is the first-order consensus form with r ~ U(0,1), outside
// the theorems' admissible range; its Algorithm 2 schedules eta0 decay^k, not the theorem's 1/(c sqrt k)): the
// remainder h of (F.7) as a quadratic form on the states an iteration can reach, seeded runs against (3.4), (3.7)
// and (J.23), exact expectations for (3.9), and the rates recomputed by minimising the bounds at the thesis's noise.
#include "accounting/errors.h"
#include "accounting/numeric/portable_math.h"
#include "algorithms/rng/portable_rng.h"
#include "proofs-check/counterexample_search.h"
#include "proofs-check/paper_000_checks.h"
#include "proofs-check/rate_derivation.h"
#include "proofs-check/run_statistics.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <functional>
#include <sstream>
#include <vector>

namespace dpl::proofs::seed000 {
namespace {

using Eigen::MatrixXd;
using Eigen::VectorXd;

// Consensus on a ring of n agents as sum_i A_i x_i = 0: one constraint block x_p - x_q per edge (p, p+1 mod n), so
// A_i is the (n dim) x dim column block of the edge-incidence matrix; sigma_max^2 = sigma_min^2 = 2 for every agent.
struct Ring {
  int n = 0, dim = 0;
  std::vector<MatrixXd> A;
  MatrixXd range_basis;  // orthonormal basis of range([A_1 .. A_n]) (where lambda^k lives when lambda^0 = 0)
};

Ring make_ring(int n, int dim) {
  Ring r;
  r.n = n, r.dim = dim;
  const int m = n * dim;
  r.A.assign(static_cast<std::size_t>(n), MatrixXd::Zero(m, dim));
  for (int e = 0; e < n; ++e) {
    r.A[static_cast<std::size_t>(e)].block(e * dim, 0, dim, dim) += MatrixXd::Identity(dim, dim);
    r.A[static_cast<std::size_t>((e + 1) % n)].block(e * dim, 0, dim, dim) -= MatrixXd::Identity(dim, dim);
  }
  MatrixXd full(m, n * dim);
  for (int i = 0; i < n; ++i) full.block(0, i * dim, m, dim) = r.A[static_cast<std::size_t>(i)];
  Eigen::JacobiSVD<MatrixXd> svd(full, Eigen::ComputeFullU);
  int rank = 0;
  for (int i = 0; i < svd.singularValues().size(); ++i)
    if (svd.singularValues()(i) > 1e-9) ++rank;
  r.range_basis = svd.matrixU().leftCols(rank);
  return r;
}

double sigma_max_sq(const MatrixXd& A) { return Eigen::JacobiSVD<MatrixXd>(A).singularValues()(0) * Eigen::JacobiSVD<MatrixXd>(A).singularValues()(0); }

// Theorems 3.1.1 / 3.1.3, (F.7): h = sum_i D'_i ||a_i||^2 - zeta ||A e||^2 + 2 <A a + A e, sum_i rho_i A_i e_i>, with
// a_i = x_i^k - x~_i^{k+1}, e_i = x~_i^{k+1} - x_i^*, D'_i = D_i (3.1.1) or D_i - M (3.1.3), and x~ the exact update
// (3.1) or the first-order update (3.5) for f_i = q/2 ||x - b_i||^2 (M = q^2 in the thesis's convention
// ||grad f(x) - grad f(y)||^2 <= M ||x - y||^2). For one draw of the penalties, x~ - x* is linear in the state
// z = (x^k - x*, lambda^k - lambda*) (lambda in the range of A), so h is a quadratic form in z; returned: its smallest
// eigenvalue relative to its largest |eigenvalue| (< 0: some reachable state has h < 0).
double remainder_smallest_eigenvalue(const Ring& ring, double q, const std::vector<VectorXd>& rho, const std::vector<double>& D,
                                     double zeta, bool first_order) {
  const int n = ring.n, dim = ring.dim, m = n * dim, nl = static_cast<int>(ring.range_basis.cols()), nz = n * dim + nl;
  const double M = q * q;
  MatrixXd E = MatrixXd::Zero(n * dim, nz);  // e = x~ - x* as a linear map of z
  for (int i = 0; i < n; ++i) {
    const MatrixXd& Ai = ring.A[static_cast<std::size_t>(i)];
    const MatrixXd rhoA = rho[static_cast<std::size_t>(i)].asDiagonal() * Ai;
    const MatrixXd AtrA = Ai.transpose() * rhoA;
    const MatrixXd Gamma = D[static_cast<std::size_t>(i)] * MatrixXd::Identity(dim, dim) - AtrA;
    MatrixXd rest = MatrixXd::Zero(m, nz);  // sum_{j != i} A_j (x_j^k - x_j^*)
    for (int j = 0; j < n; ++j)
      if (j != i) rest.block(0, j * dim, m, dim) = ring.A[static_cast<std::size_t>(j)];
    MatrixXd lam = MatrixXd::Zero(m, nz);
    lam.rightCols(nl) = ring.range_basis;
    MatrixXd own = MatrixXd::Zero(dim, nz);
    own.block(0, i * dim, dim, dim) = MatrixXd::Identity(dim, dim);
    // At the fixed point grad f_i(x*) = A_i^T lambda*, so differences from (x*, lambda*) obey the homogeneous update.
    const MatrixXd rhs = Ai.transpose() * lam - rhoA.transpose() * rest + Gamma * own;
    if (first_order)
      E.block(i * dim, 0, dim, nz) = (rhs - q * own) / D[static_cast<std::size_t>(i)];  // (3.5)
    else
      E.block(i * dim, 0, dim, nz) = (q * MatrixXd::Identity(dim, dim) + AtrA + Gamma).ldlt().solve(rhs);  // (3.1)
  }
  MatrixXd X = MatrixXd::Zero(n * dim, nz);
  X.leftCols(n * dim) = MatrixXd::Identity(n * dim, n * dim);
  const MatrixXd Adiff = X - E;  // a = x^k - x~^{k+1}
  MatrixXd Aa = MatrixXd::Zero(m, nz), Ae = MatrixXd::Zero(m, nz), Pe = MatrixXd::Zero(m, nz), H = MatrixXd::Zero(nz, nz);
  for (int i = 0; i < n; ++i) {
    const MatrixXd& Ai = ring.A[static_cast<std::size_t>(i)];
    Aa += Ai * Adiff.middleRows(i * dim, dim);
    Ae += Ai * E.middleRows(i * dim, dim);
    Pe += rho[static_cast<std::size_t>(i)].asDiagonal() * (Ai * E.middleRows(i * dim, dim));
    const double Di = D[static_cast<std::size_t>(i)] - (first_order ? M : 0);
    H += Di * Adiff.middleRows(i * dim, dim).transpose() * Adiff.middleRows(i * dim, dim);
  }
  H += -zeta * Ae.transpose() * Ae + (Aa + Ae).transpose() * Pe + Pe.transpose() * (Aa + Ae);
  const VectorXd ev = Eigen::SelfAdjointEigenSolver<MatrixXd>(0.5 * (H + H.transpose())).eigenvalues();
  return ev(0) / std::max(std::abs(ev(ev.size() - 1)), std::abs(ev(0)));
}

// A deterministic seed for the penalty draws at a search point.
std::uint64_t point_seed(std::uint64_t seed, const Point& p) {
  std::uint64_t h = seed;
  for (double v : p) h = h * 1000003u + static_cast<std::uint64_t>(std::llround(v * 1e6));
  return h;
}

// Theorems 3.1.1 (first_order false) and 3.1.3 (true): h^{k+1} >= 0 whenever (3.3) / (3.6) holds. The search runs over
// N, the curvature q, rho_lo, the spread rho_hi - rho_lo as a fraction of what the second condition allows, and D_j as
// a multiple of the smallest D_j the first condition allows; penalties drawn uniformly in [rho_lo, rho_hi] per step.
ClaimResult check_remainder(const CheckContext& ctx, bool first_order) {
  const double n_power = ctx.constant("N_power", 2);
  const double zeta_half = ctx.constant("zeta_half", 0.5);
  const double zeta = 1;
  const int draws = ctx.quick ? 3 : 8;
  std::vector<Axis> axes{{"N", 3, 6, {3, 4, 6}, false, true},
                         {"q", 0.3, 3, {0.5, 1, 2}, true},
                         {"rho_lo", 0.2, 8, {0.3, 1, 2, 5}, true},
                         {"spread", 0, 1, {0, 0.5, 1}},
                         {"D_multiple", 1, 4, {1, 2}}};
  const auto margin_at = [&](const Point& p) {
    const int n = static_cast<int>(p[0]);
    const double q = p[1], lo = p[2], spread = p[3], mult = p[4];
    if (!(lo > zeta_half * zeta)) return kInfinity;  // outside (3.3): rho_lo - zeta/2 > 0 is needed
    const double hi = lo + spread * (lo - zeta_half * zeta) / (n - 1);
    const Ring ring = make_ring(n, 1);
    std::vector<double> D(static_cast<std::size_t>(n));
    for (int j = 0; j < n; ++j) {
      const double s2 = sigma_max_sq(ring.A[static_cast<std::size_t>(j)]);
      D[static_cast<std::size_t>(j)] = mult * portable::pow(n, n_power) * s2 * hi * hi / (lo - zeta_half * zeta) + (first_order ? q * q : 0);
      if (!(D[static_cast<std::size_t>(j)] > hi * s2)) return kInfinity;  // Gamma = D I - A^T rho A must be positive definite
    }
    algorithms::Rng rng(point_seed(ctx.seed, p));
    double worst = kInfinity;
    for (int t = 0; t < draws; ++t) {
      std::vector<VectorXd> rho(static_cast<std::size_t>(n), VectorXd(n));
      for (auto& r : rho)
        for (int l = 0; l < n; ++l) r(l) = rng.uniform(lo, hi);
      worst = std::min(worst, remainder_smallest_eigenvalue(ring, q, rho, D, zeta, first_order));
    }
    return worst + 1e-9;  // rounding of the eigen-solver on PSD forms (zero eigenvalues on the consensus direction)
  };
  const SearchOutcome all = search_counterexample(axes, ctx.quick ? 10 : 80, ctx.seed, margin_at);
  std::vector<Axis> fixed_axes = axes;
  fixed_axes[3] = {"spread", 0, 0, {0}};
  const SearchOutcome fixed = search_counterexample(fixed_axes, ctx.quick ? 6 : 40, ctx.seed + 1, margin_at);
  const std::string cond = first_order ? "(3.6)" : "(3.3)";
  ClaimResult r;
  r.region = std::string(first_order ? "first-order update (3.5)" : "exact update (3.1)") +
             ", consensus on a ring (A_i = edge-incidence blocks, sigma^2 = 2), f_i = q/2 ||x - b_i||^2 (M = q^2), zeta = 1, d = 1; " +
             all.region + "; rho_hi = rho_lo + spread (rho_lo - zeta/2)/(N-1) (the second condition of " + cond +
             " at spread 1), D_j = D_multiple x the first condition's least D_j" + (first_order ? " (+ M)" : "") + "; " +
             std::to_string(draws) + " penalty draws per point; h over every state (x^k, lambda^k in range A)";
  r.claimed = "h^{k+1} >= 0 whenever " + cond + " holds (D_j/N^" + num(n_power) + " (rho_lo - " + num(zeta_half) + " zeta) >= sigma^2 rho_hi^2, ...)";
  r.computed = "smallest eigenvalue of h (relative to its largest): " + num(all.worst_margin - 1e-9, 4) + " at " +
               describe(axes, all.worst_point) + "; with fixed penalties (rho_hi = rho_lo): " + num(fixed.worst_margin - 1e-9, 4);
  r.deficit = -all.worst_margin;
  if (!all.smallest_failure) {
    r.status = Status::holds;
  } else if (!fixed.smallest_failure) {
    r.status = Status::fails_as_printed;
    r.counterexample = describe(axes, *all.smallest_failure) + ": a reachable state has h^{k+1} < 0 (relative eigenvalue " +
                       num(all.smallest_failure_margin - 1e-9, 4) + ") although " + cond + " holds";
    r.holds_where = "with fixed penalties (rho_i^{k+1} = rho constant, rho_hi = rho_lo): h >= 0 at every point searched";
  } else {
    r.status = Status::fails;
    r.counterexample = describe(fixed_axes, *fixed.smallest_failure) + ": h^{k+1} < 0 with fixed penalties";
  }
  r.reproduce = std::string("dpledger check ") + (first_order ? "000/thm-3.1.3" : "000/thm-3.1.1");
  r.note = "With random penalties the cross term 2 <A x~ - c, sum_i (rho_i - rho) A_i e_i> does not vanish on the consensus "
           "directions, where A e = 0 but sum_i rho_i A_i e_i != 0; (3.3)'s second condition bounds the spread of the rho_i, "
           "not this term. h >= 0 is what the telescoping of (3.2) into (3.4) uses.";
  return r;
}

// Theorem 3.1.2 on one instance: the exact random-penalty ADMM (3.1) with Gaussian output noise, consensus on a ring,
// f_i = q_i/2 ||x - b_i||^2, penalties drawn in [rho_lo, rho_hi] satisfying (3.3). Returns the runs' values of
// F(X-bar^K) - F(X*) and the right side of (3.4).
struct AdmmBoundRun {
  std::vector<double> gaps;
  double bound = 0, first_term = 0;
};

AdmmBoundRun run_thm_3_1_2(int K, double sigma, int runs, std::uint64_t seed) {
  const int n = 4, dim = 2, m = n * dim;
  const double zeta = 1, lo = 2, hi = lo + (lo - zeta / 2) / (n - 1);
  const Ring ring = make_ring(n, dim);
  std::vector<double> q(static_cast<std::size_t>(n)), D(static_cast<std::size_t>(n));
  double M = 0;
  for (int i = 0; i < n; ++i) {
    q[static_cast<std::size_t>(i)] = 0.5 + 1.5 * i / (n - 1);
    M = std::max(M, q[static_cast<std::size_t>(i)] * q[static_cast<std::size_t>(i)]);
    D[static_cast<std::size_t>(i)] = n * n * sigma_max_sq(ring.A[static_cast<std::size_t>(i)]) * hi * hi / (lo - zeta / 2);
  }
  algorithms::Rng setup(seed);
  std::vector<VectorXd> b(static_cast<std::size_t>(n), VectorXd(dim)), x0(static_cast<std::size_t>(n), VectorXd(dim));
  for (auto& v : b)
    for (int l = 0; l < dim; ++l) v(l) = setup.gaussian();
  VectorXd xs = VectorXd::Zero(dim);
  double qsum = 0;
  for (int i = 0; i < n; ++i) xs += q[static_cast<std::size_t>(i)] * b[static_cast<std::size_t>(i)], qsum += q[static_cast<std::size_t>(i)];
  xs /= qsum;
  // lambda*: A_i^T lambda* = grad f_i(x*), the least-norm solution (in the range of A, where lambda^k stays).
  MatrixXd full(m, n * dim);
  VectorXd g(n * dim);
  for (int i = 0; i < n; ++i) {
    full.block(0, i * dim, m, dim) = ring.A[static_cast<std::size_t>(i)];
    g.segment(i * dim, dim) = q[static_cast<std::size_t>(i)] * (xs - b[static_cast<std::size_t>(i)]);
  }
  const VectorXd lambda_star = full.transpose().completeOrthogonalDecomposition().solve(g);
  double f_star = 0, g0 = 0, noise_term = 0;
  for (int i = 0; i < n; ++i) {
    f_star += q[static_cast<std::size_t>(i)] / 2 * (xs - b[static_cast<std::size_t>(i)]).squaredNorm();
    for (int l = 0; l < dim; ++l) x0[static_cast<std::size_t>(i)](l) = xs(l) + 3 * setup.gaussian();
    g0 += D[static_cast<std::size_t>(i)] * (x0[static_cast<std::size_t>(i)] - xs).squaredNorm();
    noise_term += (std::sqrt(M) + D[static_cast<std::size_t>(i)] + 1 / zeta) * dim * sigma * sigma;  // E||Delta_i^k||^2 = d sigma^2
  }
  AdmmBoundRun out;
  out.first_term = (g0 + 4 / zeta * lambda_star.squaredNorm()) / (2.0 * K);
  out.bound = out.first_term + noise_term;  // sum_{k=1}^K (...) / K with the same noise at every step
  algorithms::Rng rng(seed + 17);
  for (int run = 0; run < runs; ++run) {
    std::vector<VectorXd> x = x0, sum(static_cast<std::size_t>(n), VectorXd::Zero(dim));
    VectorXd lambda = VectorXd::Zero(m);
    for (int k = 0; k < K; ++k) {
      std::vector<VectorXd> next(static_cast<std::size_t>(n));
      for (int i = 0; i < n; ++i) {
        const MatrixXd& Ai = ring.A[static_cast<std::size_t>(i)];
        VectorXd rho(m);
        for (int l = 0; l < m; ++l) rho(l) = rng.uniform(lo, hi);
        const MatrixXd AtrA = Ai.transpose() * rho.asDiagonal() * Ai;
        const MatrixXd Gamma = D[static_cast<std::size_t>(i)] * MatrixXd::Identity(dim, dim) - AtrA;
        VectorXd rest = VectorXd::Zero(m);
        for (int j = 0; j < n; ++j)
          if (j != i) rest += ring.A[static_cast<std::size_t>(j)] * x[static_cast<std::size_t>(j)];
        // argmin q/2 ||x - b||^2 - lambda^T A_i x + 1/2 ||A_i x + rest||_rho^2 + 1/2 ||x - x_i^k||_Gamma^2   (3.1)
        const VectorXd rhs = q[static_cast<std::size_t>(i)] * b[static_cast<std::size_t>(i)] + Ai.transpose() * lambda -
                             Ai.transpose() * rho.asDiagonal() * rest + Gamma * x[static_cast<std::size_t>(i)];
        next[static_cast<std::size_t>(i)] =
            (q[static_cast<std::size_t>(i)] * MatrixXd::Identity(dim, dim) + AtrA + Gamma).ldlt().solve(rhs);
        for (int l = 0; l < dim; ++l) next[static_cast<std::size_t>(i)](l) += sigma * rng.gaussian();
      }
      VectorXd Ax = VectorXd::Zero(m);
      for (int i = 0; i < n; ++i) Ax += ring.A[static_cast<std::size_t>(i)] * next[static_cast<std::size_t>(i)];
      lambda -= zeta * Ax;  // the multiplier the agents can compute (with the noisy x; docs/xiao2019.md E14)
      x = next;
      for (int i = 0; i < n; ++i) sum[static_cast<std::size_t>(i)] += x[static_cast<std::size_t>(i)];
    }
    double f = 0;
    for (int i = 0; i < n; ++i) f += q[static_cast<std::size_t>(i)] / 2 * (sum[static_cast<std::size_t>(i)] / K - b[static_cast<std::size_t>(i)]).squaredNorm();
    out.gaps.push_back(f - f_star);
  }
  return out;
}

}  // namespace

// Theorem 3.1.2: E[F(X-bar^K)] - F(X*) <= (3.4), by seeded runs at several K and noise levels.
ClaimResult check_thm_3_1_2(const CheckContext& ctx) {
  const double scale = ctx.constant("bound_scale", 1);
  const std::vector<int> Ks = ctx.quick ? std::vector<int>{5, 20} : std::vector<int>{5, 20, 80};
  const std::vector<double> sigmas = ctx.quick ? std::vector<double>{0.5} : std::vector<double>{0, 0.05, 0.5};
  const int runs = ctx.quick ? 30 : 150;
  std::ostringstream list;
  bool above = false, undecided = false;
  double worst_ratio = 0;
  std::string counter;
  for (int K : Ks)
    for (double sigma : sigmas) {
      const AdmmBoundRun run = run_thm_3_1_2(K, sigma, runs, ctx.seed + static_cast<std::uint64_t>(K));
      const MeanEstimate m = mean_of(run.gaps);
      const double bound = scale * run.bound;
      const Side side = compare_to_bound(m, bound, 6);
      worst_ratio = std::max(worst_ratio, (m.mean + 6 * m.standard_error) / bound);
      list << (list.tellp() ? "; " : "") << "K=" << K << ", sigma=" << num(sigma) << ": " << describe(m, 4) << " vs " << num(bound, 5);
      if (side == Side::above) {
        above = true;
        if (counter.empty())
          counter = "K = " + std::to_string(K) + ", sigma = " + num(sigma) + ": E[F(X-bar^K)] - F(X*) = " + describe(m, 4) +
                    " > " + num(bound, 5);
      }
      if (side == Side::undecided) undecided = true;
    }
  ClaimResult r;
  r.region = "exact random-penalty ADMM (3.1), ring of N = 4, d = 2, f_i = q_i/2 ||x - b_i||^2 (q_i from 0.5 to 2, M = 4), zeta = "
             "1, rho in [2, 2.5] per step and coordinate, D_i = N^2 sigma_i^2 rho_hi^2/(rho_lo - zeta/2) (3.3 at equality), "
             "Gaussian noise N(0, sigma^2) per coordinate, X^0 = X* + 3 N(0, 1); " + std::to_string(runs) + " seeded runs per point";
  r.claimed = "E[F(X-bar^K)] - F(X*) <= " + num(scale) + " x [(||X^0 - X*||^2_Gx + (4/zeta)||lambda*||^2)/(2K) + sum_k sum_i "
              "(sqrt(M) + D_i + 1/zeta) E||Delta_i^k||^2/K]";
  r.computed = list.str() + " (mean +- standard error vs the bound); largest (mean + 6 SE)/bound " + num(worst_ratio, 4);
  r.deficit = worst_ratio - 1;
  r.status = above ? Status::fails : undecided ? Status::inconclusive : Status::holds;
  if (above) r.counterexample = counter;
  if (r.status == Status::inconclusive) r.why = "a mean is within 6 standard errors of the bound";
  r.reproduce = "dpledger check 000/thm-3.1.2";
  r.note = "The multiplier is updated with the noisy x (what the agents can compute; the proof's noiseless lambda is not "
           "computable by them). F(X-bar^K) is evaluated off the constraint set (X-bar is not in consensus), as stated.";
  return r;
}

// Theorem 3.1.2's utility: (3.4) at the thesis's (eps, delta) noise (Laplace rate eps D/(B_inf sqrt(2 K d log(1/delta)))
// per coordinate, App. J's calibration), minimised over K; the exponents of the minimum in d, N and eps.
ClaimResult check_thm_3_1_2_rate(const CheckContext& ctx) {
  const double claimed_d = ctx.constant("d_exponent", 0.5);
  const double zeta = 1, M = 1, D = 10, B = 1e-4, delta = 1e-5, R = 1e4;  // the minimum lies at K >> 1 on the whole sweep
  // Theorem 3.1.2 (3.4) minimised over K at the thesis's noise: Delta_i^k with per-coordinate Laplace scale 1/beta
  // calibrated to the l_inf sensitivity B_inf of each of the d coordinates (E||Delta_i^k||^2 = 2 d/beta^2 with
  // beta = eps D/(B sqrt(2 K d log(1/delta)))), or (`l2`) to the l2 sensitivity of the whole vector (no d in beta).
  const auto utility = [&](double d, double N, double eps, bool l2) {
    return minimise_over_horizon(
        [&](double K) {
          const double beta = eps * D / (B * std::sqrt(2 * K * (l2 ? 1 : d) * portable::binary64::log(1 / delta)));
          const double noise = d * 2 / (beta * beta);  // E||Delta_i^k||^2
          return R * R / (2 * K) + N * (std::sqrt(M) + D + 1 / zeta) * noise;
        },
        1, 1e14);
  };
  const std::vector<double> ds{10, 100, 1000, 10000}, Ns{10, 100, 1000}, epss{0.01, 0.1, 1};
  const double ed = fitted_exponent(ds, [&](double d) { return utility(d, 10, 0.1, false); });
  const double ed_l2 = fitted_exponent(ds, [&](double d) { return utility(d, 10, 0.1, true); });
  const double eN = fitted_exponent(Ns, [&](double N) { return utility(100, N, 0.1, false); });
  const double ee = fitted_exponent(epss, [&](double e) { return utility(100, 10, e, false); });
  const double tol = 0.05;
  const bool d_ok = std::abs(ed - claimed_d) <= tol, N_ok = std::abs(eN - 0.5) <= tol, e_ok = std::abs(ee + 1) <= tol;
  const bool d_ok_l2 = std::abs(ed_l2 - claimed_d) <= tol;
  ClaimResult r;
  r.region = "(3.4) with ||X^0 - X*||_Gx = 10^4, D_i = 10, zeta = 1, M = 1, B_inf = 10^-4, delta = 1e-5, minimised over K in [1, 1e14]; "
             "d in {10 .. 10^4}, N in {10, 100, 1000}, eps in {0.01, 0.1, 1}; the exponents of a derivation (no run): "
             "the minimum of a closed form, fitted exactly";
  r.claimed = "utility loss O(N^0.5 d^" + num(claimed_d) + " B_inf ||X^0 - X*||_Gx / eps)";
  r.computed = "fitted exponents of min_K (3.4) at the thesis's l_inf calibration (B_inf per coordinate): d " + num(ed, 4) +
               ", N " + num(eN, 4) + ", eps " + num(ee, 4) + "; with the noise calibrated to the vector's l2 sensitivity: d " +
               num(ed_l2, 4);
  r.deficit = std::max({std::abs(ed - claimed_d), std::abs(eN - 0.5), std::abs(ee + 1)}) - tol;
  if (d_ok && N_ok && e_ok) {
    r.status = Status::holds;
  } else if (N_ok && e_ok && d_ok_l2) {
    // Only the derivation's O(.) in d fails, and only under the l_inf calibration the thesis states.
    r.status = Status::fails_as_printed;
    r.holds_where = "with the noise calibrated to the l2 sensitivity B_2 of the whole vector (Gaussian noise for the "
                    "vector), where min_K (3.4) grows as d^" + num(ed_l2, 3) + "; its N and eps exponents hold as printed. "
                    "What fails is the O(.) derived from (3.4), not a run of the algorithm";
  } else {
    r.status = Status::fails;
  }
  if (r.status != Status::holds)
    r.counterexample = "at the thesis's noise E||Delta_i^k||^2 = 4 B_inf^2 K d^2 log(1/delta)/(eps^2 D_i^2) the minimum over K of "
                       "(3.4) grows as d^" + num(ed, 3) + " (a/K + b K d^2 -> 2 sqrt(a b) d), not d^" + num(claimed_d);
  r.reproduce = "dpledger check 000/thm-3.1.2-rate";
  r.note = "Each of the K d released coordinates needs noise of variance ~ K d (advanced composition), so E||Delta||^2 ~ K d^2. "
           "sqrt(N d) follows with the l2 sensitivity B_2 of the whole vector in place of B_inf (Gaussian noise calibrated "
           "to the vector), which the theorem does not state; the verdict thus depends on the calibration.";
  return r;
}

namespace {
}  // namespace

ClaimResult check_thm_3_1_1(const CheckContext& ctx) { return check_remainder(ctx, false); }
ClaimResult check_thm_3_1_3(const CheckContext& ctx) { return check_remainder(ctx, true); }

namespace {

// Theorem 3.2.1's instance: N = 2 K g agents, f_i(x) = huber(||x - b_i||) with threshold 1 (||grad f_i|| <= 1 = G),
// Algorithm 2 in its rescaled form (I.1), eta_k = 1/(c sqrt k), Laplace noise Delta_i = eta_{k+1} Lap(scale b) per
// coordinate (so E||Delta-bar_j^k / eta||^2 = 2 d b^2 / g = V^2). Returns the runs' (1/N)(F(y-hat) - F(x*)) and (3.7).
double huber_norm(const VectorXd& r) {
  const double n = r.norm();
  return n <= 1 ? n * n / 2 : n - 0.5;
}
VectorXd huber_grad(const VectorXd& r) {
  const double n = r.norm();
  return n <= 1 ? VectorXd(r) : VectorXd(r / n);
}

struct DsgdBoundRun {
  std::vector<double> gaps;
  double bound = 0;
};

DsgdBoundRun run_thm_3_2_1(int K, double c, double b, int runs, std::uint64_t seed) {
  const int g = 4, dim = 2, N = 2 * K * g;
  algorithms::Rng setup(seed);
  std::vector<VectorXd> B(static_cast<std::size_t>(N), VectorXd(dim));
  for (auto& v : B)
    for (int l = 0; l < dim; ++l) v(l) = 1.5 * setup.gaussian();
  const auto F = [&](const VectorXd& x) {
    double s = 0;
    for (const auto& bi : B) s += huber_norm(x - bi);
    return s / N;
  };
  VectorXd xs = VectorXd::Zero(dim);
  for (const auto& bi : B) xs += bi / N;
  for (int it = 0; it < 4000; ++it) {  // gradient descent on the mean Huber loss (1-smooth): x*
    VectorXd grad = VectorXd::Zero(dim);
    for (const auto& bi : B) grad += huber_grad(xs - bi) / N;
    xs -= grad;
    if (grad.norm() < 1e-13) break;
  }
  const double f_star = F(xs);
  const VectorXd offset = VectorXd::Constant(dim, 3 / std::sqrt(dim));
  const VectorXd y10 = xs + offset, y20 = xs - offset;
  DsgdBoundRun out;
  const double G2 = 1, V2 = dim * 2 * b * b / g, R0 = (y10 - xs).squaredNorm() + (y20 - xs).squaredNorm();
  out.bound = (c * std::sqrt(K) * R0 + 2 / c * (portable::binary64::log(K) + 2) * std::sqrt(K + 1.0) * (G2 + V2)) / (4.0 * K);
  algorithms::Rng rng(seed + 31);
  for (int run = 0; run < runs; ++run) {
    const std::vector<int> order = rng.permutation(N);  // the random division into 2K groups S_1..S_2K
    VectorXd y1 = y10, y2 = y20, acc = VectorXd::Zero(dim);
    for (int k = 0; k < K; ++k) {
      acc += (y1 + y2) / 2;
      const double eta = 1 / (c * std::sqrt(k + 1.0));
      const VectorXd mid = (y1 + y2) / 2;
      VectorXd next[2] = {VectorXd::Zero(dim), VectorXd::Zero(dim)};
      for (int h = 0; h < 2; ++h)
        for (int t = 0; t < g; ++t) {
          const int i = order[static_cast<std::size_t>((2 * k + h) * g + t)];
          VectorXd xi(dim);
          const VectorXd grad = huber_grad(mid - B[static_cast<std::size_t>(i)]);
          for (int l = 0; l < dim; ++l) {
            const double w = rng.uniform01();
            xi(l) = w * y1(l) + (1 - w) * y2(l) - eta * grad(l) + (b > 0 ? eta * rng.laplace_scale(b) : 0.0);
          }
          next[h] += xi / g;
        }
      y1 = next[0], y2 = next[1];
    }
    out.gaps.push_back(F(acc / K) - f_star);
  }
  return out;
}

}  // namespace

// Theorem 3.2.1: (1/N) E[F(sum_k (y1^k + y2^k)/(2K)) - F(x*)] <= (3.7), by seeded runs at several K, c and noise levels.
ClaimResult check_thm_3_2_1(const CheckContext& ctx) {
  const double scale = ctx.constant("bound_scale", 1);
  const std::vector<int> Ks = ctx.quick ? std::vector<int>{4, 16} : std::vector<int>{4, 16, 64};
  const std::vector<double> cs = ctx.quick ? std::vector<double>{0.3, 3} : std::vector<double>{0.3, 1, 3};
  const std::vector<double> bs{0, 2};
  const int runs = ctx.quick ? 30 : 100;
  std::ostringstream list;
  bool above = false, undecided = false;
  double worst_ratio = 0;
  std::string counter;
  for (int K : Ks)
    for (double c : cs)
      for (double b : bs) {
        const DsgdBoundRun run = run_thm_3_2_1(K, c, b, runs, ctx.seed + static_cast<std::uint64_t>(K));
        const MeanEstimate m = mean_of(run.gaps);
        const double bound = scale * run.bound;
        const Side side = compare_to_bound(m, bound, 6);
        worst_ratio = std::max(worst_ratio, (m.mean + 6 * m.standard_error) / bound);
        list << (list.tellp() ? "; " : "") << "K=" << K << ", c=" << num(c) << ", b=" << num(b) << ": " << describe(m, 3) << " vs " << num(bound, 4);
        if (side == Side::above && counter.empty())
          counter = "K = " + std::to_string(K) + ", c = " + num(c) + ", noise scale " + num(b) + ": " + describe(m, 4) + " > " + num(bound, 5);
        above = above || side == Side::above;
        undecided = undecided || side == Side::undecided;
      }
  ClaimResult r;
  r.region = "Algorithm 2 in the rescaled form (I.1) (the check's transcription), N = 2K x 4 agents, d = 2, f_i = huber(||x - b_i||) "
             "(G = 1), b_i ~ N(0, 1.5^2), w ~ U(0,1)^d, eta_k = 1/(c sqrt k), Delta_i = eta_{k+1} Lap(b) per coordinate (V^2 = 2 d b^2/4), "
             "y^0 = x* +- 3/sqrt(d); " + std::to_string(runs) + " seeded runs per point";
  r.claimed = "(1/N) E[F(y-hat) - F(x*)] <= " + num(scale) + " x [c sqrt(K)(||y1^0 - x*||^2 + ||y2^0 - x*||^2) + 2 c^-1 (log K + 2) "
              "sqrt(K+1)(G^2 + V^2)]/(4K)";
  r.computed = list.str() + "; largest (mean + 6 SE)/bound " + num(worst_ratio, 4);
  r.deficit = worst_ratio - 1;
  r.status = above ? Status::fails : undecided ? Status::inconclusive : Status::holds;
  if (above) r.counterexample = counter;
  if (r.status == Status::inconclusive) r.why = "a mean is within 6 standard errors of the bound";
  r.reproduce = "dpledger check 000/thm-3.2.1";
  r.note = "The library's Algorithm 2 schedules eta0 decay^k (App. E), not the theorem's 1/(c sqrt k), so the check runs its own "
           "transcription of (I.1). Groups are drawn once (without replacement), as Algorithm 2 prints.";
  return r;
}

// Theorem 3.2.1's utility: (3.7) (times N for F = sum f_i) at the thesis's noise, minimised over c at fixed K; its
// exponents in d (pure: Lap rate eps/(d eta B_inf), V^2 = 4 K d^3 B^2/(N eps^2); relaxed: V^2 = K d^2 B^2/(N eps^2), App. I)
// and in N.
ClaimResult check_thm_3_2_1_rates(const CheckContext& ctx) {
  const double claimed_pure = ctx.constant("pure_d_exponent", 1.5);
  const double claimed_relaxed = ctx.constant("relaxed_d_exponent", 1);
  const double claimed_N = ctx.constant("N_exponent", 0.5);
  const double K = 100, R0 = 1, G2 = 1, B = 1, eps = 0.01;
  const auto utility = [&](double d, double N, bool pure) {
    const double V2 = pure ? 4 * K * d * d * d * B * B / (N * eps * eps) : K * d * d * B * B / (N * eps * eps);
    return N * minimise_over_horizon(
                   [&](double c) {
                     return (c * std::sqrt(K) * R0 + 2 / c * (portable::binary64::log(K) + 2) * std::sqrt(K + 1) * (G2 + V2)) / (4 * K);
                   },
                   1e-6, 1e12);
  };
  const std::vector<double> ds{10, 100, 1000}, Ns{1000, 10000, 100000};
  const double ep = fitted_exponent(ds, [&](double d) { return utility(d, 1e4, true); });
  const double er = fitted_exponent(ds, [&](double d) { return utility(d, 1e4, false); });
  const double eN = fitted_exponent(Ns, [&](double N) { return utility(100, N, true); });
  const double tol = 0.05;
  const double worst = std::max({std::abs(ep - claimed_pure), std::abs(er - claimed_relaxed), std::abs(eN - claimed_N)});
  ClaimResult r;
  r.region = "(3.7) x N at K = 100, ||y^0 - x*||^2 sum = 1, G = 1, B_inf = 1, eps = 0.01, minimised over the step constant c; "
             "d in {10, 100, 1000}, N in {10^3 .. 10^5}";
  r.claimed = "O~(N d^" + num(claimed_pure) + " B_inf/(sqrt(N) eps)) under eps-LDP, O~(N d^" + num(claimed_relaxed) +
              " B_inf/(sqrt(N) eps)) under (eps, delta): N^" + num(claimed_N) + " in both";
  r.computed = "fitted exponents: d " + num(ep, 4) + " (pure), d " + num(er, 4) + " (relaxed), N " + num(eN, 4);
  r.deficit = worst - tol;
  r.status = worst <= tol ? Status::holds : Status::fails;
  if (r.status == Status::fails)
    r.counterexample = "the minimum over c of (3.7) grows as d^" + num(ep, 3) + " (pure), d^" + num(er, 3) + " (relaxed), N^" + num(eN, 3);
  r.reproduce = "dpledger check 000/thm-3.2.1-rates";
  r.note = "K enters only through log K (the group size N/(2K) cancels the sqrt(K) of the noise), as the O~ says; the thesis's "
           "relaxed variance is taken with its constant 1 and the log(1/delta) dropped.";
  return r;
}

namespace {

// Sec. 3.3's model (b): N even, row i of W is r_i (2/N) on the first half and (1 - r_i)(2/N) on the second, r_i ~ U(0,1)
// i.i.d.; E[W] = 11^T/N is doubly stochastic. E[W^T W] from the moments E r^2 = 1/3, E r(1-r) = 1/6.
MatrixXd model_b_second_moment(int n) {
  VectorXd a1 = VectorXd::Zero(n), a2 = VectorXd::Zero(n);
  for (int j = 0; j < n; ++j) (j < n / 2 ? a1 : a2)(j) = 2.0 / n;
  return n * ((a1 * a1.transpose() + a2 * a2.transpose()) / 3.0 + (a1 * a2.transpose() + a2 * a1.transpose()) / 6.0);
}

}  // namespace

// (3.9): for X^{k+1} = W X - xi grad F(E[W] X) + Delta, E[F(E[W]X) - F*] <= (1/2xi)(E[||E[W]X - X*||^2 + ||xi grad -
// Delta||^2 - ||X^{k+1} - X*||^2]) <= (1/2xi)(||X - X*||^2 - E||X^{k+1} - X*||^2 + ||xi grad||^2) + E||Delta||^2/(2xi). Both
// sides by exact expectations over W (model (b)) and Delta, F = sum_i mu/2 ||x_i - a_i||^2.
ClaimResult check_eq_3_9(const CheckContext& ctx) {
  const double restore = ctx.constant("missing_variance", 0);
  std::vector<Axis> axes{{"N", 2, 8, {2, 4, 8}, false, true},
                         {"d", 1, 3, {1, 3}, false, true},
                         {"mu", 0.001, 2, {0.01, 0.1, 1}, true},
                         {"xi", 0.05, 2, {0.1, 1}, true},
                         {"noise_sd", 0, 1, {0, 0.5}}};
  const auto evaluate = [&](const Point& p, double& first, double& final_line) {
    const int n = 2 * (static_cast<int>(p[0]) / 2), dim = static_cast<int>(p[1]);
    const double mu = p[2], xi = p[3], s = p[4];
    if (n < 2) return false;
    algorithms::Rng rng(point_seed(ctx.seed, p));
    MatrixXd A(n, dim), X(n, dim);
    for (int i = 0; i < n; ++i)
      for (int l = 0; l < dim; ++l) A(i, l) = rng.gaussian(), X(i, l) = 2 * rng.gaussian();
    const MatrixXd Xs = MatrixXd::Ones(n, 1) * A.colwise().mean();  // consensus optimum (equal curvatures)
    const auto F = [&](const MatrixXd& Y) { return mu / 2 * (Y - A).squaredNorm(); };
    const MatrixXd EW = MatrixXd::Constant(n, n, 1.0 / n), S = model_b_second_moment(n);
    const MatrixXd EWX = EW * X, grad = mu * (EWX - A);
    const double lhs = F(EWX) - F(Xs), noise = n * dim * s * s;
    // E||W X - B||^2 = tr(X^T E[W^T W] X) - 2 tr(B^T E[W] X) + ||B||^2, B = X* + xi grad; plus E||Delta||^2.
    const MatrixXd Bm = Xs + xi * grad;
    const double next = (X.transpose() * S * X).trace() - 2 * (Bm.transpose() * EWX).trace() + Bm.squaredNorm() + noise;
    const double variance = (X.transpose() * (S - EW.transpose() * EW) * X).trace();  // E||(W - E[W]) X||^2
    const double rhs1 = ((EWX - Xs).squaredNorm() + xi * xi * grad.squaredNorm() + noise - next + restore * variance) / (2 * xi);
    const double rhs2 = ((X - Xs).squaredNorm() - next + xi * xi * grad.squaredNorm()) / (2 * xi) + noise / (2 * xi);
    const double unit = 1 + std::abs(lhs) + std::abs(rhs2);
    first = (rhs1 - lhs) / unit + 1e-12;
    final_line = (rhs2 - lhs) / unit + 1e-12;
    return true;
  };
  const SearchOutcome s1 = search_counterexample(axes, ctx.quick ? 10 : 80, ctx.seed, [&](const Point& p) {
    double a = 0, b = 0;
    return evaluate(p, a, b) ? a : kInfinity;
  });
  const SearchOutcome s2 = search_counterexample(axes, ctx.quick ? 10 : 80, ctx.seed, [&](const Point& p) {
    double a = 0, b = 0;
    return evaluate(p, a, b) ? b : kInfinity;
  });
  ClaimResult r;
  r.region = "model (b) random stochastic matrices, F = sum_i mu/2 ||x_i - a_i||^2, X with N(0, 4) entries, Delta with variance "
             "noise_sd^2 per entry; " + s1.region + "; expectations over W and Delta exact (second moments)";
  r.claimed = "E[F(E[W]X) - F*] <= first line (" + std::string(restore > 0 ? "with" : "without") +
              " E||(W - E[W])X||^2/(2 xi)) <= second line";
  r.computed = "first line minus left side, smallest (relative): " + num(s1.worst_margin - 1e-12, 4) + " at " + describe(axes, s1.worst_point) +
               "; second line minus left side: " + num(s2.worst_margin - 1e-12, 4);
  r.deficit = -std::min(s1.worst_margin, s2.worst_margin);
  if (s2.smallest_failure) {
    r.status = Status::fails;
    r.counterexample = describe(axes, *s2.smallest_failure) + ": the final bound is below E[F(E[W]X) - F*]";
  } else if (s1.smallest_failure) {
    r.status = Status::fails_as_printed;
    r.counterexample = describe(axes, *s1.smallest_failure) + ": the first line is below E[F(E[W]X) - F*] (it omits the variance "
                       "E||(W - E[W])X||^2 of the random aggregation)";
    r.holds_where = "for the chain's conclusion (left side <= the second line) at every point searched; the first line holds "
                    "with + E||(W - E[W])X^k||^2/(2 xi) added";
  } else {
    r.status = Status::holds;
  }
  r.reproduce = "dpledger check 000/eq-3.9";
  r.note = "E||X^{k+1} - X*||^2 = ||E[W]X - X* - xi grad||^2 + E||Delta||^2 + E||(W - E[W])X||^2: the printed first line drops the "
           "last term. The second line holds because E[W^T W] <= I for model (b) (eigenvalues 1 and 1/3). (3.9) writes the step "
           "as zeta^{k+1}, (3.8) as xi^{k+1}.";
  return r;
}

// (3.10): for L-Lipschitz f_i, sum_i f_i(z) - F* <= sum_i f_i(y_i) - F* + L sum_i ||z - y_i||, z = the average of the y_i
// (the rows of (1/K) sum_k E[W_{k+1}] X^k).
ClaimResult check_eq_3_10(const CheckContext& ctx) {
  const double factor = ctx.constant("lipschitz_factor", 1);
  std::vector<Axis> axes{{"N", 2, 8, {2, 5}, false, true}, {"d", 1, 3, {1, 2}, false, true}, {"L", 0.1, 5, {0.5, 2}, true},
                         {"spread", 0.1, 10, {0.3, 3}, true}, {"draw", 0, 1000, {1, 2, 3}, false, true}};
  const auto margin = [&](const Point& p) {
    const int n = static_cast<int>(p[0]), dim = static_cast<int>(p[1]);
    const double L = p[2];
    algorithms::Rng rng(point_seed(ctx.seed, p));
    std::vector<VectorXd> y(static_cast<std::size_t>(n), VectorXd(dim)), b(static_cast<std::size_t>(n), VectorXd(dim));
    VectorXd z = VectorXd::Zero(dim);
    for (int i = 0; i < n; ++i) {
      for (int l = 0; l < dim; ++l) y[static_cast<std::size_t>(i)](l) = p[3] * rng.gaussian();
      z += y[static_cast<std::size_t>(i)] / n;
    }
    double lhs = 0, rhs = 0;
    for (int i = 0; i < n; ++i) {
      // f_i = L ||x - b_i|| with b_i beyond y_i on the line from z (where the Lipschitz bound is tight) or at random.
      const VectorXd dir = y[static_cast<std::size_t>(i)] - z;
      for (int l = 0; l < dim; ++l) b[static_cast<std::size_t>(i)](l) = rng.gaussian();
      if (static_cast<int>(p[4]) % 2 == 1) b[static_cast<std::size_t>(i)] = y[static_cast<std::size_t>(i)] + 3 * dir;
      lhs += L * (z - b[static_cast<std::size_t>(i)]).norm();
      rhs += L * (y[static_cast<std::size_t>(i)] - b[static_cast<std::size_t>(i)]).norm() + factor * L * dir.norm();
    }
    return (rhs - lhs) / (1 + lhs) + 1e-12;
  };
  const SearchOutcome s = search_counterexample(axes, ctx.quick ? 10 : 100, ctx.seed, margin);
  ClaimResult r;
  r.region = s.region + "; f_i = L ||x - b_i|| (L-Lipschitz), y_i ~ N(0, spread^2), b_i beyond y_i (odd draws) or at random";
  r.claimed = "sum_i f_i(z) <= sum_i f_i(y_i) + " + num(factor) + " L sum_i ||z - y_i||";
  r.computed = "smallest relative margin " + num(s.worst_margin - 1e-12, 4) + " at " + describe(axes, s.worst_point);
  record_search_verdict(r, s, axes);
  r.reproduce = "dpledger check 000/eq-3.10";
  r.note = "A triangle inequality per agent; the printed double use of the index i is read as z = (1/N) sum_i y_i, y_i = row i of "
           "(1/K) sum_k E[W_{k+1}] X^k.";
  return r;
}

namespace {

// Appendix J's instance: consensus on a triangle (ring of 3, d = 1, sigma_max^2 = sigma_min^2 = 2), f_i = m/2 (x - b_i)^2
// (m-strongly convex, M = m^2), penalties rho_i^{k+1} with diagonal entries uniform in [rho0 - s, rho0 + s], s = spread
// x rho0. alpha is the geometric mean of the interval (J.16) / (J.22) allow, zeta half of its allowed range, D_i a multiple
// of its least allowed value. p_k from (J.15) / (J.21) with each step's realised rho_max and rho-check.
struct JSetting {
  double m = 1, rho0 = 0.01, spread = 0, D_factor = 1.2;
};

struct JRun {
  bool admissible = false;
  double alpha = 0, zeta = 0, D = 0, p_min = 0;
  std::vector<double> p_step;                  // p_k for the step k -> k+1
  std::vector<double> U;                       // ||u^k - u*||_G^2, k = 0..steps (G = diag(D_i I, I/zeta))
  std::vector<std::vector<double>> noise_sq;   // ||Delta_i^k||^2, k = 1..steps
};

JRun run_appendix_j(const JSetting& st, bool first_order, int steps, double noise, double noise_decay, bool from_optimum,
                    std::uint64_t seed) {
  const int n = 3;
  const Ring ring = make_ring(n, 1);
  const double sig2 = 2, m = st.m, M = m * m, s = st.spread * st.rho0, rmax = st.rho0 + s;
  JRun out;
  const double alpha_hi = first_order ? m / ((n + 1) * rmax * rmax * sig2) : 2 * m / (n * rmax * rmax * sig2 + s * s * sig2);
  const double alpha_lo = n / (2 * st.rho0);
  if (!(alpha_lo < alpha_hi)) return out;
  out.admissible = true;
  out.alpha = std::sqrt(alpha_lo * alpha_hi);
  out.zeta = 0.5 * (2 * st.rho0 - n / out.alpha);
  out.D = st.D_factor * std::max(rmax * sig2, n * sig2 / out.alpha + (first_order ? M : 0));
  const double alpha = out.alpha, zeta = out.zeta, D = out.D;
  algorithms::Rng rng(seed);
  std::vector<double> b(n);
  for (double& v : b) v = 2 * rng.gaussian();
  const double xs = (b[0] + b[1] + b[2]) / 3;
  MatrixXd full(n, n);
  VectorXd g(n);
  for (int i = 0; i < n; ++i) full.col(i) = ring.A[static_cast<std::size_t>(i)].col(0), g(i) = m * (xs - b[static_cast<std::size_t>(i)]);
  const VectorXd lambda_star = full.transpose().completeOrthogonalDecomposition().solve(g);
  std::vector<double> x(n);
  VectorXd lambda = VectorXd::Zero(n);
  for (int i = 0; i < n; ++i) x[static_cast<std::size_t>(i)] = from_optimum ? xs : xs + 3 * rng.gaussian();
  if (from_optimum) lambda = lambda_star;
  const auto gnorm = [&](const std::vector<double>& xv, const VectorXd& lv) {
    double u = 0;
    for (double v : xv) u += D * (v - xs) * (v - xs);
    return u + (lv - lambda_star).squaredNorm() / zeta;
  };
  out.U.push_back(gnorm(x, lambda));
  out.p_min = kInfinity;
  for (int k = 0; k < steps; ++k) {
    std::vector<VectorXd> rho(n, VectorXd(n));
    double rho_max = 0, rho_check = 0;
    for (auto& r : rho)
      for (int l = 0; l < n; ++l) {
        r(l) = rng.uniform(st.rho0 - s, st.rho0 + s);
        rho_max = std::max(rho_max, r(l)), rho_check = std::max(rho_check, std::abs(r(l) - st.rho0));
      }
    // p_k: (J.15) or (J.21), every agent alike (sigma_min^2 = sigma_max^2 = 2); S = sum_j rho_max^2 sigma^2/sigma_min^2.
    const double S = n * rho_max * rho_max, third = (2 * st.rho0 / zeta - n / (alpha * zeta) - 1) /
                                                    (5 * n * (rho_max * rho_max / (zeta * zeta) + 1.0 / n));
    double p = 0;
    if (!first_order)
      p = std::min({(2 * m - alpha * n * rho_max * rho_max * sig2 - alpha * rho_check * rho_check * sig2) / (5 * M / (zeta * n * sig2) + D),
                    (D - n * sig2 / alpha) / (5 * D * D / (zeta * n * sig2) + 5 * sig2 / zeta * S), third});
    else
      p = std::min({(m - alpha * n * rho_max * rho_max * sig2 - alpha * rho_max * rho_max * sig2) / (10 * M / (zeta * n * sig2) + D),
                    (D - n * sig2 / alpha - M) / (5 * (D * D + 2 * M) / (zeta * n * sig2) + 5 * sig2 / zeta * S), third});
    out.p_step.push_back(p);
    out.p_min = std::min(out.p_min, p);
    std::vector<double> next(n), sq(n, 0.0);
    for (int i = 0; i < n; ++i) {
      const MatrixXd& Ai = ring.A[static_cast<std::size_t>(i)];
      const double AtrA = (Ai.transpose() * rho[static_cast<std::size_t>(i)].asDiagonal() * Ai)(0, 0), Gamma = D - AtrA;
      VectorXd rest = VectorXd::Zero(n);
      for (int j = 0; j < n; ++j)
        if (j != i) rest += ring.A[static_cast<std::size_t>(j)].col(0) * x[static_cast<std::size_t>(j)];
      const double lin = (Ai.transpose() * (lambda - rho[static_cast<std::size_t>(i)].asDiagonal() * rest))(0, 0);
      next[static_cast<std::size_t>(i)] = first_order
                                              ? (lin + Gamma * x[static_cast<std::size_t>(i)] - m * (x[static_cast<std::size_t>(i)] - b[static_cast<std::size_t>(i)])) / D  // (J.17)
                                              : (lin + Gamma * x[static_cast<std::size_t>(i)] + m * b[static_cast<std::size_t>(i)]) / (m + AtrA + Gamma);  // (J.1)
      if (noise > 0) {
        const double delta = rng.laplace_scale(noise * portable::pow(k + 1.0, -noise_decay));
        next[static_cast<std::size_t>(i)] += delta;
        sq[static_cast<std::size_t>(i)] = delta * delta;
      }
    }
    VectorXd Ax = VectorXd::Zero(n);
    for (int i = 0; i < n; ++i) Ax += ring.A[static_cast<std::size_t>(i)].col(0) * next[static_cast<std::size_t>(i)];
    lambda -= zeta * Ax;
    x = next;
    out.noise_sq.push_back(sq);
    out.U.push_back(gnorm(x, lambda));
  }
  return out;
}

std::vector<JSetting> j_settings(bool quick) {
  if (quick) return {{1, 0.01, 0, 1.2}, {2, 0.05, 0.5, 2}, {1, 0.05, 0.2, 5}};
  std::vector<JSetting> out;
  for (double m : {0.5, 1.0, 2.0})
    for (double rho0 : {0.01, 0.02, 0.05})
      for (double spread : {0.0, 0.5})
        for (double Df : {1.2, 5.0}) out.push_back({m, rho0, spread, Df});
  return out;
}

std::string describe(const JSetting& s) {
  return "m = " + num(s.m) + ", rho0 = " + num(s.rho0) + ", spread = " + num(s.spread) + " rho0, D = " + num(s.D_factor) + " x its least";
}

ClaimResult check_linear_rate(const CheckContext& ctx, bool first_order) {
  const double factor = ctx.constant("p_factor", 1);
  const int steps = 40;
  int admissible = 0, checked = 0;
  double worst = kInfinity, smallest_ratio = kInfinity;
  std::string counter, worst_at;
  std::uint64_t seed = ctx.seed;
  for (const JSetting& st : j_settings(ctx.quick)) {
    const JRun run = run_appendix_j(st, first_order, steps, 0, 0, false, seed++);
    if (!run.admissible) continue;
    ++admissible;
    for (int k = 0; k < steps; ++k) {
      const double u0 = run.U[static_cast<std::size_t>(k)], u1 = run.U[static_cast<std::size_t>(k) + 1];
      if (!(u1 > 1e-18 * run.U[0])) break;  // converged to rounding
      const double observed = u0 / u1 - 1, p = run.p_step[static_cast<std::size_t>(k)];
      ++checked;
      smallest_ratio = std::min(smallest_ratio, observed / p);
      const double margin = (observed - factor * p) / p;
      if (margin < worst) worst = margin, worst_at = describe(st) + ", step " + std::to_string(k);
      if (margin < 0 && counter.empty())
        counter = describe(st) + ", step " + std::to_string(k) + ": ||u^k - u*||_G^2 / ||u^{k+1} - u*||_G^2 - 1 = " + num(observed, 4) +
                  " < " + num(factor) + " p = " + num(factor * p, 4);
    }
  }
  if (checked == 0) throw NotApplicable("no admissible setting");
  ClaimResult r;
  r.region = std::string(first_order ? "first-order update (J.17), conditions (J.22)" : "exact update (J.1), conditions (J.16)") +
             ", consensus on a triangle (d = 1, sigma^2 = 2), f_i = m/2 (x - b_i)^2 (M = m^2), no noise; " + std::to_string(admissible) +
             " admissible settings (m, rho0, spread, D) x " + std::to_string(steps) + " steps; alpha, zeta in the middle of their ranges";
  r.claimed = "||u^k - u*||_G^2 >= (1 + " + num(factor) + " p_k) ||u^{k+1} - u*||_G^2, p_k from " + std::string(first_order ? "(J.21)" : "(J.15)");
  r.computed = std::to_string(checked) + " steps: smallest observed contraction / p_k = " + num(smallest_ratio, 4) + " (at " + worst_at + ")";
  r.deficit = -worst;
  r.status = counter.empty() ? Status::holds : Status::fails;
  if (!counter.empty()) r.counterexample = counter;
  r.reproduce = std::string("dpledger check ") + (first_order ? "000/lemma-J.0.2" : "000/lemma-J.0.1");
  r.note = "G = diag(D_i I, I/zeta) as in the proof (the statement prints zeta I); p_k uses the step's realised rho_max and "
           "rho-check. The p of the lemma is far from tight (the contraction is several times p).";
  return r;
}

}  // namespace

ClaimResult check_lemma_j01(const CheckContext& ctx) { return check_linear_rate(ctx, false); }
ClaimResult check_lemma_j02(const CheckContext& ctx) { return check_linear_rate(ctx, true); }

// Theorem J.0.1 (J.23) with R^k from (J.33): along noisy runs of (J.17) (Laplace noise, constant or diminishing), from the
// optimum (where the remainder alone must bound the error) and from a random start; a = 1/(1 + (1 - eps^) p), p = min_k p_k.
ClaimResult check_thm_j01(const CheckContext& ctx) {
  const double factor = ctx.constant("remainder_factor", 1);
  const double eps_hat = 0.5;
  const int steps = ctx.quick ? 80 : 200;
  double worst = kInfinity;
  std::string counter, worst_at;
  int runs = 0;
  std::uint64_t seed = ctx.seed;
  const std::vector<JSetting> settings = ctx.quick ? std::vector<JSetting>{{1, 0.01, 0, 1.2}, {2, 0.05, 0.5, 2}}
                                                   : std::vector<JSetting>{{1, 0.01, 0, 1.2}, {2, 0.05, 0.5, 2}, {1, 0.05, 0.2, 5}};
  for (const JSetting& st : settings)
    for (bool from_optimum : {true, false})
      for (double decay : {0.0, 1.0}) {
        const JRun run = run_appendix_j(st, true, steps, 0.1, decay, from_optimum, seed++);
        if (!run.admissible) continue;
        ++runs;
        const double p = run.p_min, a = 1 / (1 + (1 - eps_hat) * p);
        const double c = 6 * p * run.D * run.D / (run.zeta * 3 * 2) + run.D / (eps_hat * p);  // every agent alike
        double R = 0;
        for (int k = 1; k <= steps; ++k) {
          double sum = 0;
          for (double v : run.noise_sq[static_cast<std::size_t>(k) - 1]) sum += v;
          R = a * (R + c * sum);  // R^k = sum_i c_i sum_{j=1}^k a^{k+1-j} ||Delta_i^j||^2   (J.33)
          const double bound = portable::pow(a, k) * run.U[0] + factor * R, u = run.U[static_cast<std::size_t>(k)];
          const double margin = (bound - u) / (u + 1e-300);
          if (margin < worst) worst = margin, worst_at = describe(st) + (from_optimum ? ", from u*" : ", random start") + ", step " + std::to_string(k);
          if (margin < 0 && counter.empty())
            counter = describe(st) + (from_optimum ? ", from u*" : ", random start") + ", noise decay k^-" + num(decay) + ", step " +
                      std::to_string(k) + ": ||u^k - u*||_G^2 = " + num(u, 4) + " > a^k ||u^0 - u*||_G^2 + " + num(factor) + " R^k = " + num(bound, 4);
        }
      }
  if (runs == 0) throw NotApplicable("no admissible setting");
  ClaimResult r;
  r.region = "first-order update (J.17) + Laplace noise of scale 0.1 k^-decay (decay 0 and 1), conditions (J.22), triangle, d = 1; " +
             std::to_string(runs) + " runs of " + std::to_string(steps) + " steps, from u* and from a random start; eps^ = 1/2";
  r.claimed = "||u^k - u*||_G^2 <= a^k ||u^0 - u*||_G^2 + " + num(factor) + " R^k along every path";
  r.computed = "smallest (bound - error)/error over all steps: " + num(worst, 4) + " (at " + worst_at + ")";
  r.deficit = -worst;
  r.status = counter.empty() ? Status::holds : Status::fails;
  if (!counter.empty()) r.counterexample = counter;
  r.reproduce = "dpledger check 000/thm-J.0.1";
  r.note = "R^k uses (J.33)'s 6p (the same constant is 6 delta in (J.30)); p is the smallest p_k of the run, so one a serves "
           "every step. The bound is loose by orders of magnitude (p is small), so only the run from u* tests R^k.";
  return r;
}

// Footnote 2 of App. J: (J.31) R^{K+1} <= C sum_k max_i ||Delta_i^k||^2 a^{K+2-k} with C = sum_i c_i, and (J.32) R^K -> 0
// for diminishing noise: the remainder of (J.33) on a long seeded noise sequence (scale 0.1/k), with a and c from the
// first admissible setting of Lemma J.0.2.
ClaimResult check_eq_j31_j32(const CheckContext& ctx) {
  const double factor = ctx.constant("C_factor", 1);
  const JRun setup = run_appendix_j({1, 0.01, 0, 1.2}, true, 20, 0, 0, false, ctx.seed);
  if (!setup.admissible) throw NotApplicable("the setting is not admissible");
  const double eps_hat = 0.5, p = setup.p_min, a = 1 / (1 + (1 - eps_hat) * p);
  const double c = 6 * p * setup.D * setup.D / (setup.zeta * 3 * 2) + setup.D / (eps_hat * p), C = 3 * c;
  const int steps = static_cast<int>(std::min(2e6, (ctx.quick ? 8 : 20) / (1 - a)));
  algorithms::Rng rng(ctx.seed + 5);
  double R = 0, S = 0, peak = 0, worst = kInfinity;
  std::string counter;
  for (int k = 1; k <= steps; ++k) {
    double sum = 0, mx = 0;
    for (int i = 0; i < 3; ++i) {
      const double v = rng.laplace_scale(0.1 / k);
      sum += v * v, mx = std::max(mx, v * v);
    }
    R = a * (R + c * sum);
    S = a * (S + mx);
    peak = std::max(peak, R);
    const double margin = (factor * C * S - R) / R;
    if (margin < worst) worst = margin;
    if (margin < 0 && counter.empty())
      counter = "step " + std::to_string(k) + ": R = " + num(R, 5) + " > " + num(factor) + " C sum max_i ||Delta_i||^2 a^.. = " + num(factor * C * S, 5);
  }
  const double final_fraction = R / peak;
  const bool vanishes = final_fraction < 0.01;
  ClaimResult r;
  r.region = "(J.33)'s remainder for Lemma J.0.2's setting m = 1, rho0 = 0.01 (p = " + num(p, 4) + ", a = " + num(a, 8) + "), 3 agents, "
             "Laplace noise of scale 0.1/k, " + std::to_string(steps) + " steps (" + num((1 - a) * steps, 3) + " / (1 - a))";
  r.claimed = "R^K <= " + num(factor) + " C sum_k max_i ||Delta_i^k||^2 a^{K+1-k} (C = sum_i c_i), and R^K -> 0";
  r.computed = "smallest relative margin of (J.31): " + num(worst, 4) + "; R at the end / its peak = " + num(final_fraction, 4);
  r.deficit = std::max(-worst, final_fraction - 0.01);
  if (!counter.empty()) {
    r.status = Status::fails;
    r.counterexample = counter;
  } else if (!vanishes) {
    r.status = Status::fails;
    r.counterexample = "R^K is still " + num(final_fraction, 4) + " of its peak after " + std::to_string(steps) + " steps";
  } else {
    r.status = Status::holds;
  }
  r.reproduce = "dpledger check 000/eq-J.31-J.32";
  r.note = "The footnote writes c where a is meant and 6 delta where (J.33) has 6p (docs/xiao2019.md E25). R^K decays only on the "
           "time scale 1/(1 - a) ~ 2/p, which for the lemma's small p is thousands of steps.";
  return r;
}

// Theorem J.0.1's utility: the noise floor of (J.23), E[R^K] = sum_i c_i E||Delta||^2 sum_k a^k, at the thesis's noise
// (pure: Lap rate eps D/(B_inf K d); relaxed: eps D/(B_inf sqrt(K d))) for a fixed number of iterations K (the a^K term
// needs K = O(log) only); its exponents in d and N.
ClaimResult check_thm_j01_rates(const CheckContext& ctx) {
  const double claimed_pure = ctx.constant("pure_d_exponent", 3);
  const double claimed_relaxed = ctx.constant("relaxed_d_exponent", 2);
  const double claimed_N = ctx.constant("N_exponent", 1);
  const double K = 50, D = 10, B = 0.01, eps = 1, zeta = 0.1, p = 0.01, eps_hat = 0.5, sigma_min2 = 2;
  const double a = 1 / (1 + (1 - eps_hat) * p);
  const auto floor = [&](double d, double N, bool pure) {
    const double rate = pure ? eps * D / (B * K * d) : eps * D / (B * std::sqrt(K * d));
    const double per_agent = d * 2 / (rate * rate);  // E||Delta_i^k||^2
    const double c = 6 * p * D * D / (zeta * N * sigma_min2) + D / (eps_hat * p);
    double geometric = 0;
    for (int k = 1; k <= static_cast<int>(K); ++k) geometric += portable::pow(a, k);
    return N * c * per_agent * geometric;
  };
  const std::vector<double> ds{10, 100, 1000}, Ns{10, 100, 1000};
  const double ep = fitted_exponent(ds, [&](double d) { return floor(d, 10, true); });
  const double er = fitted_exponent(ds, [&](double d) { return floor(d, 10, false); });
  const double eN = fitted_exponent(Ns, [&](double N) { return floor(100, N, true); });
  const double tol = 0.05;
  const double worst = std::max({std::abs(ep - claimed_pure), std::abs(er - claimed_relaxed), std::abs(eN - claimed_N)});
  ClaimResult r;
  r.region = "(J.33)'s remainder in expectation at K = 50, D_i = 10, B_inf = 0.01, eps = 1, zeta = 0.1, p = 0.01, eps^ = 1/2; d in {10, "
             "100, 1000}, N in {10, 100, 1000}";
  r.claimed = "E||u^k - u*||^2 = O~(d^" + num(claimed_pure) + " N B_inf^2/eps^2) under eps-LDP, O~(d^" + num(claimed_relaxed) +
              " N B_inf^2/eps^2) under (eps, delta)";
  r.computed = "fitted exponents of the floor: d " + num(ep, 4) + " (pure), d " + num(er, 4) + " (relaxed), N " + num(eN, 4);
  r.deficit = worst - tol;
  r.status = worst <= tol ? Status::holds : Status::fails;
  if (r.status == Status::fails)
    r.counterexample = "the floor grows as d^" + num(ep, 3) + " (pure), d^" + num(er, 3) + " (relaxed), N^" + num(eN, 3);
  r.reproduce = "dpledger check 000/thm-J.0.1-rates";
  r.note = "At a fixed horizon the exponents are those of E||Delta||^2 = 2 d/rate^2; the O~ hides the horizon K = O(log(1/floor)) "
           "that the a^K term needs (with it, K^2 in the pure floor is a log^2 factor).";
  return r;
}

}  // namespace dpl::proofs::seed000
