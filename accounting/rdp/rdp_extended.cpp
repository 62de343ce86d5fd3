// SPDX-License-Identifier: Apache-2.0
#include "accounting/rdp/rdp_extended.h"

#include "accounting/errors.h"
#include "accounting/mechanisms/extended_mechanisms.h"
#include "accounting/mechanisms/truncated_poisson_sampling.h"
#include "accounting/rdp/rdp_basic_mechanisms.h"
#include "accounting/rdp/rdp_bounded_range.h"
#include "accounting/rdp/rdp_discrete_mechanisms.h"
#include "accounting/rdp/rdp_labeled_mixture.h"
#include "accounting/rdp/rdp_repeat_and_select.h"
#include "accounting/rdp/rdp_wr_gaussian.h"
#include "accounting/rdp/rdp_zcdp.h"

namespace dpl {

namespace {

std::unique_ptr<RdpCurve> gaussian_curve(double sigma, double sens, double q) {
  LedgerEntry g;
  g.mechanism.kind = MechanismKind::gaussian;
  g.mechanism.sigma = sigma;
  g.mechanism.sens = sens;
  if (q < 1) {
    g.q = q;
    g.sampling = Sampling::poisson;
  }
  return make_rdp_curve(g);
}

}  // namespace

bool has_extended_rdp_curve(const Mechanism& m) { return is_extended(m.kind) || m.x.k > 0; }

std::unique_ptr<RdpCurve> extended_rdp_curve(const Mechanism& m) {
  switch (m.kind) {
    case MechanismKind::rr: return std::make_unique<KaryRandomizedResponseRdp>(m.x.p, m.x.k);
    case MechanismKind::discrete_gaussian:
      return std::make_unique<ZcdpRdp>(exact(0.0), discrete_gaussian_rho(m.sigma, m.sens));
    case MechanismKind::discrete_laplace:
      return std::make_unique<DiscreteLaplaceRdp>(m.x.a, static_cast<std::int64_t>(m.sens));
    case MechanismKind::zcdp: return std::make_unique<ZcdpRdp>(exact(m.x.xi), exact(m.x.rho));
    case MechanismKind::exponential: return std::make_unique<BoundedRangeRdp>(exact(m.eps));
    // Permute-and-flip is eps-DP (McKenna and Sheldon 2020, Thm 1): the randomized response curve bounds it.
    case MechanismKind::permute_and_flip: return std::make_unique<RandomizedResponseRdp>(exact(m.eps));
    case MechanismKind::tree:
      return std::make_unique<ZcdpRdp>(exact(0.0), tree_rho(m.sigma, m.sens, m.x.leaves));
    case MechanismKind::truncated_gaussian: {
      const TruncatedSampling t = truncated_sampling(m.x.q, m.x.batch, m.x.n);
      std::vector<std::pair<Interval, std::unique_ptr<RdpCurve>>> parts;
      parts.emplace_back(1 - t.tau, gaussian_curve(m.sigma, m.sens, m.x.q));
      if (hi(t.tau) > 0) parts.emplace_back(t.tau, gaussian_curve(m.sigma, 2 * m.sens, t.q_full));
      return std::make_unique<LabeledMixtureRdp>(std::move(parts));
    }
    case MechanismKind::wr_gaussian: return std::make_unique<WrGaussianRdp>(m.sigma, m.sens, m.x.batch, m.x.n);
    case MechanismKind::select: return std::make_unique<RepeatAndSelectRdp>(*m.x.run, m.x.mean, m.x.shape);
    case MechanismKind::mixture:
      throw NotApplicable("accountant 'rdp' does not apply to mixture (no Renyi-DP bound for both neighbouring "
                          "directions is implemented; dp_accounting has none either); use pld or auto");
    case MechanismKind::shuffle:
      throw NotApplicable("accountant 'rdp' does not apply to shuffle (the amplification is accounted by its "
                          "privacy loss distribution); use pld, pure or auto");
    default: break;
  }
  throw std::logic_error("internal: extended_rdp_curve of a classic kind");
}

}  // namespace dpl
