// SPDX-License-Identifier: Apache-2.0
// The random stochastic-matrix models of seed 000 Sec. 3.3 (Xiao 2019): the generators of Figs. 3-1 and 3-2 with
// their fixed (expected) counterparts, the consensus decay E phi((prod_k W_k)(:, j)) by Monte Carlo, and
// Lemma 3.3.1's model (b).
#pragma once

#include <Eigen/Dense>
#include <vector>

#include "algorithms/graphs/graph.h"
#include "algorithms/rng/portable_rng.h"

namespace dpl::algorithms {

enum class StochasticMatrixModel {
  self_weight,  // Fig. 3-1: W(i,i) = r_i, W(i,j) = (1 - r_i)/d_i on neighbours, r_i ~ U(0,1)
  pair_weight,  // Fig. 3-2 (factor-2 reading, docs/xiao2019.md E20): two distinct j1, j2 of the closed neighbourhood get
                // 2r/(d_i+1) and 2(1-r)/(d_i+1), the rest of the closed neighbourhood 1/(d_i+1)
};

// One random matrix of the model (rows sum to 1). Throws InputError if a node has no neighbour.
Eigen::MatrixXd random_stochastic_matrix(const Graph& g, StochasticMatrixModel model, Rng& rng);
// The fixed counterpart (F): the expectation of the random one (1/2 and 1/(2 d_i); 1/(d_i+1) on the closed
// neighbourhood).
Eigen::MatrixXd expected_stochastic_matrix(const Graph& g, StochasticMatrixModel model);
// Lemma 3.3.1's model (b), N even: W[i,j] = 2 r_i / N for j < N/2, 2 (1 - r_i)/N otherwise.
Eigen::MatrixXd half_split_random_matrix(int n, Rng& rng);

// phi(v) = max_i v_i - min_i v_i (Sec. 3.3).
double spread(const Eigen::VectorXd& v);
// mean_j phi(P_K(:, j)) for P_K = W_K ... W_1, K = 1..k_max, averaged over `draws` independent sequences
// (random) or exact (fixed: draws ignored). Element K-1 of the result is the value for K.
std::vector<double> consensus_decay(const Graph& g, StochasticMatrixModel model, bool random, int k_max, int draws,
                                    Rng& rng);

// Least-squares fit of log(values[K-1]) = intercept + slope K (values > 0).
struct LogLinearFit {
  double slope = 0;
  double intercept = 0;
  double r_squared = 0;
};
LogLinearFit fit_log_linear(const std::vector<double>& values);

// Lemma 3.3.1 by Monte Carlo: for independent W1, W2 of model (b) and W~ = W1 W2, the means over draws (and
// over all pairs i1 < i2 and columns j) of |W~(i1,j) - W~(i2,j)| and of phi(W2(:,j)). The lemma claims
// lhs <= rhs / 2; the exact structure gives lhs = E|r1 - r2| E|mean_top - mean_bottom| with E|r1 - r2| = 1/3.
struct LemmaCheck {
  double lhs = 0;
  double rhs = 0;
};
LemmaCheck lemma_331_check(int n, int draws, Rng& rng);

}  // namespace dpl::algorithms
