// SPDX-License-Identifier: Apache-2.0
#include "proofs-check/registry.h"

#include "accounting/errors.h"

#include <chrono>
#include <exception>

namespace dpl::proofs {

const std::vector<Claim>& all_claims() {
  static const std::vector<Claim> claims = [] {
    std::vector<Claim> all;
    for (auto part : {paper_000_claims, paper_001_claims, paper_002_claims, paper_003_claims, paper_004_claims})
      for (auto& c : part()) all.push_back(std::move(c));
    return all;
  }();
  return claims;
}

const Claim& find_claim(const std::string& id) {
  for (const auto& c : all_claims())
    if (c.id == id) return c;
  throw InputError("CLAIM=" + id + " is not a known claim id: see `dpledger check --list`");
}

std::vector<Claim> select_claims(const std::vector<std::string>& selectors) {
  if (selectors.empty()) return all_claims();
  std::vector<Claim> out;
  for (const auto& s : selectors) {
    const std::string paper = s.back() == '/' ? s.substr(0, s.size() - 1) : s;
    bool matched = false;
    for (const auto& c : all_claims()) {
      if (c.id == s || paper_of(c.id) == paper) {
        matched = true;
        bool seen = false;
        for (const auto& o : out) seen = seen || o.id == c.id;
        if (!seen) out.push_back(c);
      }
    }
    if (!matched)
      throw InputError("CLAIM=" + s + " matches no claim: allowed a claim id (see --list) or a paper 000..004");
  }
  return out;
}

std::vector<CheckedClaim> run_claims(const std::vector<Claim>& claims, const CheckContext& context,
                                     const std::function<void(std::size_t, std::size_t, const std::string&)>& progress) {
  std::vector<CheckedClaim> out;
  for (std::size_t i = 0; i < claims.size(); ++i) {
    if (progress) progress(i, claims.size(), claims[i].id);
    const auto start = std::chrono::steady_clock::now();
    CheckedClaim cc{claims[i], {}, 0};
    for (const auto& [key, value] : context.overrides) {
      bool known = false;
      for (const auto& c : claims[i].constants) known = known || c.substr(0, c.find('=')) == key;
      if (!known)
        throw InputError("--set " + key + ": " + claims[i].id + " has no claimed constant of that name (allowed: " +
                         [&] { std::string s; for (const auto& c : claims[i].constants) s += (s.empty() ? "" : ", ") + c; return s.empty() ? std::string("none") : s; }() + ")");
    }
    try {
      cc.result = claims[i].check(context);
    } catch (const std::exception& e) {
      cc.result = ClaimResult{};
      cc.result.status = Status::inconclusive;
      cc.result.note = std::string("the check could not be completed: ") + e.what();
    }
    cc.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    out.push_back(std::move(cc));
  }
  return out;
}

}  // namespace dpl::proofs
