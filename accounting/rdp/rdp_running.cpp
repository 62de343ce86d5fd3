#include "accounting/rdp/rdp_running.h"

#include "accounting/errors.h"
#include "accounting/mechanisms/ledger_file.h"
#include "accounting/rdp/rdp_conversion.h"
#include "accounting/rdp/rdp_curve.h"

#include <cmath>
#include <limits>
#include <map>

namespace dpl {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// a + b rounded up (the nearest double is within half an ulp, one step up is above the exact sum).
double add_up(double a, double b) {
  const double s = a + b;
  return std::isinf(s) ? s : std::nextafter(s, kInf);
}

// k * v rounded up, k >= 0 an integer (exact as a double up to 2^53; above, rounded up first).
double times_up(std::int64_t k, double v) {
  if (k == 0 || v == 0) return 0;
  double kd = static_cast<double>(k);
  if (static_cast<std::int64_t>(kd) < k) kd = std::nextafter(kd, kInf);
  const double p = kd * v;
  return std::isinf(p) ? p : std::nextafter(p, kInf);
}

}  // namespace

const std::vector<double>& rdp_running_orders() {
  // Integer orders only: their certified values are binomial sums (fast); fractional ones need the two-sided
  // series (milliseconds each), which a ledger of 10^4 distinct entries cannot afford.
  static const std::vector<double> orders = {2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16, 20, 24, 32, 48, 64, 96, 128, 256};
  return orders;
}

std::vector<Interval> rdp_running_epsilon(const Ledger& ledger, const std::vector<RunningCheckpoint>& checkpoints,
                                          double delta) {
  const auto& G = rdp_running_orders();
  // Per-step certified upper bounds of each distinct entry at each grid order.
  std::map<std::string, std::vector<double>> per_step;
  std::vector<const std::vector<double>*> entry_curve(ledger.size());
  for (std::size_t i = 0; i < ledger.size(); ++i) {
    LedgerEntry one = ledger[i];
    one.steps = 1;
    const std::string key = to_spec(one);
    auto it = per_step.find(key);
    if (it == per_step.end()) {
      const auto curve = make_rdp_curve(one);
      std::vector<double> v(G.size());
      for (std::size_t g = 0; g < G.size(); ++g) v[g] = hi_up(curve->certified_at(G[g]));
      it = per_step.emplace(key, std::move(v)).first;
    }
    entry_curve[i] = &it->second;
  }
  std::vector<Interval> out;
  out.reserve(checkpoints.size());
  std::vector<double> before(G.size(), 0.0);  // composed curve of the entries before the current one
  std::size_t current = 0;
  for (const auto& c : checkpoints) {
    while (current < c.entry) {
      for (std::size_t g = 0; g < G.size(); ++g)
        before[g] = add_up(before[g], times_up(ledger[current].steps, (*entry_curve[current])[g]));
      ++current;
    }
    double best = kInf;
    std::size_t best_g = 0;
    std::vector<double> r(G.size());
    for (std::size_t g = 0; g < G.size(); ++g) {
      r[g] = add_up(before[g], times_up(c.steps_in_entry, (*entry_curve[c.entry])[g]));
      if (!std::isfinite(r[g])) continue;
      const double e = rdp_to_epsilon_estimate(r[g], G[g], delta);
      if (e < best) {
        best = e;
        best_g = g;
      }
    }
    if (!std::isfinite(best)) {
      out.push_back(positive_infinity());
      continue;
    }
    out.push_back(rdp_to_epsilon(exact(r[best_g]), Real(G[best_g]), delta));
  }
  return out;
}

}  // namespace dpl
