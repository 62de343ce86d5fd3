// SPDX-License-Identifier: Apache-2.0
#include "accounting/rdp/rdp_curve.h"

#include "accounting/errors.h"
#include "accounting/rdp/rdp_basic_mechanisms.h"
#include "accounting/rdp/rdp_extended.h"
#include "accounting/rdp/rdp_iteration.h"
#include "accounting/rdp/rdp_subsampled_gaussian.h"
#include "accounting/rdp/rdp_subsampled_general.h"

namespace dpl {

namespace {

std::unique_ptr<RdpCurve> unsampled(const Mechanism& m) {
  if (has_extended_rdp_curve(m)) return extended_rdp_curve(m);
  switch (m.kind) {
    case MechanismKind::gaussian: return std::make_unique<GaussianRdp>(m.sigma, m.sens);
    case MechanismKind::laplace: return std::make_unique<LaplaceRdp>(exact(m.b) / exact(m.sens));
    case MechanismKind::rr:
    case MechanismKind::pure: return std::make_unique<RandomizedResponseRdp>(exact(m.eps));
    case MechanismKind::approx:
      if (m.delta == 0) return std::make_unique<RandomizedResponseRdp>(exact(m.eps));
      throw NotApplicable("accountant 'rdp' does not apply to approx:eps,delta with delta > 0 (an (eps, delta) "
                          "guarantee has no Renyi-DP curve); use basic, advanced, optimal, pld or auto");
    case MechanismKind::iteration:
      return std::make_unique<IterationRdp>(m.sigma, m.sens, m.iterations - m.index + 1, m.contraction);
    default: break;
  }
  throw std::logic_error("internal: unknown mechanism kind");
}

}  // namespace

std::vector<double> RdpCurve::upper_at_integer_orders(const std::vector<std::int64_t>& orders) const {
  std::vector<double> out;
  out.reserve(orders.size());
  for (const auto a : orders) out.push_back(hi_up(certified_at(static_cast<double>(a))));
  return out;
}

std::unique_ptr<RdpCurve> make_rdp_curve(const LedgerEntry& e) {
  const Mechanism& m = e.mechanism;
  if (!e.subsampled() || e.q == 1.0) return unsampled(m);
  if (m.kind == MechanismKind::iteration)
    throw NotApplicable("accountant 'rdp': subsampling (q) of an iteration mechanism is not supported");
  if (e.sampling == Sampling::poisson_replace_one)
    throw NotApplicable("accountant 'rdp' does not apply to sampling=poisson_replace_one (no Renyi-DP analysis of "
                        "Poisson sampling under replace-one is implemented); use pld or auto");
  if (m.kind == MechanismKind::gaussian && e.sampling == Sampling::poisson)
    return std::make_unique<SubsampledGaussianRdp>(e.q, m.sigma, m.sens);
  const auto scheme = e.sampling == Sampling::poisson ? SubsampledGeneralRdp::Scheme::poisson
                                                      : SubsampledGeneralRdp::Scheme::without_replacement;
  return std::make_unique<SubsampledGeneralRdp>(unsampled(m), e.q, scheme);
}

}  // namespace dpl
