#include "audit/whitebox_audit.h"

#include "accounting/errors.h"
#include "algorithms/run/algorithm_registry.h"
#include "audit/block_sampler.h"

#include <boost/math/distributions/normal.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <mutex>
#include <cmath>
#include <thread>

namespace dpl::audit {

namespace {

const std::vector<std::string> kSeed000 = {"admm-random-aggregation", "dsgd-random-aggregation",
                                           "dsgd-random-aggregation-minmax"};

double number(const algorithms::Json& j, const std::string& key, const std::string& what) {
  if (!j.contains(key) || !j.at(key).is_number())
    throw NotApplicable("audit " + what + ": the run reports no finite " + key +
                        (j.contains(key) ? " (" + j.at(key).dump() + ")" : "") +
                        " (noise off, or a diverged run): nothing to audit");
  return j.at(key).get<double>();
}

struct RunFigures {
  double loss = 0, claimed = 0, accountant = 0;
  std::optional<double> claimed_average, expected;
};

RunFigures one_run(const WhiteBoxPlan& plan, std::uint64_t i) {
  const auto& entry = algorithms::find_algorithm(plan.algorithm);
  const bool seed000 = std::find(kSeed000.begin(), kSeed000.end(), plan.algorithm) != kSeed000.end();
  std::vector<std::string> sets = plan.sets;
  if (seed000 && i > 0) sets.push_back("average_case=off");  // the expected loss once (run 0), not per run
  if (!seed000) {
    const bool has_agent = std::any_of(sets.begin(), sets.end(), [](const std::string& s) { return s.rfind("audit_agent=", 0) == 0; });
    if (!has_agent) sets.insert(sets.begin(), "audit_agent=0");
  }
  algorithms::RunParameters params = algorithms::RunParameters::from_assignments(sets);
  const algorithms::RunResult r = entry.run(params, block_seed(plan.seed, i));
  RunFigures f;
  const std::string what = plan.algorithm + " run " + std::to_string(i + 1);
  if (seed000) {
    f.loss = number(r.accounted, "realised_epsilon", what);
    f.accountant = number(r.accounted, "epsilon", what);
    f.claimed = number(r.claimed, "epsilon", what);
    if (r.claimed.contains("average_epsilon") && r.claimed["average_epsilon"].is_number())
      f.claimed_average = r.claimed["average_epsilon"].get<double>();
    if (r.accounted.contains("expected_epsilon") && r.accounted["expected_epsilon"].is_number())
      f.expected = r.accounted["expected_epsilon"].get<double>();
  } else {
    if (!r.extra.contains("coupled_audit")) throw NotApplicable("audit " + what + ": no coupled audit in the run");
    f.loss = number(r.extra["coupled_audit"], "realised_worst_case_loss", what);
    f.claimed = number(r.claimed, "epsilon", what);
    f.accountant = r.accounted.contains("epsilon") && r.accounted["epsilon"].is_number()
                       ? r.accounted["epsilon"].get<double>() : INFINITY;
  }
  return f;
}

}  // namespace

std::vector<std::string> known_density_algorithms() {
  auto v = kSeed000;
  v.push_back("wang-nedic");
  return v;
}

bool has_known_density(const std::string& a) {
  const auto v = known_density_algorithms();
  return std::find(v.begin(), v.end(), a) != v.end();
}

WhiteBoxResult whitebox_audit(const WhiteBoxPlan& plan, const std::function<void(std::uint64_t, std::uint64_t)>& progress) {
  (void)algorithms::find_algorithm(plan.algorithm);  // unknown names: InputError with the known ones
  if (!has_known_density(plan.algorithm))
    throw NotApplicable("audit " + plan.algorithm + ": no per-run privacy loss is known for it (white-box audits: " +
                        [] { std::string s; for (auto& a : known_density_algorithms()) s += (s.empty() ? "" : ", ") + a; return s; }() + ")");
  if (plan.runs < 1 || plan.runs > 1'000'000)
    throw InputError("--runs=" + std::to_string(plan.runs) + " is out of range for an algorithm: allowed [1, 1000000]");
  if (!(plan.confidence > 0 && plan.confidence < 1)) throw InputError("--confidence is out of range: allowed (0, 1)");
  const bool seed000 = std::find(kSeed000.begin(), kSeed000.end(), plan.algorithm) != kSeed000.end();

  // Run 0 first, alone: it validates the keys (an error surfaces before any parallel work) and gives the
  // one-off figures.
  std::vector<RunFigures> runs(plan.runs);
  runs[0] = one_run(plan, 0);
  std::atomic<std::uint64_t> next{1}, done{1};
  std::atomic<bool> failed{false};
  std::exception_ptr error;
  std::mutex error_mutex;
  auto work = [&] {
    for (std::uint64_t i; !failed && (i = next.fetch_add(1)) < plan.runs;) {
      try {
        runs[i] = one_run(plan, i);
      } catch (...) {
        std::lock_guard<std::mutex> lock(error_mutex);
        if (!error) error = std::current_exception();
        failed = true;
      }
      done.fetch_add(1);
    }
  };
  const unsigned threads = std::max(1u, std::min<unsigned>(plan.threads, 256));
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t) pool.emplace_back(work);
  if (progress) {
    while (done.load() < plan.runs && !failed) {
      progress(done.load(), plan.runs);
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  }
  for (auto& t : pool) t.join();
  if (error) std::rethrow_exception(error);
  if (progress) progress(plan.runs, plan.runs);

  WhiteBoxResult w;
  w.algorithm = plan.algorithm;
  w.loss_definition =
      seed000 ? "realised loss of the target agent's released coordinates against the worst neighbour within the "
                "declared shift, summed over steps and coordinates (Xiao 2019 Lemma 2.2.1 / Thm 2.2.1; "
                "accounting/gamma realised_run_loss form)"
              : "supremum over outputs of the Laplace log-likelihood ratio of the coupled pair f_i, f_i' replayed on "
                "the same received messages (Wang and Nedic, Definition 3 coupling; Sum_k ||delta^k||_1 / nu^k)";
  w.epsilon_claimed_min = INFINITY;
  double sum = 0, claimed_avg_sum = 0, range = 0;
  bool have_avg = true;
  for (const auto& f : runs) {
    w.losses.push_back(f.loss);
    w.claimed.push_back(f.claimed);
    w.epsilon_claimed = std::max(w.epsilon_claimed, f.claimed);
    w.epsilon_claimed_min = std::min(w.epsilon_claimed_min, f.claimed);
    w.epsilon_accountant = std::max(w.epsilon_accountant, f.accountant);
    if (f.claimed > 0) w.max_loss_over_claim = std::max(w.max_loss_over_claim, f.loss / f.claimed);
    // Each loss and claim is a double sum of many terms: a relative 1e-9 absorbs their rounding, so only a real
    // excess counts.
    w.runs_over_claim += f.loss > f.claimed * (1 + 1e-9);
    w.max_loss = std::max(w.max_loss, f.loss);
    sum += f.loss;
    range = std::max({range, f.accountant, f.claimed});
    if (f.claimed_average) claimed_avg_sum += *f.claimed_average; else have_avg = false;
  }
  const double n = static_cast<double>(plan.runs);
  w.mean_loss = sum / n;
  // Hoeffding (1963): P[|mean - E| >= t] <= 2 exp(-2 n t^2 / R^2) for losses in [0, R]; R = the largest a-priori
  // bound of a run (the worst case), or the observed maximum if none is finite (then the interval is indicative).
  if (!std::isfinite(range)) range = w.max_loss;
  w.range = range;
  const double half = range * std::sqrt(std::log(2 / (1 - plan.confidence)) / (2 * n));
  w.mean_lower = std::max(0.0, w.mean_loss - half);
  w.mean_upper = w.mean_loss + half;
  if (seed000 && have_avg) {
    w.claimed_average = claimed_avg_sum / n;
    double m = 0, m2 = 0;
    for (const auto& f : runs) m += f.loss - *f.claimed_average;
    m /= n;
    for (const auto& f : runs) m2 += (f.loss - *f.claimed_average - m) * (f.loss - *f.claimed_average - m);
    const double sd = plan.runs > 1 ? std::sqrt(m2 / (n - 1)) : INFINITY;
    const boost::math::normal z;
    w.average_gap = m;
    w.average_gap_halfwidth = boost::math::quantile(z, 1 - (1 - plan.confidence) / 2) * sd / std::sqrt(n);
  }
  if (seed000) w.accountant_expected = runs[0].expected;
  if (seed000) {  // mean over runs of loss_i / worst_i (the worst case varies with the run's graph)
    double g = 0;
    for (const auto& f : runs) g += f.accountant > 0 ? f.loss / f.accountant : 0;
    w.realised_gamma = g / n;
  }

  // Monte Carlo delta(eps) = E[(1 - e^{eps - L})_+] (the privacy-loss form of delta, e.g. Balle and Wang 2018
  // Thm 5), with a one-sided Hoeffding upper end (terms in [0, 1]); the pure accountant gives 0 for eps >= its
  // bound and is not informative below it (1 as an upper bound).
  const double top = std::max(w.max_loss, std::isfinite(w.epsilon_accountant) ? w.epsilon_accountant : 0.0);
  const double add = std::sqrt(std::log(1 / (1 - plan.confidence)) / (2 * n));
  for (int k = 0; k <= 20; ++k) {
    const double eps = top * k / 20;
    double s = 0;
    for (double l : w.losses) s += l > eps ? -std::expm1(eps - l) : 0.0;
    w.eps_grid.push_back(eps);
    w.delta_mc.push_back(s / n);
    w.delta_mc_upper.push_back(std::min(1.0, s / n + add));
    w.accountant_delta.push_back(eps >= w.epsilon_accountant ? 0.0 : 1.0);  // pure: 0 from the largest bound on
  }
  // Histogram: 30 equal bins on [0, max].
  const int bins = 30;
  const double hi = w.max_loss > 0 ? w.max_loss : 1;
  for (int b = 0; b <= bins; ++b) w.hist_edges.push_back(hi * b / bins);
  w.hist_counts.assign(bins, 0);
  for (double l : w.losses) ++w.hist_counts[std::min(bins - 1, static_cast<int>(l / hi * bins))];

  // Every run's loss is exact: one above its own claim is a certain violation of the claimed bound.
  w.verdict = w.runs_over_claim > 0 ? Verdict::violation : Verdict::pass;
  w.detectable_probability = -std::expm1(std::log1p(-plan.confidence) / n);
  return w;
}

}  // namespace dpl::audit
