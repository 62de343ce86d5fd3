// SPDX-License-Identifier: Apache-2.0
#include "proofs-check/claim.h"

#include "accounting/numeric/decimal.h"

#include <cmath>
#include <cstdio>

namespace dpl::proofs {

std::string to_string(Status s) {
  switch (s) {
    case Status::holds: return "holds";
    case Status::fails: return "fails";
    case Status::fails_as_printed: return "fails as printed";
    case Status::inconclusive: return "inconclusive";
  }
  return "inconclusive";
}

std::string to_string(ClaimKind k) {
  switch (k) {
    case ClaimKind::privacy: return "privacy";
    case ClaimKind::utility: return "utility";
    case ClaimKind::convergence: return "convergence";
    case ClaimKind::lemma: return "lemma";
    case ClaimKind::proof_step: return "proof step";
    case ClaimKind::experiment: return "experiment";
  }
  return "lemma";
}

std::string to_string(Method m) {
  switch (m) {
    case Method::certified: return "certified";
    case Method::search: return "search";
    case Method::simulation: return "simulation";
    case Method::enumeration: return "enumeration";
    case Method::derivation: return "derivation";
  }
  return "search";
}

double CheckContext::constant(const std::string& key, double printed) const {
  const auto it = overrides.find(key);
  return it == overrides.end() ? printed : it->second;
}

std::string paper_of(const std::string& id) { return id.substr(0, id.find('/')); }

std::string paper_citation(const std::string& paper) {
  if (paper == "000") return "H. Xiao, \"Local Differential Privacy in Decentralized Optimization\" (MIT S.M. thesis, 2019)";
  if (paper == "001")
    return "Y. Wang, A. Nedic, \"Differentially-Private Distributed Optimization with Guaranteed Optimality\"";
  if (paper == "002") return "X. Zhang, M. M. Khalili, M. Liu, \"Recycled ADMM: Improve Privacy and Accuracy with Less Computation in Distributed Algorithms\"";
  if (paper == "003")
    return "E. Cyffers, A. Bellet, D. Basu, \"From Noisy Fixed-Point Iterations to Private ADMM for Centralized and "
           "Federated Learning\"";
  if (paper == "004")
    return "C. Liu, K. H. Johansson, Y. Shi, \"Privacy Amplification via Node Sampling for Distributed Empirical Risk "
           "Minimization\"";
  return "unknown paper " + paper;
}

std::string paper_short(const std::string& paper) {
  if (paper == "000") return "Xiao 2019, LDP in decentralized optimization";
  if (paper == "001") return "Wang and Nedic, DP distributed optimization with guaranteed optimality";
  if (paper == "002") return "Zhang, Khalili and Liu, Recycled ADMM";
  if (paper == "003") return "Cyffers, Bellet and Basu, noisy fixed-point iterations to private ADMM";
  if (paper == "004") return "Liu, Johansson and Shi, privacy amplification via node sampling";
  return "unknown paper " + paper;
}

std::string source_of(const Claim& c) { return paper_citation(paper_of(c.id)) + ", " + c.location; }

std::string num(double x, int digits) {
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  if (std::isnan(x)) return "nan";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", digits, x);
  return trim_exponent(buf);
}

}  // namespace dpl::proofs
