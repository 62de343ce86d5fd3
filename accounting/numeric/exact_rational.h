// Exact rational arithmetic (GMP) for bounds that are rational functions of the binary64 inputs, so that an
// exact value such as 1/10 prints as "0.1" and not as the next decimal above its binary enclosure.
#pragma once

#include <boost/multiprecision/gmp.hpp>

#include <string>

namespace dpl {

using Rational = boost::multiprecision::mpq_rational;

// The exact value of a finite double.
Rational exact_rational(double x);
// x > 0 rounded up to `digits` significant decimal digits (exact: the printed decimal is >= x).
std::string format_up_rational(const Rational& x, int digits = 15);

}  // namespace dpl
