// SPDX-License-Identifier: Apache-2.0
// Exact rational arithmetic (GMP) for bounds that are rational functions of the binary64 inputs, so that an
// exact value such as 1/10 prints as "0.1" and not as the next decimal above its binary enclosure.
#pragma once

#include <boost/multiprecision/gmp.hpp>

#include <optional>
#include <string>

namespace dpl {

using Rational = boost::multiprecision::mpq_rational;

// The exact value of a finite double.
Rational exact_rational(double x);
// The exact value of a decimal literal (is_decimal_literal, decimal.h) whose magnitude is 0 or within
// [10^-max_exp10, 10^max_exp10); nullopt for any other string (so a huge exponent never builds a huge number).
std::optional<Rational> decimal_rational(const std::string& s, int max_exp10 = 30);
// x > 0 rounded up to `digits` significant decimal digits (exact: the printed decimal is >= x).
std::string format_up_rational(const Rational& x, int digits = 15);

}  // namespace dpl
