// SPDX-License-Identifier: Apache-2.0
#include "accounting/numeric/exact_rational.h"

#include "accounting/numeric/decimal.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <stdexcept>

namespace dpl {

using boost::multiprecision::mpz_int;

Rational exact_rational(double x) {
  if (!std::isfinite(x)) throw std::invalid_argument("internal: exact_rational of a non-finite double");
  int e = 0;
  const double m = std::frexp(x, &e);  // x = m 2^e, |m| in [0.5, 1)
  const auto mant = static_cast<long long>(std::ldexp(m, 53));
  Rational r{mpz_int(mant)};
  const int shift = e - 53;
  if (shift >= 0) r *= Rational(mpz_int(1) << shift);
  else r /= Rational(mpz_int(1) << -shift);
  return r;
}

std::optional<Rational> decimal_rational(const std::string& s, int max_exp10) {
  if (!is_decimal_literal(s)) return std::nullopt;
  std::size_t i = 0;
  const bool negative = s[0] == '-';
  if (s[0] == '-' || s[0] == '+') ++i;
  std::string digits;  // every mantissa digit; value = digits * 10^(exponent - fraction)
  long long fraction = 0;
  bool after_point = false;
  for (; i < s.size() && s[i] != 'e' && s[i] != 'E'; ++i) {
    if (s[i] == '.') {
      after_point = true;
      continue;
    }
    digits += s[i];
    fraction += after_point;
  }
  long long exponent = 0;
  if (i < s.size()) {
    ++i;
    const bool exp_negative = s[i] == '-';
    if (s[i] == '-' || s[i] == '+') ++i;
    for (; i < s.size(); ++i) exponent = std::min(exponent * 10 + (s[i] - '0'), 1'000'000'000'000LL);  // saturates
    if (exp_negative) exponent = -exponent;
  }
  const auto first = digits.find_first_not_of('0');
  if (first == std::string::npos) return Rational(0);
  digits.erase(0, first);
  const long long e = exponent - fraction;  // value = digits * 10^e
  const long long magnitude = static_cast<long long>(digits.size()) - 1 + e;  // 10^magnitude <= |value| < 10^(magnitude+1)
  if (magnitude >= max_exp10 || magnitude < -max_exp10) return std::nullopt;
  const mpz_int mant(digits);
  const mpz_int scale = boost::multiprecision::pow(mpz_int(10), static_cast<unsigned>(std::llabs(e)));
  Rational r = e >= 0 ? Rational(mant * scale) : Rational(mant, scale);
  return negative ? Rational(-r) : r;
}

std::string format_up_rational(const Rational& x, int digits) {
  if (x == 0) return "0";
  if (x < 0) throw std::invalid_argument("internal: format_up_rational needs x >= 0");
  // e with 10^e <= x < 10^{e+1}: first from the bit lengths (x may lie far outside the double range, where a
  // double estimate would be inf or 0), then corrected exactly.
  const auto num = boost::multiprecision::numerator(x), den = boost::multiprecision::denominator(x);
  const long long bits = static_cast<long long>(boost::multiprecision::msb(num)) -
                         static_cast<long long>(boost::multiprecision::msb(den));  // x in [2^(bits-1), 2^(bits+1))
  int e = static_cast<int>(std::floor(static_cast<double>(bits) * 0.30102999566398120));
  auto pow10 = [](int k) {
    const mpz_int p = boost::multiprecision::pow(mpz_int(10), static_cast<unsigned>(std::abs(k)));
    return k >= 0 ? Rational(p) : Rational(mpz_int(1), p);
  };
  while (pow10(e) > x) --e;
  while (pow10(e + 1) <= x) ++e;
  const int s = digits - 1 - e;  // x * 10^s has `digits` integer digits
  const Rational scaled = x * pow10(s);
  mpz_int n = boost::multiprecision::numerator(scaled) / boost::multiprecision::denominator(scaled);
  if (Rational(n) < scaled) n += 1;  // ceiling
  std::string d = n.str();
  int point = static_cast<int>(d.size()) - s;  // digits before the point: value = n * 10^{-s}
  // Like printf's %g (as the interval printer): an exponent outside [-4, digits) is written in scientific form.
  const int exponent = point - 1;
  const bool scientific = exponent < -4 || exponent >= digits;
  if (scientific) point = 1;
  std::string out;
  if (point <= 0) out = "0." + std::string(-point, '0') + d;
  else if (point >= static_cast<int>(d.size())) out = d + std::string(point - d.size(), '0');
  else out = d.substr(0, point) + "." + d.substr(point);
  if (out.find('.') != std::string::npos) {
    while (out.back() == '0') out.pop_back();
    if (out.back() == '.') out.pop_back();
  }
  if (scientific) {
    const std::string mag = std::to_string(std::abs(exponent));
    out += std::string(exponent < 0 ? "e-" : "e+") + (mag.size() < 2 ? "0" : "") + mag;
  }
  return out;
}

}  // namespace dpl
