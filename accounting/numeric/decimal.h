// SPDX-License-Identifier: Apache-2.0
// Decimal printing of certified bounds, rounded in the safe direction (never to nearest).
#pragma once

#include "accounting/numeric/interval.h"

#include <string>

namespace dpl {

inline constexpr int kPrintDigits = 15;

// The upper endpoint of x, rounded up to `digits` significant digits ("inf" if unbounded).
std::string format_upper(const Interval& x, int digits = kPrintDigits);
// The lower endpoint of x, rounded down to `digits` significant digits.
std::string format_lower(const Interval& x, int digits = kPrintDigits);
// A real rounded up / down / to nearest.
std::string format_up(const Real& x, int digits = kPrintDigits);
std::string format_down(const Real& x, int digits = kPrintDigits);
std::string format_nearest(const Real& x, int digits = kPrintDigits);
// A double printed with up to 17 significant digits, shortest exact round trip (for echoing inputs); an exponent
// as typed (1e-5, 2e+20 as 2e20).
std::string format_input(double x);
// A printf %g decimal with its exponent as one writes it, without printf's sign and padding: 1e-05 -> 1e-5,
// 2.5e+20 -> 2.5e20.
std::string trim_exponent(std::string s);

// The shortest decimal whose smallest double above it is x (for echoing an eps or delta of a mechanism spec,
// which the spec parser rounds up: it reads back as x exactly).
std::string format_guarantee(double x);

// The shortest decimal whose largest double at or below it is x (for echoing a typed target such as --delta 1e-5,
// which the accountants receive as DecimalValue::down: it prints as typed, not as 9.999999999999999e-06).
std::string format_target(double x);

// A decimal typed by a user (e.g. --delta 1e-5), which is usually not a double: its enclosure and the doubles
// just below and just above it (all three equal when the decimal is a double), so that a bound can be computed at
// the double on the safe side of the number typed, not at the nearest double.
struct DecimalValue {
  Interval exact;   // encloses the decimal (degenerate when it is a double)
  double down;      // the largest double <= the decimal
  double up;        // the smallest double >= the decimal
  double nearest;   // strtod's double (for echoing)
};
// Throws std::invalid_argument if s is not a decimal number (is_decimal_literal).
DecimalValue decimal_value(const std::string& s);

// Whether s is a decimal number as people type it: an optional sign, digits with an optional decimal point (at
// least one digit), then optionally e or E, an optional sign and digits ("1.1", "-.5", "2e-3", "1E+06"). Not
// hexadecimal floats ("0x1p-3"), inf, nan, surrounding spaces or the other forms strtod also accepts.
bool is_decimal_literal(const std::string& s);

}  // namespace dpl
