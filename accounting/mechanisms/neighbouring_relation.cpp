// SPDX-License-Identifier: Apache-2.0
#include "accounting/mechanisms/neighbouring_relation.h"

#include "accounting/errors.h"

#include <string>

namespace dpl {

NeighbouringRelation relation_of(const LedgerEntry& e) {
  switch (e.mechanism.kind) {
    // Mechanisms that carry their own neighbouring relation (docs/mechanisms.md): truncated Poisson sampling and the
    // mixture of Gaussians are analysed for add/remove-one neighbours, shuffling and sampling with replacement for
    // replace-one; select has the relation of its run.
    case MechanismKind::truncated_gaussian:
    case MechanismKind::mixture: return NeighbouringRelation::add_remove;
    case MechanismKind::shuffle:
    case MechanismKind::wr_gaussian: return NeighbouringRelation::replace_one;
    case MechanismKind::select:
      if (e.mechanism.x.run) {
        require_single_relation(*e.mechanism.x.run);
        for (const auto& inner : *e.mechanism.x.run)
          if (relation_of(inner) != NeighbouringRelation::any) return relation_of(inner);
      }
      break;
    default: break;
  }
  switch (e.sampling) {
    case Sampling::poisson: return NeighbouringRelation::add_remove;
    case Sampling::wor:
    case Sampling::poisson_replace_one: return NeighbouringRelation::replace_one;
    case Sampling::none: break;
  }
  return NeighbouringRelation::any;
}

void require_single_relation(const Ledger& ledger) {
  std::size_t first_poisson = ledger.size(), first_wor = ledger.size();
  for (std::size_t i = 0; i < ledger.size(); ++i) {
    const NeighbouringRelation r = relation_of(ledger[i]);
    if (r == NeighbouringRelation::add_remove && first_poisson == ledger.size()) first_poisson = i;
    if (r == NeighbouringRelation::replace_one && first_wor == ledger.size()) first_wor = i;
  }
  if (first_poisson == ledger.size() || first_wor == ledger.size()) return;
  throw InputError("-m: mechanism " + std::to_string(first_poisson + 1) +
                   " is stated for add/remove-one neighbours (Poisson subsampling, truncated_gaussian, mixture) and "
                   "mechanism " + std::to_string(first_wor + 1) +
                   " for replace-one neighbours (sampling without or with replacement, sampling=poisson_replace_one, shuffle); guarantees about different "
                   "neighbouring relations do not compose. Use one sampling scheme for every entry, or account the "
                   "two parts separately: a replace-one change is two add/remove changes, so an add/remove (eps, "
                   "delta) guarantee of the Poisson part implies a replace-one (2 eps, (1 + e^eps) delta) guarantee "
                   "(group privacy of size 2), which basic composition adds to the replace-one part");
}

}  // namespace dpl
