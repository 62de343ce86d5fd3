// SPDX-License-Identifier: Apache-2.0
// Seed 003's privacy theorems exactly as printed (Cyffers, Bellet and Basu): linear RDP eps(alpha) = rho alpha,
// converted with the paper's Sec. 3.3 rule eps = eps(alpha) + ln(1/delta)/(alpha - 1) minimised over the orders
// the theorem allows; each with its validity conditions checked. These are the paper's CLAIMS (not certified;
// see the notes on why some fail), reported next to dpledger's accounting.
#pragma once

#include "algorithms/run/run_parameters.h"

#include <string>

namespace dpl::algorithms::seed003 {

struct PaperClaim {
  std::string theorem;
  double rho = 0;              // eps(alpha) = rho alpha
  double alpha_max = HUGE_VAL;  // largest order the theorem allows (HUGE_VAL: any alpha > 1)
  bool conditions_hold = true;
  std::string conditions;       // what was checked, with the values
  double epsilon = 0;           // the paper's conversion at the best allowed order
  double alpha = 0;
};

// Seed 003 Sec. 3.3: min over 1 < alpha <= alpha_max of rho alpha + ln(1/delta)/(alpha-1); the unconstrained
// minimiser is alpha* = 1 + sqrt(ln(1/delta)/rho) (eps = rho + 2 sqrt(rho ln(1/delta))). Fills epsilon, alpha.
void convert_paper(PaperClaim& c, double delta);

// Thm 2 (= Thm 8), centralized, record-level: rho = 8 K L^2 gamma^2/(sigma^2 n^2), gamma as printed in Alg. 2.
PaperClaim theorem2(std::int64_t K, double L_gamma, double sigma, int n, double delta);
// Thm 3 local (= Thm 9), user i against the server: rho = 8 K_i L^2 gamma^2/sigma^2.
PaperClaim theorem3_local(std::int64_t K_i, double L_gamma, double sigma, double delta);
// Thm 3 central (= Thm 10): rho = 16 K L^2 gamma^2/(sigma^2 n^2), valid for m < n/5, sigma >= 4 and
// alpha <= (M^2 sigma^2/2 - log(5 sigma^2))/(M + log(m alpha/n) + 1/(2 sigma^2)), M = log(1 + 1/((m/n)(alpha-1))),
// sigma as printed (the algorithm's noise std).
PaperClaim theorem3_central(std::int64_t K, double L_gamma, double sigma, int m, int n, double delta);
// Thm 4, decentralized network RDP: rho = 8 K_i L^2 gamma^2 ln n/(sigma^2 n), valid for
// sigma > 2 L gamma sqrt(alpha(alpha-1)).
PaperClaim theorem4(std::int64_t K_i, double L_gamma, double sigma, int n, double delta);

Json to_json(const PaperClaim& c);

}  // namespace dpl::algorithms::seed003
