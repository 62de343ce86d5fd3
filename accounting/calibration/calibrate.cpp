// SPDX-License-Identifier: Apache-2.0
#include "accounting/calibration/calibrate.h"

#include "accounting/composition/compose.h"
#include "accounting/errors.h"
#include "accounting/mechanisms/analytic_gaussian.h"
#include "accounting/numeric/certified_threshold.h"
#include "accounting/numeric/decimal.h"
#include "accounting/numeric/portable_math.h"
#include "accounting/pld/pld_accountant.h"
#include "accounting/pld/pld_work_budget.h"
#include "accounting/rdp/rdp_accountant.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <limits>
#include <optional>

namespace dpl {

namespace {

struct Problem {
  std::vector<RawSpec> raws;
  std::size_t unknown = 0;
  std::string key;        // the parameter (canonical_key: sigma for noise_multiplier, q for sample_rate)
  std::string typed_key;  // the key as typed
  Real epsilon;  // the lower end of the target's enclosure: meeting it meets the decimal typed
  double delta;
  AccountantKind accountant;
  // Searches under pld on this fixed grid without the lower bound: each evaluation is still a certified upper
  // bound, costs about half a full PLD run, and is continuous in the parameter (no grid changes). The answer is
  // certified again by the full accountant (certify_final).
  std::optional<double> pld_grid;
  // The direction whose bound the last fixed-grid run reported: the next run composes it on the fine grid first.
  mutable std::optional<PairDirection> worse_direction;
  const ProgressCallback* progress = nullptr;
  // What the user asked for: under auto a PLD evaluation that reaches the work limit stops the search (the best
  // certified answer found so far is returned); under pld the calibration refuses.
  AccountantKind requested = AccountantKind::automatic;
  // The best value certified by a full accountant run so far (what compose of it reports), for that stop.
  mutable std::optional<std::pair<double, AccountingResult>> best_full;
  // Under optimal, a ledger of unsampled Gaussians at every value (composed_gaussian_mu): the search decides
  // "meets" by one certified evaluation of the analytic profile at the target epsilon instead of an epsilon search.
  bool gaussian_profile = false;
};

// The CPU time this thread has used, in nanoseconds (a library caller's other threads do not count).
double thread_cpu_ns() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return 1e9 * static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec);
}

// Thrown by evaluate when a PLD run reached its work limit during an auto calibration.
struct SearchStopped {
  std::string reason;
};

// "epsilon E at delta D" as typed (format_target prints the decimal whose safe-side double the search uses).
std::string target_text(const Problem& p) {
  return "epsilon " + format_target(lo_down(make_interval(p.epsilon, p.epsilon))) + " at delta " +
         format_target(p.delta);
}

// Smallest-value parameters: more of them means more privacy.
bool is_smallest(const std::string& key) { return more_is_more_private(canonical_key(key)); }

Ledger ledger_at(const Problem& p, double v) {
  Ledger l;
  for (std::size_t i = 0; i < p.raws.size(); ++i)
    l.push_back(i == p.unknown ? build_entry(p.raws[i], v) : build_entry(p.raws[i]));
  return l;
}

struct Eval {
  bool meets;      // certified: epsilon upper bound <= target
  double excess;   // epsilon_upper - target (for the Illinois step); +inf when the accountant cannot tell
  std::optional<AccountingResult> result;
  bool full = true;  // from the full accountant (what compose reports), not a fixed-grid search evaluation
};

// search: under pld with p.pld_grid set, the fixed-grid evaluation; otherwise (and always when !search) the
// accountant exactly as compose runs it.
Eval evaluate(const Problem& p, double v, int& count, bool search = true) {
  ++count;
  if (p.progress && *p.progress)
    (*p.progress)(-1, "evaluation " + std::to_string(count) + ": " + p.key + " = " + format_input(v));
  const bool fixed_grid = search && p.pld_grid &&
                          (p.accountant == AccountantKind::pld || p.accountant == AccountantKind::automatic);
  try {
    if (search && p.gaussian_profile) {
      // The composed Gaussian meets the target iff delta(eps_target) <= delta (Balle and Wang 2018, Thm 8; the
      // profile is non-increasing): certified by one long-double enclosure (MPFR where it cannot decide); the
      // excess, which only aims the next step, from the long-double epsilon. The answer is certified again by the
      // full accountant (full = false).
      const auto mu = composed_gaussian_mu(ledger_at(p, v));
      if (mu) {
        const bool ok = analytic_gaussian_delta_at_most(*mu, p.epsilon, p.delta) == Verdict::yes;
        const auto estimate = analytic_gaussian_epsilon_estimate(mid_double(*mu), p.delta);
        const double target = p.epsilon.convert_to<double>();
        double ex = estimate ? *estimate - target : std::numeric_limits<double>::infinity();
        // Keep the sign the certified check gave (the estimate may disagree within its error).
        if (ok && !(ex <= 0)) ex = -0.0;
        if (!ok && !(ex > 0)) ex = std::numeric_limits<double>::min();
        return {ok, ex, std::nullopt, false};
      }
    }
    if (search && p.accountant == AccountantKind::rdp) {
      // A value whose float64 RDP estimate is clearly above the target does not meet it (the certified bound is
      // at least the estimate at the same orders, up to float64 error): it is reported as not meeting without the
      // MPFR certification, which costs 5-150 ms per new curve. Sound either way: only values reported as meeting
      // must be certified, and a wrong "no" could only make the answer less tight.
      const double estimate = rdp_epsilon_estimate(ledger_at(p, v), p.delta);
      const double target = p.epsilon.convert_to<double>();
      if (estimate > target * (1 + 1e-6) + 1e-12) return {false, estimate - target, std::nullopt, true};
    }
    // A calibration never reports a lower bound: the PLD's optimistic pass (a quarter of a run) is skipped. Its
    // upper bound does not depend on that pass, so the final certification is still what compose prints.
    PldOptions pld;
    pld.lower = false;
    PairDirection worse = PairDirection::remove;
    if (fixed_grid) {
      pld.grid = *p.pld_grid, pld.refine = false;
      pld.fine_first = p.worse_direction;
      pld.worse = &worse;
    }
    // (Calibration ledgers are built by the spec parser, so they are validated already.)
    AccountingResult r = compose_with_pld_options(ledger_at(p, v), Target::for_delta(p.delta), p.accountant, pld);
    // Under auto the fixed grid matters only where the PLD won: another winner's bound is its full accountant's.
    const bool full = !(fixed_grid && r.accountant == "pld");
    if (!full) p.worse_direction = worse;
    const Real up = hi(r.epsilon);
    const bool ok = up <= p.epsilon;
    if (ok && full &&
        (!p.best_full || (is_smallest(p.key) ? v < p.best_full->first : v > p.best_full->first)))
      p.best_full = std::make_pair(v, r);
    const double ex = is_finite(r.epsilon) ? (up - p.epsilon).convert_to<double>()
                                           : std::numeric_limits<double>::infinity();
    return {ok, ex, std::move(r), full};
  } catch (const PldWorkLimit& e) {
    if (p.requested == AccountantKind::automatic) throw SearchStopped{e.what()};
    throw NotApplicable(std::string("calibrate: ") + e.what() + "; use --accountant rdp or auto");
  } catch (const NotApplicable&) {
    // E.g. the summed delta of a candidate exceeds the target: that candidate does not meet it.
    return {false, std::numeric_limits<double>::infinity(), std::nullopt, !fixed_grid};
  }
}

// A certified lower bound on the epsilon, at the target delta, of the entries other than the unknown (nullopt
// when there are none or no accountant bounds them from below within a small work limit). Post-processing: the
// other entries' outputs are a function of the whole ledger's, so the whole ledger's epsilon(delta) is at least
// theirs for every value of the unknown; above the target, no value can meet it.
std::optional<Real> others_lower_bound(const Problem& p) {
  Ledger others;
  for (std::size_t i = 0; i < p.raws.size(); ++i)
    if (i != p.unknown) others.push_back(build_entry(p.raws[i]));
  if (others.empty()) return std::nullopt;
  PldWorkScope limit(kPldWorkPerFeasibilityCheck, "the feasibility check");
  std::optional<Real> best;
  for (auto k : {AccountantKind::optimal, AccountantKind::pld}) {
    try {
      const AccountingResult r = compose(others, Target::for_delta(p.delta), k);
      if (r.lower && (!best || lo(*r.lower) > *best)) best = lo(*r.lower);
    } catch (const NotApplicable&) {  // not applicable or over the limit: no bound from this accountant
    }
  }
  return best;
}

// The value the spec parser gives a decimal typed for this parameter: the double below it for the smallest-value
// parameters (sigma, b), the double above it for the others (mechanism_spec.h), never the nearest.
double as_parsed(const std::string& decimal, bool smallest) {
  const DecimalValue d = decimal_value(decimal);
  return smallest ? d.down : d.up;
}

// The shortest decimal (4 to 17 significant digits) obtained by rounding v towards the safe side (up for the
// smallest-value parameters, down for the others) that `accept` takes, as the double the spec parser reads it as
// (so the decimal printed for the answer, typed back, is the value certified); nullopt when none does.
// v itself counts as a decimal of `digits` digits when that decimal is read as v (3.8128573 is the double just
// below the decimal; rounding it up would give 3.8128574, a needless further evaluation).
template <typename Accept>
std::optional<double> shortest_safe_decimal(double v, bool smallest, const Accept& accept) {
  for (int digits = 4; digits <= 17; ++digits) {
    char nearest[40];
    std::snprintf(nearest, sizeof nearest, "%.*g", digits, v);
    // The decimal is read as v only if it lies within one binary64 step of v on the parsed side, so its nearest
    // double (strtod, correctly rounded) is v or that neighbour: checked before the exact (MPFR) reading.
    const double n = std::strtod(nearest, nullptr);
    const double beside = std::nextafter(v, smallest ? std::numeric_limits<double>::infinity()
                                                     : -std::numeric_limits<double>::infinity());
    if ((n == v || n == beside) && accept(v) && as_parsed(nearest, smallest) == v) return v;
    const std::string text = smallest ? format_up(Real(v), digits) : format_down(Real(v), digits);
    const double d = as_parsed(text, smallest);
    if (accept(d)) return d;
  }
  return std::nullopt;
}

struct Bracket {
  double yes = 0, no = 0;
  Eval at_yes{}, at_no{};
};

// Domain and bracket under p.accountant: `yes` meets the target (certified), `no` does not (yes == no when the
// domain end q = 1 meets it). Throws NotApplicable when no value in the domain meets the target.
Bracket find_bracket(const Problem& p, bool smallest, bool integer, int& count) {
  // The outward search multiplies by 2, 2, 4, 16, 256, ... (the factor squares after each step up to 1e16), so
  // the whole double range is crossed in about a dozen evaluations; the narrowing works in log(v).
  double factor = 1;
  auto grow = [](double& f) {
    f = f < 2 ? 2 : std::min(f * f, 1e16);
    return f;
  };
  double yes = 0, no = 0;
  Eval at_yes{}, at_no{};
  // From a value that fails towards the most private end of the domain: the end is evaluated first (when even it
  // fails, no value does, and the dozen probes in between are saved), then `first` and values moved by the growing
  // factor, the end's evaluation reused when they reach it.
  auto towards_private_end = [&](double first, double end, const std::string& refusal) {
    const Eval at_end = evaluate(p, end, count);
    if (!at_end.meets) throw NotApplicable(refusal);
    for (double v = first;;) {
      Eval f = v == end ? at_end : evaluate(p, v, count);
      if (f.meets) {
        yes = v, at_yes = std::move(f);
        return;
      }
      no = v, at_no = std::move(f);
      v = end < v ? std::max(end, v / grow(factor)) : std::min(end, v * grow(factor));
    }
  };
  if (p.key == "q") {
    at_yes = evaluate(p, 1.0, count);
    if (at_yes.meets) {
      yes = 1.0;
      no = 1.0;
    } else {
      no = 1.0, at_no = at_yes;
      towards_private_end(0.5, 1e-300, "calibrate: no q in (0, 1] meets " + target_text(p));
    }
  } else if (integer) {
    at_yes = evaluate(p, 1.0, count);
    if (!at_yes.meets) throw NotApplicable("calibrate: even steps=1 does not meet " + target_text(p));
    yes = 1;
    double v = 2;
    for (;;) {
      Eval e = evaluate(p, v, count);
      if (!e.meets) { no = v, at_no = e; break; }
      yes = v, at_yes = e;
      if (v == 4e15) throw NotApplicable("calibrate: every steps up to 4e15 meets the target; the answer is unbounded");
      v = std::min(4e15, std::floor(v * grow(factor)));
    }
  } else if (smallest) {
    double v = 1.0;
    Eval e = evaluate(p, v, count);
    if (e.meets) {
      yes = v, at_yes = e;
      for (;;) {
        if (v == 1e-300) throw NotApplicable("calibrate: every " + p.key + " down to 1e-300 meets the target; the answer is 0");
        v = std::max(1e-300, v / grow(factor));
        Eval f = evaluate(p, v, count);
        if (!f.meets) { no = v, at_no = f; break; }
        yes = v, at_yes = f;
      }
    } else {
      no = v, at_no = e;
      towards_private_end(std::min(1e300, v * grow(factor)), 1e300,
                          "calibrate: no " + p.key + " meets " + target_text(p) + " under this accountant");
    }
  } else {  // eps: the largest
    double v = 1.0;
    Eval e = evaluate(p, v, count);
    if (e.meets) {
      yes = v, at_yes = e;
      for (;;) {
        if (v == 1e6) throw NotApplicable("calibrate: every eps up to 1e6 meets the target; the answer is unbounded");
        v = std::min(1e6, v * grow(factor));
        Eval f = evaluate(p, v, count);
        if (!f.meets) { no = v, at_no = f; break; }
        yes = v, at_yes = f;
      }
    } else {
      no = v, at_no = e;
      towards_private_end(std::max(1e-300, v / grow(factor)), 1e-300, "calibrate: no eps > 0 meets the target");
    }
  }

  return {yes, no, std::move(at_yes), std::move(at_no)};
}

// From a value `yes` certified under p.accountant, the nearest value that is not, searched outwards in steps
// that grow geometrically (1%, 2%, 4%, ... of the value): a bracket near `yes` in few evaluations.
// `slope`, when finite: an estimate of d excess / d log(v) (e.g. from the cheap rdp accountant), for a first
// Newton step aimed just beyond the crossing instead of the fixed 1%.
Bracket bracket_outwards(const Problem& p, bool smallest, bool integer, double yes, Eval at_yes, int& count,
                         double slope = std::numeric_limits<double>::quiet_NaN()) {
  const bool is_q = p.key == "q";
  std::optional<std::pair<double, double>> previous;  // (log v, excess) of the last value that met
  double first = 0.01;
  if (std::isfinite(slope) && slope != 0 && std::isfinite(at_yes.excess)) {
    const double newton = std::abs(at_yes.excess / slope);  // |log(v*) - log(yes)|, estimated
    first = std::clamp(portable::binary64::expm1(1.03 * newton) + 5e-4, 5e-4, 0.5);
  }
  for (double step = first; step < 1e300; step *= 2) {
    double v = smallest ? yes / (1 + step) : yes * (1 + step);
    // Secant estimate of the crossing from the last two values that met (excess < 0 there), aimed 0.5% beyond.
    if (previous && std::isfinite(at_yes.excess) && at_yes.excess != previous->second) {
      const double ly = portable::binary64::log(yes);
      const double s = ly - at_yes.excess * (ly - previous->first) / (at_yes.excess - previous->second);
      const double est = portable::binary64::exp(s) * (smallest ? 0.995 : 1.005);
      if (smallest ? est < yes : est > yes) v = smallest ? std::max(est, yes / (1 + step)) : std::min(est, yes * (1 + step));
    }
    previous = std::make_pair(portable::binary64::log(yes), at_yes.excess);
    if (integer) v = std::max(yes + 1, std::ceil(v));
    if (is_q && v >= 1) v = 1;
    if (v > 4e15 && integer) break;
    if (v < 1e-300 || v > 1e300) break;
    Eval e = evaluate(p, v, count);
    if (!e.meets) return {yes, v, std::move(at_yes), std::move(e)};
    yes = v, at_yes = std::move(e);
    if (is_q && v == 1) return {1.0, 1.0, at_yes, at_yes};
  }
  throw NotApplicable("calibrate: the search left the domain of " + p.key);
}

}  // namespace


CalibrationResult calibrate(const std::vector<std::string>& specs, const Interval& epsilon_target, double delta,
                            AccountantKind accountant, double rel_tol, const ProgressCallback& progress) {
  if (!(rel_tol >= 0 && rel_tol < 0.1)) throw InputError("--tolerance=" + format_input(rel_tol) + " is out of range: allowed [0, 0.1) (0 = automatic)");
  Problem p;
  p.epsilon = lo(epsilon_target);
  p.delta = delta;
  p.accountant = p.requested = accountant;
  int unknowns = 0;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    p.raws.push_back(parse_raw_spec(specs[i], true));
    if (auto k = p.raws.back().unknown_key()) {
      ++unknowns;
      p.unknown = i;
      p.typed_key = *k;
      p.key = canonical_key(*k);
    }
  }
  if (unknowns != 1)
    throw InputError("-m: exactly one value must be written '?' (found " + std::to_string(unknowns) + ")");
  const std::string& name = p.raws[p.unknown].name;
  // a: the discrete Laplace parameter (larger a is less noise, as larger eps is less privacy).
  if (!(p.key == "sigma" || p.key == "b" || p.key == "steps" || p.key == "q" || p.key == "eps" || p.key == "a"))
    throw InputError("-m " + specs[p.unknown] + ": '" + p.typed_key + "=?' cannot be calibrated (allowed: sigma, b, "
                     "steps, q, eps, a, noise_multiplier, sample_rate)");
  if (name == "iteration" && p.key != "sigma")
    throw InputError("-m " + specs[p.unknown] + ": only sigma=? can be calibrated for an iteration mechanism");

  const bool smallest = is_smallest(p.key);
  const bool integer = p.key == "steps";
  int count = 0;
  // Whether every value gives a ledger of unsampled Gaussians (probed at three values of the parameter).
  auto gaussian_profile_applies = [&p] {
    try {
      for (const double probe : {0.5, 1.0, 2.0})
        if (!composed_gaussian_mu(ledger_at(p, probe))) return false;
    } catch (const InputError&) {
      return false;
    }
    return true;
  };
  p.gaussian_profile = accountant == AccountantKind::optimal && gaussian_profile_applies();
  // The PLD runs of the search and the final certification share one work limit (the search leaves a reserve).
  std::optional<PldWorkScope> work;
  work.emplace(kPldWorkPerCalibration - kPldCertificationReserve, "the calibration's PLD search");
  if (accountant == AccountantKind::pld) {
    // Whether the PLD applies to these mechanisms at all (sampling=wor, iteration, ...) does not depend on the
    // value: asked at a probe value before any search (it ran rdp's search for seconds, then said that no value
    // meets the target).
    for (const auto& e : ledger_at(p, p.key == "q" ? 0.5 : 1.0)) (void)loss_pair(e, PairDirection::remove);
  }
  if (accountant != AccountantKind::rdp) {
    // An infeasible target is refused before any search (under auto the search would run the PLD over the
    // whole domain to find that no value meets it).
    if (const auto others = others_lower_bound(p); others && *others > p.epsilon)
      throw NotApplicable("calibrate: no " + p.key + " meets " + target_text(p) +
                          ": the other mechanisms alone have epsilon >= " +
                          format_down(*others, 6) + " (certified lower bound), and adding a mechanism never lowers it");
  }
  double fraction = 0;  // progress: bracketing up to 0.3, narrowing to 0.9, the final certification after
  ProgressCallback report;
  if (progress) {
    report = [&](double, const std::string& detail) { progress(fraction, detail); };
    p.progress = &report;
  }
  std::optional<CalibrationResult> cheap;  // rdp's certified answer, first under auto and pld
  try {
  Bracket br;
  bool bracketed = false;
  if (p.accountant == AccountantKind::automatic || p.accountant == AccountantKind::pld) {
    // auto and pld: locate the answer with the cheap rdp accountant first (its answer is certified), run the
    // requested accountant once there and, if it meets the target, bracket outwards from it with the
    // accountant that won: the expensive accountants run a few times near the answer, not over the whole domain.
    // The first outward step is a Newton step on rdp's slope of epsilon in log(v) (the curves are alike).
    const double rdp_start = thread_cpu_ns();
    try {
      // To 1%: only where the search starts (each rdp value costs up to 0.6 s for a subsampled Laplace).
      cheap = calibrate(specs, epsilon_target, delta, AccountantKind::rdp, integer ? 0.0 : 1e-2);
      count += cheap->evaluations;
    } catch (const NotApplicable&) {
    }
    // rdp's CPU time (in work units: nanoseconds) counts against the PLD's work, found or not.
    work->set_limit(work->limit() - (thread_cpu_ns() - rdp_start));
    if (cheap) {
      fraction = 0.1;
      auto pick_grid = [&] {
        try {
          p.pld_grid = pld_fine_grid(ledger_at(p, cheap->value), Target::for_delta(p.delta));
        } catch (const NotApplicable&) {  // the full accountant's own coarsening: no fixed grid
        }
      };
      // pld: already the fixed-grid search at the rdp answer; auto: every accountant once (the PLD on that fixed
      // grid, without its lower-bound pass), to see which wins.
      pick_grid();
      Eval e = evaluate(p, cheap->value, count);
      if (e.meets && e.result) {
        // A split ledger ("rdp+pld", composition/split_composition.h) stays with auto, which splits it again.
        if (e.result->accountant.find('+') == std::string::npos) {
          p.accountant = parse_accountant(e.result->accountant);
          p.gaussian_profile = p.accountant == AccountantKind::optimal && gaussian_profile_applies();
        }
        if (p.accountant == AccountantKind::pld && !p.pld_grid) pick_grid();
        double slope = std::numeric_limits<double>::quiet_NaN();
        const double v0 = cheap->value;
        const double v1 = integer ? std::max(v0 + 1, std::round(v0 * 1.01)) : v0 * (smallest ? 1 / 1.01 : 1.01);
        if (!(p.key == "q" && v1 > 1)) {
          try {  // rdp's float64 estimates (the slope only aims the first step)
            slope = (rdp_epsilon_estimate(ledger_at(p, v1), p.delta) - rdp_epsilon_estimate(ledger_at(p, v0), p.delta)) /
                    portable::binary64::log(v1 / v0);
          } catch (const NotApplicable&) {
          }
        }
        if (p.pld_grid && std::isfinite(slope) && slope != 0 && std::isfinite(e.excess)) {
          // The grid the full accountant picks near the answer (its probe is cheap; the grid changes in steps
          // of 1/16 of an octave of the loss range), estimated by the same Newton step, so that the final
          // certification usually runs on the grid searched.
          const double step = std::abs(e.excess / slope);
          double v_est = smallest ? v0 * portable::binary64::exp(-step) : v0 * portable::binary64::exp(step);
          if (integer) v_est = std::round(v_est);
          if (p.key == "q") v_est = std::min(v_est, 1.0);
          try {
            p.pld_grid = pld_fine_grid(ledger_at(p, v_est), Target::for_delta(p.delta));
          } catch (const NotApplicable&) {
          }
        }
        fraction = 0.15;
        br = bracket_outwards(p, smallest, integer, cheap->value, std::move(e), count, slope);
        bracketed = true;
      }
    }
  }
  if (!bracketed) {
    p.pld_grid.reset();  // a search over the whole domain: the full accountant at every value
    br = find_bracket(p, smallest, integer, count);
  }
  fraction = 0.3;
  double yes = br.yes, no = br.no;
  Eval at_yes = std::move(br.at_yes), at_no = std::move(br.at_no);

  // With `auto`, the bracket ends ran every accountant; the narrowing runs only the one that won at the `yes`
  // end (the tightest there), so each evaluation costs one accountant. Its answers are certified like any other.
  if (p.accountant == AccountantKind::automatic && at_yes.result && at_yes.result->accountant.find('+') == std::string::npos) {
    p.accountant = parse_accountant(at_yes.result->accountant);
    p.gaussian_profile = p.accountant == AccountantKind::optimal && gaussian_profile_applies();
  }

  // Narrow [no, yes]: integers by bisection, reals by the Illinois method on excess(v) in log(v) (the excess is
  // smooth in log v for noise scales), falling back to bisection whenever the step is not inside the bracket.
  const double width0 = std::abs(portable::binary64::log(std::max(yes, no) / std::min(yes, no)));
  auto narrowed = [&](double a, double b) {
    const double w = std::abs(portable::binary64::log(std::max(a, b) / std::min(a, b)));
    fraction = 0.3 + 0.6 * std::clamp(portable::binary64::log(width0 / w) / portable::binary64::log(width0 / std::max(rel_tol, 1e-12)), 0.0, 1.0);
  };
  if (integer) {
    double lo = yes, hi = no;  // lo meets, hi does not
    double f_lo = at_yes.excess, f_hi = at_no.excess;
    bool interpolate = true;
    while (hi - lo > 1) {
      // Secant in log(steps) on the excess (epsilon is smooth in the step count), alternating with bisection
      // whenever a secant step lands at the bracket's edge; integers strictly inside the bracket.
      double mid = hi > 4 * lo ? std::floor(std::sqrt(lo * hi)) : std::floor((lo + hi) / 2);  // geometric when wide
      if (interpolate && std::isfinite(f_lo) && std::isfinite(f_hi) && f_hi != f_lo) {
        const double s = portable::binary64::exp(portable::binary64::log(lo) - f_lo * (portable::binary64::log(hi) - portable::binary64::log(lo)) / (f_hi - f_lo));
        // Strictly inside the bracket: an estimate that rounds onto an end probes its neighbour instead.
        if (std::isfinite(s)) mid = std::clamp(std::round(s), lo + 1, hi - 1);
      }
      narrowed(lo, hi);
      // A value next to the failing end closes the bracket if it meets: the full accountant evaluates it at once,
      // so the final certification has nothing left to do (one PLD run fewer).
      Eval e = evaluate(p, mid, count, mid != hi - 1);
      const bool edge = mid == lo + 1 || mid == hi - 1;
      if (e.meets) lo = mid, f_lo = e.excess, at_yes = e; else hi = mid, f_hi = e.excess, at_no = e;
      interpolate = !edge || !interpolate;
      // After a secant step that moved one end only by one, probe the other side of the estimate.
      if (hi - lo > 1 && edge && e.meets && lo + 1 < hi) {
        Eval g = evaluate(p, lo + 1, count);
        if (g.meets) lo = lo + 1, f_lo = g.excess, at_yes = g; else { hi = lo + 1, f_hi = g.excess, at_no = g; }
      } else if (hi - lo > 1 && edge && !e.meets && hi - 1 > lo) {
        Eval g = evaluate(p, hi - 1, count, false);
        if (g.meets) { lo = hi - 1, f_lo = g.excess, at_yes = g; } else hi = hi - 1, f_hi = g.excess, at_no = g;
      }
    }
    yes = lo, no = hi;
  } else if (yes != no) {
    if (rel_tol == 0) {
      // Automatic (calibrate.h): closed-form accountants to a few ulps, rdp below its own accuracy, pld to the
      // relative movement of its answers between neighbouring grids.
      // (A search evaluation of the analytic profile carries no result: its accountant is the one requested.)
      const std::string acc = at_yes.result ? at_yes.result->accountant : to_string(p.accountant);
      rel_tol = acc == "rdp" ? kAutomaticToleranceRdp
                             : (acc == "pld" ? kAutomaticTolerancePld : kAutomaticToleranceClosedForm);
    }
    double fy = at_yes.excess, fn = at_no.excess;
    int side = 0;
    // The last three (log v, excess) pairs evaluated, unweighted, for inverse quadratic interpolation.
    std::vector<std::pair<double, double>> recent;
    auto remember = [&](double v, double excess) {
      if (!std::isfinite(excess)) return;
      recent.emplace_back(portable::binary64::log(v), excess);
      if (recent.size() > 3) recent.erase(recent.begin());
    };
    remember(no, at_no.excess);
    remember(yes, at_yes.excess);
    for (int it = 0; it < 200 && std::abs(yes - no) > rel_tol * std::abs(yes); ++it) {
      const double ly = portable::binary64::log(yes), ln = portable::binary64::log(no);
      double lm = 0.5 * (ly + ln);
      if (std::isfinite(fy) && std::isfinite(fn) && fy != fn) {
        const double s = ly - fy * (ln - ly) / (fn - fy);
        if (s > std::min(ly, ln) && s < std::max(ly, ln)) lm = s;
      }
      // With three points, inverse quadratic interpolation (Brent 1973, ch. 4) follows the excess's curvature in
      // log v: the estimate then lands within ~1e-7 after one or two steps where the (Illinois) secant takes
      // three or four. Used only strictly inside the bracket; the secant above otherwise.
      bool interpolated = false;
      if (recent.size() == 3) {
        const auto [x0, f0] = recent[0];
        const auto [x1, f1] = recent[1];
        const auto [x2, f2] = recent[2];
        if (f0 != f1 && f0 != f2 && f1 != f2) {
          const double s = x0 * f1 * f2 / ((f0 - f1) * (f0 - f2)) + x1 * f0 * f2 / ((f1 - f0) * (f1 - f2)) +
                           x2 * f0 * f1 / ((f2 - f0) * (f2 - f1));
          if (std::isfinite(s) && s > std::min(ly, ln) && s < std::max(ly, ln)) lm = s, interpolated = true;
        }
      }
      // A step that would move an end by less than a third of the tolerance goes that third (towards the other
      // end): when the estimate sits at the threshold, the next value lands across it and closes the bracket. After
      // an interpolation (accurate to ~1e-9 there) a tenth: the bracket then closes ten times narrower, so the
      // answer, rounded inside it, is that much tighter.
      const double push = rel_tol / (interpolated ? 10 : 3);
      bool closing = false;  // an interpolated estimate at the failing end: this value should close the bracket
      if (std::abs(ln - ly) > 2 * push) {
        if (std::abs(lm - ly) < push) lm = ly + std::copysign(push, ln - ly);
        else if (std::abs(lm - ln) < push) lm = ln + std::copysign(push, ly - ln), closing = interpolated;
      }
      double m = portable::binary64::exp(lm);
      if (!(m > std::min(yes, no) && m < std::max(yes, no))) m = 0.5 * (yes + no), closing = false;
      if (!(m > std::min(yes, no) && m < std::max(yes, no))) break;  // no double left in between
      // The shortest safe decimal from m to `far`, strictly inside the bracket (nullopt when there is none).
      auto decimal_towards = [&](double far) {
        const double low = std::min(far, m), high = std::max(far, m);
        return shortest_safe_decimal(m, smallest, [&](double x) {
          return x >= low && x <= high && x > std::min(yes, no) && x < std::max(yes, no);
        });
      };
      if (closing) {
        // The value that closes the bracket is, if it meets, the answer: the shortest decimal between it and half
        // the tolerance further on the safe side is evaluated by the full accountant at once (the final rounding
        // then has nothing left to certify), one PLD run fewer.
        m = decimal_towards(portable::binary64::exp(ln + std::copysign(rel_tol / 2, ly - ln))).value_or(m);
      }
      // An interpolated estimate inside the bracket (accurate to ~1e-9 once three points are known) is expected to
      // meet by a hair: the shortest decimal within a twentieth of the tolerance on its safe side is evaluated by
      // the full accountant instead. If it meets it is the answer's candidate, already certified (the final
      // rounding keeps it and re-certifies nothing), and the push of a tenth of the tolerance from it towards the
      // failing end still crosses the threshold: one PLD run fewer. If it does not, it narrows the bracket as
      // the estimate would have.
      bool yes_closing = false;
      if (interpolated && !closing)
        if (const auto d = decimal_towards(portable::binary64::exp(lm + std::copysign(rel_tol / 20, ly - ln))))
          m = *d, yes_closing = true;
      narrowed(yes, no);
      Eval e = evaluate(p, m, count, !closing && !yes_closing);
      remember(m, e.excess);
      if (e.meets) {
        yes = m, at_yes = e, fy = e.excess;
        if (side == 1) fn /= 2;  // Illinois: the other end stayed twice, halve its weight
        side = 1;
      } else {
        no = m, at_no = e, fn = e.excess;
        if (side == -1) fy /= 2;
        side = -1;
      }
    }
  }

  // Round the answer in the safe direction to the shortest decimal inside the bracket, and re-certify it with
  // the full accountant (exactly what compose runs).
  fraction = 0.9;
  const double left = kPldWorkPerCalibration - work->used();
  work.reset();
  work.emplace(std::min(kPldWorkPerRun, left), "the calibration's final certification");
  const double slope = std::isfinite(at_yes.excess) && std::isfinite(at_no.excess) && yes != no
                           ? (at_yes.excess - at_no.excess) / (portable::binary64::log(yes) - portable::binary64::log(no))
                           : std::numeric_limits<double>::quiet_NaN();  // d excess / d log(v) near the answer
  double answer = yes, candidate = yes;
  std::optional<Eval> failed;  // the full accountant's evaluation of `candidate`, which did not meet
  if (!integer && yes != no) {
    const auto d = shortest_safe_decimal(yes, smallest, [&](double x) {
      return smallest ? (x >= yes && x < yes + (yes - no)) : (x <= yes && x > yes - (no - yes));
    });
    if (d && !(*d == yes && at_yes.full)) {  // a closing value equal to yes is certified by the full accountant
      Eval e = evaluate(p, *d, count, false);
      if (e.meets) answer = *d, at_yes = std::move(e);
      else candidate = *d, failed = std::move(e);  // d is on the safe side of yes: yes fails too
    }
  }
  // A search on a fixed PLD grid: its `yes` is certified on that grid; the full accountant (which picks its own
  // grid, so its answer may differ by ~1e-6) certifies the answer. Where it does not meet, Newton steps on the
  // excess (the search's slope, 1.5x, doubling on each further failure) move outwards in the safe direction.
  for (int attempt = 0; !at_yes.full; ++attempt) {
    if (attempt > 40) throw NotApplicable("calibrate: the search's answer could not be certified by the full '" +
                                          to_string(p.accountant) + "' accountant");
    if (failed) {
      double move = std::isfinite(slope) && slope != 0 && std::isfinite(failed->excess)
                        ? 1.5 * failed->excess / std::abs(slope) : 0;
      move = std::max(move, 1e-9) * std::ldexp(1.0, attempt > 1 ? attempt - 1 : 0);
      no = candidate;
      candidate = smallest ? candidate * portable::binary64::exp(move) : candidate * portable::binary64::exp(-move);
      if (integer) candidate = std::min(no - 1, std::floor(candidate));
      if (integer && candidate < 1) throw NotApplicable("calibrate: even steps=1 does not meet the target");
    }
    Eval e = evaluate(p, candidate, count, false);
    if (e.meets) answer = candidate, at_yes = std::move(e);
    else failed = std::move(e);
  }
  CalibrationResult r{p.typed_key, smallest, answer, no, ledger_at(p, answer), *at_yes.result, count, integer ? 0.0 : rel_tol};
  return r;
  } catch (const SearchStopped& stop) {
    // auto: a PLD run reached the work limit. The best value certified so far by a full accountant run (or
    // rdp's answer) is returned: certified, possibly less tight than the PLD could make it.
    const bool full_better = p.best_full && (!cheap || (smallest ? p.best_full->first < cheap->value
                                                                  : p.best_full->first > cheap->value));
    if (!full_better && !cheap)
      throw NotApplicable("calibrate: " + stop.reason + ", before any value was certified; use --accountant rdp");
    CalibrationResult r = full_better ? CalibrationResult{p.typed_key, smallest, p.best_full->first, p.best_full->first,
                                                          ledger_at(p, p.best_full->first), p.best_full->second,
                                                          count, 0.0}
                                      : *cheap;
    r.evaluations = count;
    r.at_value.note += "; the PLD search stopped at its work limit (" + stop.reason +
                       "), so this is the best certified value found, not the tightest";
    return r;
  }
}

}  // namespace dpl
