// SPDX-License-Identifier: Apache-2.0
#include "proofs-check/run_statistics.h"

#include "accounting/errors.h"
#include "accounting/numeric/portable_distributions.h"
#include "accounting/numeric/portable_math.h"
#include "proofs-check/claim.h"

#include <cmath>

namespace dpl::proofs {

MeanEstimate mean_of(const std::vector<double>& values) {
  MeanEstimate m;
  m.runs = static_cast<int>(values.size());
  if (values.empty()) return m;
  for (double v : values) m.mean += v;
  m.mean /= static_cast<double>(values.size());
  if (values.size() > 1) {
    double ss = 0;
    for (double v : values) ss += (v - m.mean) * (v - m.mean);
    m.standard_error = std::sqrt(ss / static_cast<double>(values.size() - 1) / static_cast<double>(values.size()));
  }
  return m;
}

Side compare_to_bound(const MeanEstimate& m, double bound, double z) {
  if (m.mean + z * m.standard_error <= bound) return Side::below;
  if (m.mean - z * m.standard_error > bound) return Side::above;
  return Side::undecided;
}

Slope log_log_slope(const std::vector<double>& x, const std::vector<double>& y) {
  const std::size_t n = x.size();
  if (n < 2 || y.size() != n) throw NotApplicable("a log-log slope needs at least two points");
  double mx = 0, my = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (!(x[i] > 0) || !(y[i] > 0)) throw NotApplicable("a log-log slope needs positive values");
    mx += portable::binary64::log(x[i]);
    my += portable::binary64::log(y[i]);
  }
  mx /= static_cast<double>(n);
  my /= static_cast<double>(n);
  double sxx = 0, sxy = 0;
  for (std::size_t i = 0; i < n; ++i) {
    sxx += (portable::binary64::log(x[i]) - mx) * (portable::binary64::log(x[i]) - mx);
    sxy += (portable::binary64::log(x[i]) - mx) * (portable::binary64::log(y[i]) - my);
  }
  Slope s;
  s.slope = sxy / sxx;
  s.intercept = my - s.slope * mx;
  if (n > 2) {
    double rss = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const double r = portable::binary64::log(y[i]) - s.intercept - s.slope * portable::binary64::log(x[i]);
      rss += r * r;
    }
    s.standard_error = std::sqrt(rss / static_cast<double>(n - 2) / sxx);
  }
  return s;
}

ExponentInterval exponent_over_runs(const std::vector<double>& x, const std::vector<std::vector<double>>& y_per_run,
                                    double confidence) {
  if (y_per_run.size() < 2) throw NotApplicable("an exponent's interval needs at least two runs");
  if (!(confidence > 0 && confidence < 1)) throw NotApplicable("the confidence must be in (0, 1)");
  std::vector<double> slopes;
  for (const auto& y : y_per_run) slopes.push_back(log_log_slope(x, y).slope);
  const MeanEstimate m = mean_of(slopes);
  const double half =
      portable::student_t_upper_quantile(static_cast<double>(m.runs - 1), (1 - confidence) / 2) * m.standard_error;
  ExponentInterval e;
  e.slope = m.mean;
  e.lower = m.mean - half;
  e.upper = m.mean + half;
  e.confidence = confidence;
  e.runs = m.runs;
  return e;
}

std::string describe(const ExponentInterval& e) {
  return num(e.slope, 3) + " in [" + num(e.lower, 3) + ", " + num(e.upper, 3) + "] (" + num(100 * e.confidence, 3) +
         "% over " + std::to_string(e.runs) + " runs)";
}

std::string describe(const MeanEstimate& m, int digits) {
  return num(m.mean, digits) + " ± " + num(m.standard_error, 2);
}

}  // namespace dpl::proofs
