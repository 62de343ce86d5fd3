// SPDX-License-Identifier: Apache-2.0
#include "algorithms/problems/sensitivity_bounds.h"

#include "accounting/errors.h"
#include "accounting/numeric/interval.h"

#include <cmath>

namespace dpl::algorithms {

namespace {

// Rows normalised to unit l2 norm in double have norm 1 up to a few ulps: a relative 1e-12 is accepted by
// require_in_domain and included in the domain's row_l2 constant, so the constant bounds every accepted row.
constexpr double kUnitRowSlack = 1e-12;

std::string row_where(const std::string& who, Eigen::Index j) { return who + " row " + std::to_string(j + 1); }

}  // namespace

DataDomain parse_data_domain(const std::string& key, const std::string& value) {
  if (value == "unit-rows") return DataDomain::unit_rows;
  if (value == "unit-cube") return DataDomain::unit_cube;
  throw InputError(key + "=" + value + " is not allowed: allowed values unit-rows, unit-cube");
}

std::string to_string(DataDomain d) { return d == DataDomain::unit_rows ? "unit-rows" : "unit-cube"; }

std::string describe(DataDomain d) {
  return d == DataDomain::unit_rows ? "unit-rows: features in [0,1], rows of l2 norm <= 1, labels +-1"
                                    : "unit-cube: features in [0,1] (rows of l2 norm <= sqrt(d)), labels +-1";
}

DomainConstants domain_constants(DataDomain d, int dim) {
  if (dim < 1) throw InputError("dim=" + std::to_string(dim) + " is out of range: allowed integers >= 1");
  DomainConstants c;
  c.row_l2 = d == DataDomain::unit_rows ? hi_up(exact(1.0) + exact(kUnitRowSlack)) : hi_up(sqrt(exact_int(dim)));
  return c;
}

void require_in_domain(const Dataset& data, DataDomain d, LossKind loss, const std::string& who) {
  const Eigen::MatrixXd& z = data.features;
  for (Eigen::Index j = 0; j < z.rows(); ++j) {
    for (Eigen::Index l = 0; l < z.cols(); ++l)
      if (!(z(j, l) >= 0 && z(j, l) <= 1))
        throw InputError("domain=" + to_string(d) + ": " + row_where(who, j) + " has feature " + std::to_string(l + 1) +
                         " = " + std::to_string(z(j, l)) + " outside [0, 1]; allowed: data in the declared domain (" +
                         describe(d) + ")");
    if (d == DataDomain::unit_rows && !(z.row(j).norm() <= 1 + kUnitRowSlack))
      throw InputError("domain=unit-rows: " + row_where(who, j) + " has l2 norm " + std::to_string(z.row(j).norm()) +
                       " > 1; allowed: rows of norm <= 1 (or domain=unit-cube)");
    const bool signed_label = loss == LossKind::logistic || loss == LossKind::hinge;
    if (signed_label && !(data.labels(j) == 1.0 || data.labels(j) == -1.0))
      throw InputError("domain=" + to_string(d) + ": " + row_where(who, j) + " has label " +
                       std::to_string(data.labels(j)) + "; allowed labels +-1 for loss=" + to_string(loss));
  }
}

// Per-row constants (Lipschitz in x by the chain rule grad_x loss = l'(y, <z,x>) z; smoothness by
// grad^2_x = l'' z z^T with ||z z^T||_2 = ||z||_2^2) and the replace-one sensitivity 2 G / b of a mean of b
// per-row gradients each of norm <= G (triangle inequality). Interval arithmetic, every value rounded up.
LossBounds loss_bounds(LossKind loss, const Regularizer& reg, double huber_delta, DataDomain d, int dim, int rows) {
  if (rows < 1) throw InputError("rows=" + std::to_string(rows) + " is out of range: allowed integers >= 1");
  if (!(reg.l2 >= 0) || !std::isfinite(reg.l2) || !(reg.l1 >= 0) || !std::isfinite(reg.l1))
    throw InputError("l2, l1: the regulariser must be finite and >= 0");
  if (loss == LossKind::huber && !(huber_delta > 0 && std::isfinite(huber_delta)))
    throw InputError("huber_delta=" + std::to_string(huber_delta) + " is out of range: allowed reals (0, inf)");
  const DomainConstants c = domain_constants(d, dim);
  LossBounds b;
  b.strong_convexity = reg.l2;
  switch (loss) {
    case LossKind::logistic: b.derivative = c.label_abs; b.curvature = 0.25; break;  // |y| sigma(.) <= |y|; s(1-s) <= 1/4
    case LossKind::hinge: b.derivative = c.label_abs; break;                        // subgradient in {0, -y}
    case LossKind::huber: b.derivative = huber_delta; b.curvature = 1; break;       // clamp(r, -delta, delta)
    case LossKind::squared: b.curvature = 1; break;                                 // m - y: unbounded
  }
  const Interval two = exact(2.0), n = exact_int(rows), row = exact(c.row_l2), feat = exact(c.feature_abs);
  if (std::isfinite(b.derivative)) {
    const Interval g = exact(b.derivative);
    b.lipschitz_l2 = hi_up(g * row);
    b.lipschitz_linf = hi_up(g * feat);
    b.sensitivity_l2 = hi_up(two * g * row / n);
    b.sensitivity_linf = hi_up(two * g * feat / n);
  }
  if (std::isfinite(b.curvature)) b.smoothness = hi_up(exact(b.curvature) * row * row + exact(reg.l2));
  return b;
}

double clipped_mean_sensitivity(double clip, int rows) {
  if (!(clip > 0) || !std::isfinite(clip))
    throw InputError("clip=" + std::to_string(clip) + " is out of range: allowed reals (0, inf)");
  if (rows < 1) throw InputError("rows=" + std::to_string(rows) + " is out of range: allowed integers >= 1");
  return hi_up(exact(2.0) * exact(clip) / exact_int(rows));  // 2 C / b (triangle inequality)
}

}  // namespace dpl::algorithms
