// SPDX-License-Identifier: Apache-2.0
#include "algorithms/seed003/paper_privacy_claims.h"

#include "accounting/numeric/portable_math.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace dpl::algorithms::seed003 {

namespace {

std::string num(double v) {
  std::ostringstream s;
  s.precision(6);
  s << v;
  return s.str();
}

// Seed 003 Thm 3 / Lemma C.1 order condition, as printed (q = m/n, sigma the printed noise).
bool theorem3_order_ok(double alpha, double q, double sigma) {
  const double M = portable::binary64::log(1 + 1 / (q * (alpha - 1)));
  const double s2 = sigma * sigma;
  const double den = M + portable::binary64::log(q * alpha) + 1 / (2 * s2);
  const double num_ = M * M * s2 / 2 - portable::binary64::log(5 * s2);
  if (den <= 0) return num_ >= 0;  // the bound is +inf (or no order) when the denominator is not positive
  return alpha <= num_ / den;
}

}  // namespace

// Seed 003 Sec. 3.3 conversion (RDP -> (eps, delta)), minimised over the allowed orders.
void convert_paper(PaperClaim& c, double delta) {
  const double log_inv = portable::binary64::log(1 / delta);
  if (!(c.rho > 0)) {
    c.epsilon = 0;
    c.alpha = HUGE_VAL;
    return;
  }
  const double best = 1 + std::sqrt(log_inv / c.rho);
  c.alpha = std::min(best, c.alpha_max);
  c.epsilon = c.alpha > 1 ? c.rho * c.alpha + log_inv / (c.alpha - 1) : HUGE_VAL;
}

PaperClaim theorem2(std::int64_t K, double L_gamma, double sigma, int n, double delta) {
  PaperClaim c;
  c.theorem = "Cyffers, Bellet and Basu 2023 Theorem 2 (= Thm 8): eps(alpha) = 8 alpha K L^2 gamma^2/(sigma^2 n^2), record-level, gamma "
              "read as Algorithm 2's prox step";
  c.rho = 8.0 * static_cast<double>(K) * L_gamma * L_gamma / (sigma * sigma * n * n);
  c.conditions = "alpha > 1 (none other)";
  convert_paper(c, delta);
  return c;
}

PaperClaim theorem3_local(std::int64_t K_i, double L_gamma, double sigma, double delta) {
  PaperClaim c;
  c.theorem = "Cyffers, Bellet and Basu 2023 Theorem 3 local (= Thm 9): eps(alpha) = 8 alpha K_i L^2 gamma^2/sigma^2, user-level, "
              "against the server";
  c.rho = 8.0 * static_cast<double>(K_i) * L_gamma * L_gamma / (sigma * sigma);
  c.conditions = "alpha > 1; K_i = " + std::to_string(K_i) + " (the most participations of any user in this run)";
  convert_paper(c, delta);
  return c;
}

PaperClaim theorem3_central(std::int64_t K, double L_gamma, double sigma, int m, int n, double delta) {
  PaperClaim c;
  c.theorem = "Cyffers, Bellet and Basu 2023 Theorem 3 central (= Thm 10): eps(alpha) = 16 alpha K L^2 gamma^2/(sigma^2 n^2), user-level, "
              "third party seeing the model";
  c.rho = 16.0 * static_cast<double>(K) * L_gamma * L_gamma / (sigma * sigma * n * n);
  const double q = static_cast<double>(m) / n;
  const bool m_ok = 5.0 * m < n, sigma_ok = sigma >= 4;
  // Largest allowed order: the condition holds near alpha = 1 and fails for large alpha; scan then bisect.
  double lo = 1, hi = 0;
  for (double a = 1 + 1e-6; a < 1e7; a *= 1.05) {
    if (theorem3_order_ok(a, q, sigma)) lo = a;
    else if (lo > 1) { hi = a; break; }
  }
  if (lo > 1 && hi > 0)
    for (int it = 0; it < 100; ++it) {
      const double mid = 0.5 * (lo + hi);
      (theorem3_order_ok(mid, q, sigma) ? lo : hi) = mid;
    }
  const bool order_ok = lo > 1;
  c.alpha_max = order_ok ? (hi > 0 ? lo : HUGE_VAL) : 1;
  c.conditions_hold = m_ok && sigma_ok && order_ok;
  c.conditions = std::string("m < n/5: ") + (m_ok ? "yes" : "NO") + " (m=" + std::to_string(m) + ", n=" +
                 std::to_string(n) + "); sigma >= 4: " + (sigma_ok ? "yes" : "NO") + " (sigma=" + num(sigma) +
                 "); order cap alpha <= " + (order_ok ? num(c.alpha_max) : std::string("none allowed"));
  convert_paper(c, delta);
  return c;
}

PaperClaim theorem4(std::int64_t K_i, double L_gamma, double sigma, int n, double delta) {
  PaperClaim c;
  c.theorem = "Cyffers, Bellet and Basu 2023 Theorem 4: eps(alpha) = 8 alpha K_i L^2 gamma^2 ln n/(sigma^2 n), network RDP on the complete "
              "graph";
  c.rho = 8.0 * static_cast<double>(K_i) * L_gamma * L_gamma * portable::binary64::log(n) / (sigma * sigma * n);
  // sigma > 2 L gamma sqrt(alpha(alpha-1))  <=>  alpha < (1 + sqrt(1 + sigma^2/(L gamma)^2))/2.
  const double r = sigma / L_gamma;
  c.alpha_max = 0.5 * (1 + std::sqrt(1 + r * r));
  c.conditions = "alpha < " + num(c.alpha_max) + " (sigma > 2 L gamma sqrt(alpha(alpha-1))); K_i = " +
                 std::to_string(K_i) + " (the most contributions of any user in this run)";
  convert_paper(c, delta);
  return c;
}

Json to_json(const PaperClaim& c) {
  Json j = Json::object();
  j["epsilon"] = std::isfinite(c.epsilon) ? Json(c.epsilon) : Json("inf");
  j["alpha"] = std::isfinite(c.alpha) ? Json(c.alpha) : Json("inf");
  j["rdp_slope"] = c.rho;
  j["conditions_hold"] = c.conditions_hold;
  j["conditions"] = c.conditions;
  j["source"] = c.theorem + "; converted by the paper's rule eps(alpha) + ln(1/delta)/(alpha-1)";
  return j;
}

}  // namespace dpl::algorithms::seed003
