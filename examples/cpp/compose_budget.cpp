// SPDX-License-Identifier: Apache-2.0
// Composing a training run's privacy budget with the C++ library (dpledger::accounting): DP-SGD (Poisson rate
// 0.01, noise multiplier 1.1, 10,000 steps), then fine-tuning with less noise, at delta 1e-5. The same numbers as
//   dpledger compose -m gaussian:sigma=1.1,q=0.01,steps=10000 -m gaussian:sigma=0.9,q=0.02,steps=2000 --delta 1e-5
// (which picks the tightest accountant, here with --accountant rdp to stay fast).
#include <dpledger/accounting/composition/compose.h>
#include <dpledger/accounting/numeric/decimal.h>

#include <iostream>

int main() {
  // A ledger: one entry per mechanism spec, parsed as the command line parses -m (docs/cli.md).
  const dpl::Ledger ledger = {dpl::parse_entry("gaussian:sigma=1.1,q=0.01,steps=10000"),
                              dpl::parse_entry("gaussian:sigma=0.9,q=0.02,steps=2000")};
  const dpl::AccountingResult r = dpl::compose(ledger, dpl::Target::for_delta(1e-5), dpl::AccountantKind::rdp);
  // r.epsilon is an interval whose upper end is the certified bound: printed rounded up.
  std::cout << "epsilon " << dpl::format_upper(r.epsilon) << " at delta 1e-5 (" << r.accountant << ")\n";
  return 0;
}
