#include "cli/output.h"

#include "accounting/numeric/decimal.h"

#include <cmath>
#include <cstdlib>

namespace dpl::cli {

namespace {
// The decimal string is already rounded in the safe direction; the double nearest to a 15-digit decimal
// prints back as that same decimal (15 <= DBL_DIG), so the JSON text is the directed-rounded decimal.
Json number_or_inf(const std::string& s) {
  if (s == "inf" || s == "-inf" || s == "nan") return s;
  return std::strtod(s.c_str(), nullptr);
}
}  // namespace

Json json_upper(const Interval& x) { return number_or_inf(format_upper(x)); }
Json json_lower(const Interval& x) { return number_or_inf(format_lower(x)); }
Json json_decimal(const std::string& s) { return number_or_inf(s); }
Json json_input(double x) {
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  return x;
}

GlobalOptions& global_options() {
  static GlobalOptions g;
  return g;
}

}  // namespace dpl::cli
