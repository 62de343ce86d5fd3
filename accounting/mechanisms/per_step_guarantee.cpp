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
    case MechanismKind::gaussian:
    case MechanismKind::iteration: break;
  }
  throw NotApplicable("accountant '" + accountant + "' does not apply to " + to_string(m.kind) +
                      " (no finite pure/approximate DP guarantee per step); use --accountant rdp, pld or auto");
}

DpGuarantee step_guarantee(const LedgerEntry& e, const std::string& accountant) {
  const DpGuarantee g = base_guarantee(e.mechanism, accountant);
  if (!e.subsampled() || e.q == 1) return g;
  return e.sampling == Sampling::wor ? amplify_without_replacement(g, exact(e.q)) : amplify_poisson(g, exact(e.q));
}

}  // namespace dpl
