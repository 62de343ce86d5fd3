// SPDX-License-Identifier: Apache-2.0
#include "accounting/mechanisms/extended_entry_json.h"

#include <cmath>
#include <stdexcept>

namespace dpl {

nlohmann::ordered_json extended_entry_json(const LedgerEntry& e, nlohmann::ordered_json (*entry_json)(const LedgerEntry&)) {
  const Mechanism& m = e.mechanism;
  const ExtendedParameters& x = m.x;
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  j["mechanism"] = to_string(m.kind);
  bool sampled_keys = true;
  switch (m.kind) {
    case MechanismKind::rr: j["p"] = x.p; j["k"] = x.k; break;
    case MechanismKind::discrete_gaussian:
      j["sigma"] = m.sigma;
      j["sens"] = m.sens;
      if (x.dim > 0) j["dim"] = x.dim;
      break;
    case MechanismKind::discrete_laplace: j["a"] = x.a; j["sens"] = m.sens; break;
    case MechanismKind::zcdp: j["rho"] = x.rho; j["xi"] = x.xi; break;
    case MechanismKind::exponential:
    case MechanismKind::permute_and_flip: j["eps"] = m.eps; break;
    case MechanismKind::tree:
      j["sigma"] = m.sigma;
      j["sens"] = m.sens;
      j["leaves"] = x.leaves;
      sampled_keys = false;
      break;
    case MechanismKind::mixture:
      j["sigma"] = m.sigma;
      j["sens"] = x.sensitivities;
      j["probs"] = x.probabilities;
      sampled_keys = false;
      break;
    case MechanismKind::truncated_gaussian:
      j["sigma"] = m.sigma;
      j["sens"] = m.sens;
      j["q"] = x.q;
      j["batch_size"] = x.batch;
      j["dataset_size"] = x.n;
      sampled_keys = false;
      break;
    case MechanismKind::wr_gaussian:
      j["sigma"] = m.sigma;
      j["sens"] = m.sens;
      j["batch_size"] = x.batch;
      j["dataset_size"] = x.n;
      sampled_keys = false;
      break;
    case MechanismKind::select: {
      j["mean"] = x.mean;
      if (std::isinf(x.shape)) j["shape"] = "inf";
      else j["shape"] = x.shape;
      nlohmann::ordered_json run = nlohmann::ordered_json::array();
      if (x.run)
        for (const auto& inner : *x.run) run.push_back(entry_json(inner));
      j["run"] = run;
      sampled_keys = false;
      break;
    }
    case MechanismKind::shuffle:
      j["eps0"] = m.eps;
      j["n"] = x.n;
      sampled_keys = false;
      break;
    default: throw std::logic_error("internal: extended_entry_json of a classic kind");
  }
  j["steps"] = e.steps;
  if (sampled_keys && e.subsampled()) {
    j["q"] = e.q;
    if (e.sampling == Sampling::wor || e.sampling == Sampling::poisson_replace_one) j["sampling"] = to_string(e.sampling);
  }
  return j;
}

}  // namespace dpl
