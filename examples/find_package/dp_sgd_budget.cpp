// SPDX-License-Identifier: Apache-2.0
// The DP-SGD budget (Poisson rate 0.01, noise 1.1, 10,000 steps, delta 1e-5) through the installed library:
// the same certified RDP bound that `dpledger compose ... --accountant rdp` prints.
#include <dpledger/accounting/composition/compose.h>
#include <dpledger/accounting/numeric/decimal.h>

#include <iostream>

int main() {
  const dpl::Ledger ledger = {dpl::parse_entry("gaussian:sigma=1.1,q=0.01,steps=10000")};
  const dpl::AccountingResult r = dpl::compose(ledger, dpl::Target::for_delta(1e-5), dpl::AccountantKind::rdp);
  std::cout << "epsilon " << dpl::format_upper(r.epsilon) << " (" << r.accountant << ")\n";
  return 0;
}
