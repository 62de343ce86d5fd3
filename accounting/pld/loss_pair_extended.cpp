// SPDX-License-Identifier: Apache-2.0
#include "accounting/pld/loss_pair_extended.h"

#include "accounting/errors.h"
#include "accounting/mechanisms/extended_mechanisms.h"
#include "accounting/mechanisms/truncated_poisson_sampling.h"
#include "accounting/numeric/binomial_tail.h"
#include "accounting/numeric/log_space.h"
#include "accounting/pld/loss_pair_atoms.h"
#include "accounting/pld/loss_pair_discrete.h"
#include "accounting/pld/loss_pair_mixture.h"
#include "accounting/pld/loss_pair_mixture_of_gaussians.h"
#include "accounting/pld/loss_pair_shuffle.h"
#include "accounting/rdp/rdp_zcdp.h"

#include <cmath>
#include <memory>

namespace dpl {

namespace {

bool sampled(const LedgerEntry& e) { return e.subsampled() && e.q < 1; }

[[noreturn]] void no_sampled_pair(const LedgerEntry& e) {
  throw NotApplicable("accountant 'pld': subsampling (q) of " + to_string(e.mechanism.kind) +
                      " is not supported yet; use rdp or auto");
}

LedgerEntry gaussian_entry(double sigma, double sens, double q) {
  LedgerEntry g;
  g.mechanism.kind = MechanismKind::gaussian;
  g.mechanism.sigma = sigma;
  g.mechanism.sens = sens;
  if (q < 1) {
    g.q = q;
    g.sampling = Sampling::poisson;
  }
  return g;
}

// The pair of the eps-DP worst case (randomized response), for mechanisms known only to be eps-DP.
LossPair pure_pair(double eps, PairDirection d) {
  LedgerEntry p;
  p.mechanism.kind = MechanismKind::pure;
  p.mechanism.eps = eps;
  return loss_pair(p, d);
}

// The eps' of the binary randomized response that a selection mechanism at eps attains, rounded down (for the lower
// bound): two candidates whose utilities swap, u(D) = (0, Du), u(D') = (Du, 0) (each moves by the sensitivity Du).
// Exponential mechanism (McSherry and Talwar 2007): P(r1 | D) = 1/(1 + e^{eps/2}), so eps' = eps/2 (exact).
// Permute-and-flip (McKenna and Sheldon 2020, Alg. 1): P(r1 | D) = e^{-eps/2}/2, P(r1 | D') = 1 - e^{-eps/2}/2, so
// eps' = log(2 e^{eps/2} - 1), in [eps/2, eps].
double selection_attained_rr_eps(MechanismKind kind, double eps) {
  if (kind == MechanismKind::exponential) return eps / 2;
  const Interval e = exact(eps);
  return lo_down(log(exact(2.0) * exp(e / exact(2.0)) - exact(1.0)));
}

// Weights below this are not held as normal doubles: the attained pair of wr_gaussian is then not built.
constexpr double kWrAttainedMinWeight = 1e-300;

// The attained pair of sampling with replacement (for the lower bound): D has every record 0, D' one record moved by
// sens, so given the number K ~ Bin(M, 1/N) of draws of it the output is N(K sens, sigma^2) against N(0, sigma^2),
// K unreleased: the mixture of Gaussians with sensitivities k sens and probabilities P[K = k], k = 0..M. Built when
// every probability is a normal double above 1e-300 and M <= 1000 (the mixture's limit); each is then within 2 ulps of
// its exact value after normalisation, the margin the mixture's survival values already carry (docs/mechanisms.md).
// nullopt otherwise.
struct WrAttainedMixture {
  std::vector<double> sens, probs;
};
std::optional<WrAttainedMixture> wr_gaussian_attained_mixture(const Mechanism& m) {
  const std::int64_t draws = m.x.batch, n = m.x.n;
  if (draws > 1000) return std::nullopt;
  const Interval nn = exact_int(n);
  WrAttainedMixture mix;
  Interval total = exact(0.0);
  for (std::int64_t k = 0; k <= draws; ++k) {
    if (n == 1 && k != draws) continue;  // the only record is drawn every time
    const Interval lp = n == 1 ? exact(0.0)
                               : log_binomial(draws, k) - exact_int(k) * log(nn) + exact_int(draws - k) * log1p(-1 / nn);
    const Interval w = exp(lp);
    if (!(lo(w) >= Real(kWrAttainedMinWeight))) return std::nullopt;
    mix.sens.push_back(lo_down(exact(m.sens) * exact_int(k)));  // smaller shifts: dominated by the attained pair
    mix.probs.push_back(mid_double(w));
    total += exact(mix.probs.back());
  }
  for (double& w : mix.probs) w = mid_double(exact(w) / total);
  return mix;
}

// Truncated Poisson sampling: the labelled mixture (1 - tau) SG(q, sens) + tau SG(q B/(B + 1), 2 sens)
// (accounting/mechanisms/truncated_poisson_sampling.h). Weights within 1 ulp of the enclosed tau and 1 - tau.
LossPair truncated_gaussian_pair(const Mechanism& m, PairDirection d) {
  const TruncatedSampling t = truncated_sampling(m.x.q, m.x.batch, m.x.n);
  const LossPair free = loss_pair(gaussian_entry(m.sigma, m.sens, m.x.q), d);
  if (hi(t.tau) == 0) return free;
  const LossPair full = loss_pair(gaussian_entry(m.sigma, 2 * m.sens, t.q_full), d);
  return labeled_mixture({{mid_double(1 - t.tau), free}, {mid_double(t.tau), full}}, 0.0);
}

// Sampling with replacement: the labelled mixture over K ~ Bin(m, 1/n) of the Gaussian pairs of shift K sens, K = 0
// an atom at loss 0 (accounting/rdp/rdp_wr_gaussian.h); P[K > k_max] below 1e-30 at loss +inf.
LossPair wr_gaussian_pair(const Mechanism& m, PairDirection d) {
  const std::int64_t draws = m.x.batch, n = m.x.n;
  const Interval nn = exact_int(n);
  // The tail beyond k_max bounded with the sampling probability rounded up (stochastically larger).
  const double q_up = hi_up(1 / nn);
  std::int64_t k_max = 0;
  Interval tail = exact(1.0);
  while (k_max < draws) {
    tail = binomial_upper_tail(draws, q_up, k_max + 1);
    if (hi(tail) <= Real(1e-30)) break;
    if (++k_max > 1000)
      throw NotApplicable("accountant 'pld': wr_gaussian with batch_size/dataset_size this large holds the record "
                          "more than 1000 times with probability above 1e-30; use rdp or auto");
  }
  std::vector<std::pair<double, LossPair>> parts;
  for (std::int64_t k = 0; k <= k_max; ++k) {
    const Interval lp = n == 1 ? exact(k == draws ? 0.0 : -INFINITY)
                               : log_binomial(draws, k) - exact_int(k) * log(nn) + exact_int(draws - k) * log1p(-1 / nn);
    if (hi(lp) == -INFINITY) continue;
    const double w = mid_double(exp(lp));
    if (k == 0) {
      LossAtoms zero(-1, 1, 1);
      zero.add(0.0, 0.0, 1.0);
      parts.emplace_back(w, zero.finish(0.0));
    } else {
      parts.emplace_back(w, loss_pair(gaussian_entry(m.sigma, hi_up(exact(m.sens) * exact_int(k)), 1.0), d));
    }
  }
  return labeled_mixture(std::move(parts), k_max < draws ? hi_up(tail) : 0.0);
}

}  // namespace

bool has_extended_pair(const LedgerEntry& e) { return is_extended(e.mechanism.kind) || e.mechanism.x.k > 0; }

LossPair extended_loss_pair(const LedgerEntry& e, PairDirection d) {
  const Mechanism& m = e.mechanism;
  switch (m.kind) {
    case MechanismKind::rr:
      if (sampled(e)) no_sampled_pair(e);
      return k_randomized_response_pair(m.x.p, m.x.k);
    case MechanismKind::discrete_laplace:
      if (sampled(e)) no_sampled_pair(e);
      return discrete_laplace_pair(m.x.a, static_cast<std::int64_t>(m.sens));
    case MechanismKind::discrete_gaussian: {
      if (m.x.dim != 1)
        throw NotApplicable("accountant 'pld' applies to the univariate discrete Gaussian (dim=1); this one's "
                            "dimension is " + (m.x.dim == 0 ? std::string("unknown") : std::to_string(m.x.dim)) +
                            " (the multivariate privacy curve is not that of its norm): use rdp or auto");
      if (sampled(e)) no_sampled_pair(e);
      // The outputs differ by an integer of absolute value <= sens, and the divergences grow with it.
      const auto s = static_cast<std::int64_t>(std::floor(m.sens));
      if (s > 1000000) throw NotApplicable("accountant 'pld': discrete_gaussian with sens above 1e6; use rdp or auto");
      return discrete_gaussian_pair(m.sigma, s);
    }
    case MechanismKind::zcdp:
      throw NotApplicable("accountant 'pld' does not apply to zcdp (a zCDP guarantee bounds Renyi divergences, not a "
                          "privacy loss distribution); use rdp or auto");
    case MechanismKind::exponential:
    case MechanismKind::permute_and_flip:
      if (sampled(e)) no_sampled_pair(e);
      {
        // eps-DP: dominated by randomized response (Kairouz, Oh and Viswanath 2015), which the selection mechanism
        // does not attain; the lower bound comes from the pair it attains on two candidates.
        LossPair p = pure_pair(m.eps, d);
        p.optimistic = std::make_shared<const LossPair>(pure_pair(selection_attained_rr_eps(m.kind, m.eps), d));
        return p;
      }
    case MechanismKind::tree: {
      // A Gaussian of sensitivity sens sqrt(depth) (accounting/rdp/rdp_zcdp.h): noise sigma/sqrt(depth), rounded down.
      const double sigma = lo_down(exact(m.sigma) / sqrt(exact_int(tree_depth(m.x.leaves))));
      return loss_pair(gaussian_entry(sigma, m.sens, 1.0), d);
    }
    case MechanismKind::mixture: return mixture_of_gaussians_pair(m.sigma, m.x.sensitivities, m.x.probabilities, d);
    case MechanismKind::truncated_gaussian: return truncated_gaussian_pair(m, d);
    case MechanismKind::wr_gaussian: {
      LossPair p = wr_gaussian_pair(m, d);
      if (const auto mix = wr_gaussian_attained_mixture(m))
        p.optimistic = std::make_shared<const LossPair>(mixture_of_gaussians_pair(m.sigma, mix->sens, mix->probs, d));
      return p;
    }
    case MechanismKind::select:
      throw NotApplicable("accountant 'pld' does not apply to select (Papernot and Steinke's bound is a Renyi-DP "
                          "bound); use rdp or auto");
    case MechanismKind::shuffle: return shuffle_pair(m.eps, m.x.n);
    default: break;
  }
  throw std::logic_error("internal: extended_loss_pair of a classic kind");
}

bool extended_symmetric_pair(const LedgerEntry& e) {
  switch (e.mechanism.kind) {
    case MechanismKind::mixture:
    case MechanismKind::truncated_gaussian: return false;
    default: return true;
  }
}

std::optional<std::string> unattained_lower_pair(const LedgerEntry& e) {
  if (!has_extended_pair(e)) return std::nullopt;
  const Mechanism& m = e.mechanism;
  switch (m.kind) {
    case MechanismKind::truncated_gaussian:
      return "truncated_gaussian's pair is a labelled mixture that dominates the mechanism (the label, whether the "
             "batch was truncated, is not released), so no neighbouring datasets attain it";
    case MechanismKind::wr_gaussian:
      if (wr_gaussian_attained_mixture(m)) return std::nullopt;
      if (m.x.batch > 1000)
        return "wr_gaussian's pair is a labelled mixture that dominates the mechanism (the number of draws of the "
               "record is not released), and the attained mixture is built only up to batch_size 1000";
      return "wr_gaussian's pair is a labelled mixture that dominates the mechanism (the number of draws of the "
             "record is not released), and the attained mixture has probabilities below 1e-300";
    case MechanismKind::shuffle:
      return "shuffle's pair is Feldman, McMillan and Talwar's clone pair, which dominates the shuffler but is not "
             "attained by any neighbouring datasets";
    default: return std::nullopt;
  }
}

}  // namespace dpl
