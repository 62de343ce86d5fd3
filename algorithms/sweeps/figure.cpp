// SPDX-License-Identifier: Apache-2.0
#include "algorithms/sweeps/figure.h"

#include "accounting/errors.h"
#include "accounting/numeric/portable_math.h"

#include <cmath>
#include <iomanip>
#include <set>
#include <sstream>

namespace dpl::algorithms::sweeps {

void CurveAverage::add(const std::vector<double>& y) {
  if (y.size() != x_.size())
    throw InputError("curve " + name_ + ": " + std::to_string(y.size()) + " values for " + std::to_string(x_.size()) +
                     " points");
  runs_.push_back(y);
}

Curve CurveAverage::curve(bool dashed) const {
  Curve c;
  c.name = name_;
  c.x = x_;
  c.dashed = dashed;
  c.seeds = static_cast<int>(runs_.size());
  c.mean.assign(x_.size(), 0.0);
  c.sd.assign(x_.size(), 0.0);
  if (runs_.empty()) return c;
  const double n = static_cast<double>(runs_.size());
  for (std::size_t i = 0; i < x_.size(); ++i) {
    double m = 0;
    for (const auto& r : runs_) m += r[i] / n;
    double v = 0;
    for (const auto& r : runs_) v += (r[i] - m) * (r[i] - m);
    c.mean[i] = m;
    c.sd[i] = runs_.size() > 1 ? std::sqrt(v / (n - 1)) : 0.0;
  }
  return c;
}

std::string figure_number(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

std::string figure_csv(const Figure& f) {
  std::ostringstream s;
  s << std::setprecision(10);
  auto quote = [](const std::string& v) {
    if (v.find_first_of(",\"") == std::string::npos) return v;
    std::string q = "\"";
    for (char c : v) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
  };
  s << "panel,curve,x,mean,sd,seeds\n";
  for (const auto& p : f.panels) {
    for (const auto& c : p.curves)
      for (std::size_t i = 0; i < c.x.size(); ++i)
        s << quote(p.title) << "," << quote(c.name) << "," << c.x[i] << "," << c.mean[i] << "," << c.sd[i] << ","
          << c.seeds << "\n";
    for (const auto& r : p.references) s << quote(p.title) << "," << quote("reference: " + r.label) << ",," << r.y << ",0,\n";
  }
  return s.str();
}

std::vector<double> log_grid(std::int64_t T, int points) {
  std::set<std::int64_t> g{1, T};
  for (int k = 0; k <= points; ++k)
    g.insert(std::max<std::int64_t>(
        1, static_cast<std::int64_t>(std::llround(portable::pow(static_cast<double>(T), static_cast<double>(k) / points)))));
  return std::vector<double>(g.begin(), g.end());
}

}  // namespace dpl::algorithms::sweeps
