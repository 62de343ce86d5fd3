// SPDX-License-Identifier: Apache-2.0
// Data-independent Lipschitz, smoothness and sensitivity bounds of the per-row losses, from the DECLARED data
// domain (never from the private rows): the one place every privacy ledger of `dpledger run` gets its
// sensitivities from. A neighbouring dataset replaces one row of an agent by any other row of the same domain;
// the number of rows of each agent is public.
#pragma once

#include "algorithms/data/dataset.h"
#include "algorithms/problems/local_objective.h"

#include <string>

namespace dpl::algorithms {

// unit-rows: features in [0,1], rows of l2 norm <= 1, labels +-1 (what preprocess() and synthetic_logistic()
// produce; seed 000's experiments). unit-cube: features in [0,1], labels +-1 (rows of l2 norm <= sqrt(d)).
enum class DataDomain { unit_rows, unit_cube };
// Parses "unit-rows" | "unit-cube"; throws InputError naming `key`, the value and the allowed values.
DataDomain parse_data_domain(const std::string& key, const std::string& value);
std::string to_string(DataDomain d);
// One line: what the domain declares (for ledgers).
std::string describe(DataDomain d);

// Suprema over the domain (rounded up): |z_l|, ||z||_2, |y|.
struct DomainConstants {
  double feature_abs = 1;
  double row_l2 = 1;
  double label_abs = 1;
};
DomainConstants domain_constants(DataDomain d, int dim);

// Throws InputError naming `who` (e.g. "data breast_cancer[agent 3]"), the row and the violated constraint if a
// row of `data` is outside the domain: a feature outside [0, 1], a row norm above 1 (unit-rows; 1e-12 relative
// allowed for the normalisation's rounding, included in the constants), or for logistic and hinge loss a label
// other than +-1 (squared and Huber loss: labels are not constrained).
void require_in_domain(const Dataset& data, DataDomain d, LossKind loss, const std::string& who);

// Bounds of f(x) = (1/b) sum_j loss(y_j, <z_j, x>) + reg(x) over every dataset of b rows in the domain and every
// x (upper bounds, computed in interval arithmetic and rounded up; HUGE_VAL where no finite bound exists).
struct LossBounds {
  double derivative = HUGE_VAL;       // sup |d loss/d m|: logistic, hinge |y| <= label_abs; Huber delta; squared inf
  double curvature = HUGE_VAL;        // sup d2 loss/dm2: logistic 1/4, squared and Huber 1, hinge inf
  double lipschitz_l2 = HUGE_VAL;     // sup ||grad_x loss(y, <z, x>)||_2 = derivative * row_l2 (per row)
  double lipschitz_linf = HUGE_VAL;   // sup ||grad_x loss(y, <z, x>)||_inf = derivative * feature_abs (per row)
  double smoothness = HUGE_VAL;       // curvature * row_l2^2 + l2: Lipschitz constant of grad f (per row and of f)
  double strong_convexity = 0;        // l2 (the regulariser's modulus; the losses are only convex)
  // Replace-one sensitivity of the mean-loss gradient grad f_D(x) - grad f_D'(x) (the regulariser cancels):
  // ||l'(y,<z,x>) z - l'(y',<z',x>) z'||/b <= 2 lipschitz / b (triangle inequality), in l2 and l_inf.
  double sensitivity_l2 = HUGE_VAL;
  double sensitivity_linf = HUGE_VAL;
};
// Throws InputError unless rows >= 1, dim >= 1, huber_delta > 0 (for Huber) and the regulariser is finite >= 0.
LossBounds loss_bounds(LossKind loss, const Regularizer& reg, double huber_delta, DataDomain d, int dim, int rows);

// Replace-one sensitivity of a mean of b per-row vectors each clipped to norm <= clip: 2 clip / b (rounded up),
// in the clipping norm. Throws InputError unless clip > 0 finite and rows >= 1.
double clipped_mean_sensitivity(double clip, int rows);

}  // namespace dpl::algorithms
