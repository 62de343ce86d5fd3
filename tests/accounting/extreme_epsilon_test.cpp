// SPDX-License-Identifier: Apache-2.0
// Mechanisms at an epsilon near the top of binary64 (permute_and_flip, exponential at eps=1e308): the automatic
// choice answers (a bound at or above the typed epsilon), and the PLD, whose loss range no grid can hold there,
// refuses with NotApplicable (exit 2 in the CLI) instead of failing inside its grid arithmetic.
#include "accounting/composition/compose.h"
#include "accounting/errors.h"
#include "accounting/numeric/decimal.h"

#include <gtest/gtest.h>

#include <string>

namespace dpl {
namespace {

TEST(ExtremeEpsilon, AutoAnswersAndThePldRefuses) {
  for (const std::string spec : {"permute_and_flip:eps=1e308", "exponential:eps=1e308"}) {
    const Ledger l{parse_entry(spec)};
    const AccountingResult r = compose(l, Target::for_delta(1e-5), AccountantKind::automatic);
    EXPECT_GE(hi(r.epsilon), 1e308) << spec;
    EXPECT_THROW((void)compose(l, Target::for_delta(1e-5), AccountantKind::pld), NotApplicable) << spec;
  }
}

}  // namespace
}  // namespace dpl
