// SPDX-License-Identifier: Apache-2.0
// The privacy of DP-DDA with node sampling (Liu, Johansson and Shi, Algorithm 1): the paper's claim (Theorem 1's
// sigma and Remark 1's running epsilon (7), exactly as printed) and a certified accounting of the same run through
// dpl::compose. Neighbouring relation: replace one record of one node's data set (Definition 1; q_i fixed).
// Release model: the transcript of every message (Definition 2), so a node's activity is observable (an
// inactive node's z does not change): the target node's K ~ Binomial(T, p_i) active steps are public and only
// those steps carry its record. Two sensitivity models per active step (the noise is a_t nu, the change a_t times
// that of the subgradient, so a_t cancels):
//   paper's:  one Gaussian with sensitivity 2L/q (Theorem 1's proof, Part i);
//   honest:   one Gaussian with sensitivity 2L, applied to a record the node samples with probability 1/q_i and
//             whose choice is hidden: subsampling without replacement at ratio 1/q_i (one of q_i; replace-one).
#pragma once

#include "accounting/composition/accounting_result.h"
#include "algorithms/problems/local_objective.h"

#include <cstdint>
#include <optional>
#include <string>

namespace dpl::algorithms::seed004 {

// L of Assumption 3 from the declared data domain (unit-norm feature rows, labels +-1) and sup|loss'| (hinge,
// logistic: 1): L = sup|loss'| max||x|| = 1. Throws NotApplicable for other losses. One place, so that a shared
// domain helper can replace it.
double loss_lipschitz_bound(LossKind loss);

struct Theorem1 {
  double epsilon = 1, delta0 = 0.01, iota = 0.1, L = 1, constant = 32;
  std::int64_t T = 1000;
  int q = 1;  // min_i q_i
};

// sigma = sqrt(constant iota^2 L^2 T log(2/delta0)) / (q eps) (Theorem 1, the noise the paper prescribes; its
// printed constant is 32), certified and rounded up.
double theorem1_sigma(const Theorem1& p);
// Theorem 1's hypotheses: eps in (0, 1], delta0 in (0, 1], T >= 5 eps^2/(4 iota^2).
bool theorem1_conditions_hold(const Theorem1& p);
// Remark 1 (7): eps_hat(t) = sqrt(3t/(5T)) eps + t eps^2/(5T), rounded up.
double remark1_running_epsilon(double epsilon, std::int64_t t, std::int64_t T);

// What the proof of Theorem 1 itself certifies at t = T (derived from its steps (17)-(18) and Lemma 3, not
// printed): S = sum_t eps'_t^2 = 32 eps^2/constant; with the proof's delta' = sqrt(S), Lemma 3 gives
// eps~ = sqrt(2 S log(e + 1)) + S and delta~ = 1 - (1 - delta')(1 - iota delta0)^T (1 if delta' >= 1). At the
// printed constant 32, eps~ = 1.6207 eps + eps^2 > eps: the proof's last line needs S = eps^2/5 (constant 160).
struct ProofChain {
  double sum_sq = 0, epsilon = 0, delta = 0;  // rounded up
};
ProofChain theorem1_proof_chain(const Theorem1& p);

// Certified upper bound on P(K >= k) for K ~ Binomial(T, p), k > T p: the Chernoff-Hoeffding bound
// exp(-T KL(k/T || p)) (Hoeffding 1963, Thm 1); 1 for k <= T p, 0 for k > T.
double binomial_upper_tail(std::int64_t T, double p, std::int64_t k);

struct ObservableAccounting {
  double epsilon = 0;       // certified upper bound at `delta`
  double delta = 0;         // the target delta (= composition delta + tail)
  std::int64_t active_bound = 0;  // k*: the node is active at most k* times except with probability `tail`
  double tail = 0;          // certified P(K > k*)
  std::string accountant;
  std::string spec;
};

// The node's active steps are public and Binomial(T, p): delta(eps) = E_K delta_K(eps) <= delta_{k*}(eps) +
// P(K > k*) (delta_K is non-decreasing in K and <= 1). k* is the smallest with P(K > k*) <= delta/100; the k*
// active steps are composed by dpl::compose (automatic) at delta - tail. `per_step` is one active step's
// mechanism (steps is overwritten).
ObservableAccounting account_observable_activation(LedgerEntry per_step, std::int64_t T, double p, double delta);

// The exact privacy profile of the paper's model with observable activation: K ~ Binomial(T, p) public active
// steps, each a Gaussian with mu = sensitivity/sigma, so delta(eps) = sum_k P(K = k) delta_G(eps; mu sqrt(k))
// (a mixture over a public, data-independent variable; delta_G of Balle and Wang 2018, Thm 8, for the k-fold
// composition, Dong, Roth and Su 2019, Cor. 2.1). Certified: the sum over k <= k* (pmf by interval lgamma) plus
// P(K > k*) from binomial_upper_tail, k* as in account_observable_activation. Returns an eps with certified delta(eps) <= delta,
// found by bisection in binary64 below `eps_upper` (a known valid bound) and certified in intervals after a
// relative nudge of at most 1e-9 .. 0.1 upwards; nullopt when k* > 20000 (too many terms) or nothing certifies.
std::optional<double> observable_gaussian_mixture_epsilon(double mu, std::int64_t T, double p, double delta,
                                                          double eps_upper);

}  // namespace dpl::algorithms::seed004
