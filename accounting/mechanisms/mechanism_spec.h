// SPDX-License-Identifier: Apache-2.0
// Mechanism specifications `NAME:key=value,...` (docs/cli.md): parsing and validation into a ledger
// entry. Validation happens here, once, at the boundary; accountants may assume valid entries.
#pragma once

#include <compare>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace dpl {

enum class MechanismKind {
  gaussian, laplace, rr, pure, approx, iteration,
  // The mechanisms of accounting/mechanisms/extended_mechanisms.h (docs/mechanisms.md).
  discrete_gaussian, discrete_laplace, zcdp, exponential, permute_and_flip, tree, mixture, truncated_gaussian,
  wr_gaussian, select, shuffle
};
// poisson: Poisson subsampling compared under add/remove-one neighbours; wor: sampling without replacement under
// replace-one; poisson_replace_one: Poisson subsampling under replace-one (a record's contribution replaced; Gaussian
// only, analysed by the PLD accountant).
enum class Sampling { none, poisson, wor, poisson_replace_one };
// The spec suffix of a sampling scheme other than the default Poisson one (",sampling=wor"), empty for poisson/none.
std::string sampling_suffix(Sampling s);

std::string to_string(MechanismKind k);
std::string to_string(Sampling s);

struct LedgerEntry;

// The parameters of the mechanisms beyond the first six (accounting/mechanisms/extended_mechanisms.h); all zero or
// empty for the others.
struct ExtendedParameters {
  std::int64_t dim = 0;                  // discrete_gaussian: output dimension (0: unknown)
  double a = 0;                          // discrete_laplace: noise parameter (pmf proportional to e^{-a|x|})
  double p = 0;                          // rr in dp_accounting's form: probability of a uniformly random output
  std::int64_t k = 0;                    // rr in dp_accounting's form: number of buckets (0: the eps form)
  double rho = 0, xi = 0;                // zcdp: (xi, rho)-zCDP
  std::int64_t leaves = 0;               // tree: steps of the (largest) tree
  std::vector<double> sensitivities;     // mixture: the support of the sensitivity
  std::vector<double> probabilities;     // mixture: its probabilities (sum 1)
  double q = 0;                          // truncated_gaussian: Poisson sampling probability
  std::int64_t batch = 0;                // truncated_gaussian: largest batch; wr_gaussian: sample size
  std::int64_t n = 0;                    // truncated_gaussian, wr_gaussian: dataset size; shuffle: users
  double mean = 0, shape = 0;            // select: mean and shape of the number of repetitions
  std::shared_ptr<const std::vector<LedgerEntry>> run;  // select: the ledger of one run
  auto operator<=>(const ExtendedParameters&) const = default;
};

// One mechanism's own parameters (what is released in one step).
struct Mechanism {
  MechanismKind kind = MechanismKind::gaussian;
  double sigma = 0;                // gaussian, iteration: noise standard deviation
  double sens = 1;                 // gaussian (L2), laplace (L1), iteration (per-step L2 sensitivity)
  double b = 0;                    // laplace scale
  double eps = 0;                  // rr, pure, approx
  double delta = 0;                // approx
  std::int64_t iterations = 1;     // iteration: number of steps T of the noisy iteration
  std::int64_t index = 1;          // iteration: 1-based step at which the record is used
  double contraction = 1;          // iteration: contraction factor of the map, in (0, 1]
  ExtendedParameters x;            // the parameters of the other mechanisms
};

// A ledger line: a mechanism, optionally subsampled, composed `steps` times.
//
// A typed decimal that is not a double (sigma=0.8, q=256/60000) is held as its enclosure by the doubles just below
// and just above it: the fields hold the ends that make every privacy bound largest (sigma and b rounded down;
// sens, eps, delta, contraction and q rounded up), so an accountant computing an upper bound from the fields
// bounds the mechanism typed; `optimistic` holds the other ends, for certified lower bounds (optimistic_entry).
struct LedgerEntry {
  Mechanism mechanism;
  std::int64_t steps = 1;
  double q = 1;                      // sampling probability (poisson) or ratio (wor); 1 = no sampling
  Sampling sampling = Sampling::none;
  bool subsampled() const { return sampling != Sampling::none; }
  // The other ends of the enclosures (sigma and b rounded up; sens, eps, delta, contraction and q down), set by
  // the spec parser when some typed value is not a double; unset: every field is exact.
  struct OtherEnds {
    Mechanism mechanism;
    double q = 1;
  };
  std::optional<OtherEnds> optimistic;
  // Set by the parser of the mechanisms beyond the classic six when a typed value is not a double: its fields hold
  // the ends that enlarge upper bounds, and no other ends are kept, so no certified lower bound is given for it.
  bool typed_without_other_ends = false;
};

using Ledger = std::vector<LedgerEntry>;

// The entry at the optimistic ends of its enclosures (the least privacy loss the typed values allow), for lower
// bounds; the entry itself when its values are exact. A ledger likewise.
LedgerEntry optimistic_entry(const LedgerEntry& e);
Ledger optimistic_ledger(const Ledger& ledger);
// Whether some entry has an enclosure that is not a single double.
bool has_typed_enclosures(const Ledger& ledger);

// The raw key=value pairs of a spec, before typing; a value may be "?" when `allow_unknown`.
struct RawSpec {
  std::string text;
  std::string name;
  std::vector<std::pair<std::string, std::string>> params;
  // The key whose value is "?", if any.
  std::optional<std::string> unknown_key() const;
};

// Splits and checks syntax, names and keys; throws InputError naming the spec and the problem.
RawSpec parse_raw_spec(const std::string& text, bool allow_unknown = false);
// Types and validates every value; `substitute` replaces the value of the "?" key (an exact double). Every
// numeric value must be a decimal literal (decimal.h: no hexadecimal, inf or nan) and is read exactly: its
// enclosure by doubles is kept (LedgerEntry). DP-SGD's vocabulary: noise_multiplier (= sigma, with sens 1),
// sample_rate (= q), q=B/N (an exact fraction of two integers), batch_size=B with dataset_size=N (q = B/N) and
// epochs=E with both (steps = ceil(E N / B)).
LedgerEntry build_entry(const RawSpec& raw, std::optional<double> substitute = std::nullopt);
// parse_raw_spec + build_entry, no "?" allowed.
LedgerEntry parse_entry(const std::string& text);

// Checks an entry built in code (not parsed) against the same ranges as build_entry; throws InputError naming the
// mechanism, the field, the value and the allowed range. compose() calls it on every entry.
void validate_entry(const LedgerEntry& e);

// The allowed keys of a mechanism name (for --help, completion and error messages), aliases included.
std::vector<std::string> allowed_keys(MechanismKind kind);
// The parameter a key names: sigma for its alias noise_multiplier, q for sample_rate, the key itself otherwise.
std::string canonical_key(const std::string& key);
// Whether a larger value of the parameter (a canonical key) means more privacy (sigma, b), so that the spec parser
// reads it at the double below the decimal typed; every other parameter is read at the double above.
bool more_is_more_private(const std::string& key);
// The shortest decimal that the spec parser reads back as exactly `value` for this key (canonical): for sigma and b
// at least value (its double below is value), for the others at most value (its double above is value). For
// echoing an entry's fields and printing calibrated values: typed back, they give the same entry, never a more
// private one.
std::string spec_decimal(const std::string& key, double value);
// Every mechanism kind, in the order of docs/cli.md (for --help and shell completion).
const std::vector<MechanismKind>& all_mechanism_kinds();

}  // namespace dpl
