// SPDX-License-Identifier: Apache-2.0
// The mechanisms beyond the classic six hold a typed decimal that is not a double by the end that enlarges upper
// bounds only: their upper bounds hold for the decimal typed, and no certified lower bound is claimed for them
// (one computed at that end may exceed the value at the decimal typed).
#include "accounting/composition/compose.h"
#include "accounting/mechanisms/mechanism_spec.h"

#include <gtest/gtest.h>

#include <string>

namespace dpl {
namespace {

AccountingResult pld(const std::string& spec) {
  return compose(Ledger{parse_entry(spec)}, Target::for_delta(1e-5), AccountantKind::pld);
}

TEST(ExtendedTypedDecimals, NoLowerBoundWhenATypedValueIsNotADouble) {
  // a = 0.5 is a double: the PLD's sandwich stands.
  const AccountingResult exact = pld("discrete_laplace:a=0.5,steps=10");
  ASSERT_TRUE(exact.lower.has_value());
  EXPECT_LE(hi(*exact.lower), hi(exact.epsilon));
  // a = 0.3 is not: the upper bound is computed at the double above 0.3 (less noise), no lower bound is given.
  const AccountingResult typed = pld("discrete_laplace:a=0.3,steps=10");
  EXPECT_FALSE(typed.lower.has_value());
  EXPECT_NE(typed.note.find("no certified lower bound"), std::string::npos) << typed.note;
  EXPECT_TRUE(parse_entry("discrete_laplace:a=0.3").typed_without_other_ends);
  EXPECT_FALSE(parse_entry("discrete_laplace:a=0.5").typed_without_other_ends);
  // The classic mechanisms keep both ends and their lower bound.
  EXPECT_TRUE(pld("gaussian:sigma=0.8,steps=10").lower.has_value());
}

}  // namespace
}  // namespace dpl
