// SPDX-License-Identifier: Apache-2.0
#include "accounting/mechanisms/per_step_guarantee.h"

#include "accounting/errors.h"
#include "accounting/mechanisms/subsampling_amplification.h"

namespace dpl {

DpGuarantee base_guarantee(const Mechanism& m, const std::string& accountant) {
  switch (m.kind) {
    // Laplace mechanism: eps = sens / b (Dwork, McSherry, Nissim, Smith 2006, Prop. 1). Exact.
    case MechanismKind::laplace: return {exact(m.sens) / exact(m.b), exact(0.0)};
    // Randomized response with parameter eps is eps-DP (Warner 1965; Dwork and Roth 2014, Sec. 3.2). Exact.
    case MechanismKind::rr:
    case MechanismKind::pure: return {exact(m.eps), exact(0.0)};
    case MechanismKind::approx: return {exact(m.eps), exact(m.delta)};
    // Mechanisms whose guarantee is eps-DP: the exponential mechanism (McSherry and Talwar 2007, Thm 6),
    // permute-and-flip (McKenna and Sheldon 2020, Thm 1), shuffled eps0-DP reports (a post-processing of the
    // changed user's eps0-DP report and the others', which do not depend on it). Exact guarantees as stated.
    case MechanismKind::exponential:
    case MechanismKind::permute_and_flip:
    case MechanismKind::shuffle: return {exact(m.eps), exact(0.0)};
    // Discrete Laplace: the pmf ratio at any output is at most e^{a sens} (Ghosh, Roughgarden and Sundararajan
    // 2012, the geometric mechanism). Exact.
    case MechanismKind::discrete_laplace: return {exact(m.x.a) * exact(m.sens), exact(0.0)};
    default: break;
  }
  throw NotApplicable("accountant '" + accountant + "' does not apply to " + to_string(m.kind) +
                      " (no finite pure/approximate DP guarantee per step); use --accountant rdp, pld or auto");
}

DpGuarantee step_guarantee(const LedgerEntry& e, const std::string& accountant) {
  const DpGuarantee g = base_guarantee(e.mechanism, accountant);
  if (!e.subsampled() || e.q == 1) return g;
  if (e.sampling == Sampling::poisson_replace_one)
    throw NotApplicable("accountant '" + accountant + "' does not apply to sampling=poisson_replace_one (only the PLD "
                        "accountant analyses Poisson sampling under replace-one); use --accountant pld or auto");
  return e.sampling == Sampling::wor ? amplify_without_replacement(g, exact(e.q)) : amplify_poisson(g, exact(e.q));
}

}  // namespace dpl
