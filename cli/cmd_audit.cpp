// SPDX-License-Identifier: Apache-2.0
// `dpledger audit`: empirical lower bounds on epsilon (and Gaussian-DP mu) against the claimed upper bounds, for
// the built-in mechanisms, for users' own outputs (--samples) and programs (--exec), and merged shards (`audit merge
// FILES...`).
#include "accounting/errors.h"
#include "accounting/input_file.h"
#include "accounting/numeric/decimal.h"
#include "algorithms/run/algorithm_registry.h"
#include "algorithms/run/assignments.h"
#include "algorithms/run/json_safe.h"
#include "audit/algorithm_audit.h"
#include "audit/audit_svg.h"
#include "audit/canary_score_audit.h"
#include "audit/exec_samples.h"
#include "audit/mechanism_target.h"
#include "audit/privacy_curve_audit.h"
#include "audit/algorithm_shard_file.h"
#include "audit/shard_file.h"
#include "audit/threshold_test.h"
#include "audit/user_samples.h"
#include "audit/whitebox_audit.h"
#include "cli/command_registry.h"
#include "cli/option_values.h"
#include "cli/progress.h"
#include "cli/resource_limits.h"
#include "cli/output_file.h"
#include "cli/provenance.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <map>
#include <memory>
#include <sstream>
#include <thread>
#include <unistd.h>

namespace dpl::cli {
namespace {

using namespace dpl::audit;

struct AuditOptions {
  std::vector<std::string> args;  // TARGET, or merge FILE...
  std::string runs, confidence = "0.95", delta, epsilon, mu, tolerance = "0.1", shard, out, plot;
  std::string samples, neighbour_samples, projection;
  std::string exec, dataset, neighbour;  // --exec: the user's program, run on D and D'
  std::string canary_scores, method, thresholds, threshold, guesses, fpr;
  std::vector<std::string> sets;
  std::uint64_t seed = 1;
  unsigned threads = 0;
  bool exact_loss = false, seed_given = false;
  std::vector<std::string> injects;  // --inject FAULT (algorithm audits)
  std::string test, claim;           // --test, --claim (algorithm audits)
  bool list_faults = false;
};

double parse_confidence(const std::string& v) {
  const double c = parse_finite("--confidence", v);
  if (!(c > 0 && c < 1)) throw InputError("--confidence=" + v + " is out of range: allowed (0, 1)");
  return c;
}

double parse_tolerance(const std::string& v) {
  const double t = parse_finite("--tolerance", v);
  if (!(t > 0)) throw InputError("--tolerance=" + v + " is out of range: allowed (0, inf)");
  return t;
}

std::uint64_t parse_runs(const std::string& v) {
  const double r = parse_finite("--runs", v);
  if (!(r >= 2 && r <= 1e13 && r == std::floor(r)))
    throw InputError("--runs=" + v + " is out of range: allowed integers [2, 1e13]");
  return static_cast<std::uint64_t>(r);
}

// "i/n" with 1 <= i <= n <= 1e6 -> (i - 1, n).
std::pair<std::uint64_t, std::uint64_t> parse_shard(const std::string& v) {
  const auto slash = v.find('/');
  auto bad = [&] { return InputError("--shard=" + v + " is out of range: allowed i/n with integers 1 <= i <= n <= 1000000"); };
  if (slash == std::string::npos) throw bad();
  const std::string a = v.substr(0, slash), b = v.substr(slash + 1);
  auto num = [&](const std::string& s) {
    if (s.empty() || s.size() > 7 || s.find_first_not_of("0123456789") != std::string::npos) throw bad();
    return std::stoull(s);
  };
  const auto i = num(a), n = num(b);
  if (i < 1 || i > n || n > 1'000'000) throw bad();
  return {i - 1, n};
}

std::string down(double x) {
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  return format_down(Real(x), 12);
}
std::string up(double x) {
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  return format_up(Real(x), 12);
}
// A claim as the user typed it: a typed decimal that is not a double is held as the double above it (the end that
// makes a violation harder to declare), and echoing that double rounded up prints 0.800000000001 for 0.8. The
// shortest decimal (at most 15 digits) whose double is x, or whose double's successor is x, is the decimal typed.
std::string claim(double x) {
  if (!std::isfinite(x)) return up(x);
  char buf[32];
  for (int p = 1; p <= 15; ++p) {
    std::snprintf(buf, sizeof buf, "%.*g", p, x);
    const double y = std::strtod(buf, nullptr);
    if (y == x || std::nextafter(y, HUGE_VAL) == x) return format_input(y);
  }
  return up(x);
}
Json jdown(double x) { return std::isinf(x) ? Json(x > 0 ? "inf" : "-inf") : json_lower(exact(x)); }
Json jup(double x) { return std::isinf(x) ? Json(x > 0 ? "inf" : "-inf") : json_upper(exact(x)); }
Json jnear(double x) { return std::isinf(x) ? Json(x > 0 ? "inf" : "-inf") : Json(x); }

// The shared progress bar (cli/progress.h) as the libraries' (done, total) runs callback; empty when it is off.
std::function<void(std::uint64_t, std::uint64_t)> runs_progress(Progress& bar) {
  if (!bar.enabled()) return {};
  return [&bar](std::uint64_t done, std::uint64_t total) {
    bar.update(total ? double(done) / double(total) : 1.0, "of " + std::to_string(total) + " runs");
  };
}

std::string event_text(const AuditResult& r) {
  std::ostringstream s;
  s << "output " << (r.event.left_tail ? "<= " : "> ") << format_input(r.event.threshold) << ", likelier under "
    << (r.event.d_first ? "D than D'" : "D' than D");
  return s.str();
}

// The verdict and the figures common to every kind of audit. `more` names what an inconclusive audit needs more of
// (runs of a built-in target, or the user's samples); `mu_source` where the mu claimed comes from.
void describe(const AuditResult& r, Output& out, std::ostringstream& t, const std::string& more = "runs",
              const std::string& mu_source = "sens / sigma") {
  out.json["verdict"] = to_string(r.verdict);
  out.json["epsilon_lower"] = jdown(r.epsilon_lower);
  out.json["epsilon_claimed"] = jnear(r.epsilon_claimed);
  out.json["epsilon_estimate"] = jnear(r.epsilon_estimate);
  if (r.mu_lower) {
    out.json["mu_lower"] = jdown(*r.mu_lower);
    out.json["mu_claimed"] = jnear(*r.mu_claimed);
    out.json["mu_estimate"] = jnear(*r.mu_estimate);
  }
  out.json["audited"] = r.unit;
  out.json["resolution"] = jup(r.resolution);
  out.json["detectable"] = jup(r.detectable);
  out.json["event"] = Json{{"threshold", r.event.threshold},
                           {"tail", r.event.left_tail ? "left" : "right"},
                           {"likelier_under", r.event.d_first ? "D" : "D'"},
                           {"count_p", r.k_p}, {"n_p", r.n_p}, {"count_q", r.k_q}, {"n_q", r.n_q},
                           {"p_lower", jdown(r.p_lower)}, {"q_upper", jup(r.q_upper)}};
  out.json["error_per_bound"] = r.alpha_each;
  out.exit_code = exit_code(r.verdict);

  const std::string C = format_input(r.confidence);
  if (r.verdict == Verdict::violation)
    t << "verdict          VIOLATION: the lower bound exceeds the claim at confidence " << C << "\n";
  else if (r.verdict == Verdict::pass)
    t << "verdict          PASS: no violation at confidence " << C << "; the run could detect " << r.unit << " > "
      << up(r.detectable) << "\n";
  else
    t << "verdict          INCONCLUSIVE: no violation found, but the run could only detect " << r.unit << " > "
      << up(r.detectable) << " (resolution " << up(r.resolution) << " > --tolerance); add " << more << "\n";
  if (r.mu_lower) {
    t << "mu_lower         " << down(*r.mu_lower) << "   (Gaussian-DP mu, lower bound at confidence " << C << ")\n";
    t << "mu_claimed       " << up(*r.mu_claimed) << "   (" << mu_source << ")\n";
  }
  t << "epsilon_lower    " << down(r.epsilon_lower) << "   (lower bound at confidence " << C << ", delta "
    << format_input(out.json.value("delta", 0.0)) << ")\n";
  if (!r.mu_claimed || std::isfinite(r.epsilon_claimed))  // a mu claim alone claims no epsilon
    t << "epsilon_claimed  " << claim(r.epsilon_claimed) << "\n";
  t << "estimate         " << (r.unit == "mu" ? down(*r.mu_estimate) : down(r.epsilon_estimate)) << "   (" << r.unit
    << " of the chosen event from the point estimates)\n";
  t << "event            " << event_text(r) << "\n";
  t << "                 P >= " << down(r.p_lower) << " (" << r.k_p << "/" << r.n_p << "), Q <= " << up(r.q_upper) << " ("
    << r.k_q << "/" << r.n_q << "); Clopper-Pearson, error " << std::setprecision(4) << r.alpha_each << std::setprecision(6) << " each (Bonferroni)\n";
}

void check_plot_path(const std::string& plot) {
  if (!plot.empty() && (plot.size() < 5 || plot.substr(plot.size() - 4) != ".svg"))
    throw InputError("--plot=" + plot + " must name an .svg file");
}

Output mechanism_output(const MechanismTarget& target, const ThresholdCounts& counts, std::uint64_t runs, std::uint64_t seed,
                        double confidence, double tolerance, const std::map<std::string, std::string>& sets,
                        unsigned threads, const std::string& plot) {
  const MechanismAudit audit = audit_mechanism(target, counts, confidence, tolerance);
  const AuditResult& r = audit.result;
  const std::optional<CurveAudit>& curve = audit.curve;
  if (!plot.empty()) stage_output(plot, threshold_audit_svg(counts, r, "audit of " + target.spec));
  Output out;
  out.json["command"] = "audit";
  out.json["target"] = target.spec;
  out.json["kind"] = "black-box";
  out.json["set"] = sets;
  out.json["delta"] = target.claim.delta;
  out.json["runs"] = runs;
  out.json["confidence"] = confidence;
  out.json["tolerance"] = tolerance;
  out.json["seed"] = seed;
  if (threads) out.json["threads"] = threads;
  out.json["epsilon_accountant"] = jnear(target.claim.epsilon);
  out.json["accountant"] = target.accountant;
  std::ostringstream t;
  describe(r, out, t);
  // "name: method"; the method with --verbose only.
  const std::string accountant =
      global_options().verbose ? target.accountant : target.accountant.substr(0, target.accountant.find(':'));
  t << "accountant       " << up(target.claim.epsilon) << "   (" << accountant << ")\n";
  if (curve) {
    Json points = Json::array();
    t << "curve            delta: epsilon_lower (eps estimate) vs accountant; each at confidence "
      << format_input(curve->confidence_each) << ", jointly with the mu test at " << format_input(confidence) << "\n";
    for (const CurvePoint& p : curve->points) {
      points.push_back(Json{{"delta", p.delta}, {"epsilon_lower", jdown(p.epsilon_lower)},
                            {"epsilon_estimate", jnear(p.epsilon_estimate)},
                            {"epsilon_accountant", jup(p.epsilon_accountant)}, {"verdict", to_string(p.verdict)}});
      t << "                 " << format_input(p.delta) << ": " << down(p.epsilon_lower) << " (" << down(p.epsilon_estimate)
        << ") vs " << up(p.epsilon_accountant) << (p.verdict == Verdict::violation ? "   VIOLATION" : "") << "\n";
    }
    out.json["curve"] = Json{{"confidence_each", curve->confidence_each}, {"points", points}};
  }
  t << "runs             " << runs << " on each of D and D' (half choose the event, half estimate it), seed " << seed;
  if (threads) t << ", " << threads << " threads";
  t << "\n";
  if (target.noise_factor != 1)
    t << "note             actual_noise_factor=" << format_input(target.noise_factor)
      << ": the noise drawn is that multiple of the claimed noise (negative control)\n";
  if (!plot.empty()) {
    out.json["plot"] = plot;
    t << "plot             " << plot << "\n";
  }
  out.text = t.str();
  return out;
}

// Measured on the reference 2-core machine: a run (one output on D and one on D') costs about 6e-8 s of CPU for
// Laplace and 3.5e-8 s for a Gaussian; the scan of the events costs about 2.5e-5 s per threshold for Laplace and
// 1e-4 s for a Gaussian (its curve audit adds six deltas).
double event_scan_seconds(const MechanismTarget& t) {
  return static_cast<double>(t.grid_count) * (t.laplace ? 2.5e-5 : 1e-4);
}

// The work and memory of a mechanism audit, checked against --time-limit and --memory-limit before any sampling.
void require_mechanism_audit_resources(const MechanismTarget& t, const SamplingPlan& plan) {
  const double runs = static_cast<double>(plan.runs) / static_cast<double>(plan.shard_count);
  const double seconds = runs * (t.laplace ? 6e-8 : 3.5e-8) + (plan.shard_count == 1 ? event_scan_seconds(t) : 0);
  require_time_within_limit(seconds,
                            "audit " + t.spec + " with --runs " + format_input(static_cast<double>(plan.runs)) + " and " +
                                std::to_string(t.grid_count) + " thresholds (about 256 scale/sens)",
                            "use fewer --runs (or --shard i/n over several processes) or a smaller scale/sens");
  // Each thread has its stack (8 MB of address space) and its own counts (4 x 8 bytes per threshold).
  const double blocks = std::ceil(runs / static_cast<double>(kBlockRuns));
  const double threads = std::min(static_cast<double>(plan.threads), std::max(blocks, 1.0));
  const double mb = (threads * (8e6 + 32.0 * static_cast<double>(t.grid_count)) + 80.0 * static_cast<double>(t.grid_count)) / 1e6;
  require_memory_within_limit(mb, "audit " + t.spec + " with " + format_input(threads) + " threads", "use fewer --threads");
}

Output merge_algorithm_shards(const AuditOptions& o, const std::vector<std::string>& files, AlgorithmShardMerge& merge);

Output run_merge(const AuditOptions& o) {
  if (o.args.size() < 2) throw InputError("audit merge: give the shard files: dpledger audit merge FILE...");
  std::vector<std::string> files(o.args.begin() + 1, o.args.end());
  if (files.size() > kMaxShards)
    throw InputError("audit merge: " + std::to_string(files.size()) + " files: allowed at most " + std::to_string(kMaxShards) + " shards");
  // One file at a time: its text (at most 64 MB, nesting checked before the parser), its validation, and the
  // running sum of the counts; nothing else is kept.
  // The first file says which kind of audit the shards are of (a mechanism's counts or an algorithm's records).
  ShardMerge merge;
  AlgorithmShardMerge algorithm_merge;
  bool algorithm = false;
  for (std::size_t k = 0; k < files.size(); ++k) {
    const std::string& f = files[k];
    const std::string text = read_input_file(f, "audit merge: shard file " + f);
    check_json_depth(text, "audit merge: shard file " + f);
    Json j;
    try {
      j = Json::parse(text);
    } catch (const std::exception& e) {
      throw InputError("audit merge: " + f + " is not JSON: " + e.what());
    }
    if (k == 0) algorithm = is_algorithm_shard(j);
    if (algorithm != is_algorithm_shard(j))
      throw InputError("audit merge: " + f + " is " + (algorithm ? "not " : "") + "an algorithm audit's shard, " +
                       files.front() + " is " + (algorithm ? "" : "not ") + "one: merge the shards of one audit");
    if (algorithm) algorithm_merge.add(algorithm_shard_from_json(j, f), f);
    else merge.add(shard_from_json(j, f), f);
  }
  if (algorithm) return merge_algorithm_shards(o, files, algorithm_merge);
  const Shard total = merge.total();
  const MechanismTarget target = make_mechanism_target(total.target, total.sets, total.delta);
  require_time_within_limit(event_scan_seconds(target), "audit merge of " + target.spec, "merge a target with fewer thresholds");
  if (target.thresholds() != total.counts.thresholds)
    throw InputError("audit merge: the thresholds in the shards do not match target " + total.target);
  Output out = mechanism_output(target, total.counts, total.runs, total.seed, total.confidence, total.tolerance, total.sets, 0, o.plot);
  out.json["merged"] = files;
  out.json["shards_version"] = total.version;
  out.text += "merged           " + std::to_string(files.size()) + " shards (written by dpledger " + total.version + ")\n";
  return out;
}

// The claim of an audit of the user's outputs (--samples, --exec): --epsilon [--delta] or --mu, at the decimals
// typed, rounded in the claim's favour (a violation must beat the claim as typed).
AuditClaim user_claim(const AuditOptions& o, const std::string& kind) {
  if (o.epsilon.empty() && o.mu.empty()) throw InputError(kind + " needs the claim: --epsilon E (and --delta d) or --mu M");
  AuditClaim claim;
  claim.epsilon = o.epsilon.empty() ? INFINITY : parse_epsilon("--epsilon", o.epsilon).up;
  claim.delta = o.delta.empty() ? 0.0 : parse_delta("--delta", o.delta, true).up;
  if (!o.mu.empty()) {
    const double mu = parse_finite("--mu", o.mu);
    if (!(mu > 0)) throw InputError("--mu=" + o.mu + " is out of range: allowed (0, inf)");
    claim.mu = mu;
  }
  return claim;
}

Output run_samples(const AuditOptions& o) {
  if (o.neighbour_samples.empty()) throw InputError("--samples needs --neighbour-samples (the outputs on D')");
  const AuditClaim claim = user_claim(o, "--samples");
  const double confidence = parse_confidence(o.confidence), tolerance = parse_tolerance(o.tolerance);
  const Projection p = parse_projection(o.projection);
  SampleHeader header_d, header_dp;
  const auto d = project(read_sample_rows(o.samples, kMaxSampleRows, &header_d), p, o.samples);
  const auto dp = project(read_sample_rows(o.neighbour_samples, kMaxSampleRows, &header_dp), p, o.neighbour_samples);
  const ThresholdCounts counts = user_sample_counts(d, dp);
  const AuditResult r = threshold_test(counts, claim, confidence, tolerance);
  if (!o.plot.empty()) stage_output(o.plot, threshold_audit_svg(counts, r, "audit of " + o.samples + " vs " + o.neighbour_samples));
  Output out;
  out.json["command"] = "audit";
  out.json["kind"] = "samples";
  out.json["samples"] = o.samples;
  out.json["neighbour_samples"] = o.neighbour_samples;
  if (!p.text.empty()) out.json["projection"] = p.text;
  out.json["delta"] = claim.delta;
  out.json["runs"] = std::min(d.size(), dp.size());
  out.json["samples_d"] = d.size();
  out.json["samples_dprime"] = dp.size();
  out.json["confidence"] = confidence;
  out.json["tolerance"] = tolerance;
  out.json["seed"] = nullptr;
  std::ostringstream t;
  describe(r, out, t, "samples", "--mu");
  t << "samples          " << d.size() << " on D (" << o.samples << "), " << dp.size() << " on D' (" << o.neighbour_samples
    << "); the first half of each chooses the event, the second half estimates it\n";
  for (const auto& [file, h] : {std::pair{o.samples, header_d}, std::pair{o.neighbour_samples, header_dp}})
    if (!h.line.empty()) {
      out.json["headers"][file] = {{"line", h.line}, {"index_column_dropped", h.index_column_dropped}};
      t << "header           " << file << ": '" << h.line << "' skipped"
        << (h.index_column_dropped ? ", and its first (index) column" : "") << "\n";
    }
  if (!o.plot.empty()) out.json["plot"] = o.plot;
  out.text = t.str();
  return out;
}

// `audit --exec`: the user's program run on D and D' (audit/exec_samples.h), then the threshold test of --samples.
Output run_exec(const AuditOptions& o) {
  if (!o.args.empty()) throw InputError("audit: give either TARGET or --exec, not both");
  if (!o.samples.empty() || !o.neighbour_samples.empty())
    throw InputError("audit: give either --exec (runs your program) or --samples (reads its outputs), not both");
  if (!o.shard.empty() || !o.out.empty()) throw InputError("--shard/--out apply to mechanism targets (laplace:, gaussian:)");
  if (!o.sets.empty()) throw InputError("--set applies to built-in targets: --exec runs your program as it is");
  if (o.threads) throw InputError("--threads applies to built-in targets: --exec runs one call at a time");
  if (o.dataset.empty()) throw InputError("--exec needs --dataset FILE (the data set D)");
  if (o.neighbour.empty()) throw InputError("--exec needs --neighbour FILE (the neighbouring data set D')");
  if (o.runs.empty()) throw InputError("--exec needs --runs N: the outputs wanted on each of D and D', an integer in [2, 10000000]");
  const AuditClaim claim = user_claim(o, "--exec");
  ExecPlan plan;
  plan.command = o.exec;
  plan.dataset = o.dataset;
  plan.neighbour = o.neighbour;
  const double runs = parse_finite("--runs", o.runs);
  if (!(runs >= 2 && runs <= double(kMaxExecRuns) && runs == std::floor(runs)))
    throw InputError("--runs=" + o.runs + " is out of range for --exec: allowed integers [2, 10000000]");
  plan.runs = static_cast<std::uint64_t>(runs);
  plan.seed = o.seed;
  plan.projection = parse_projection(o.projection);
  const double confidence = parse_confidence(o.confidence), tolerance = parse_tolerance(o.tolerance);
  // The calls' time is the programs' (their CPU is not this process's): --time-limit bounds their wall-clock time.
  plan.seconds_limit = std::max(resource_limits().cpu_seconds, 0.0);
  validate_exec_plan(plan);
  Progress bar("audit");
  const ExecSamples s = run_exec_samples(plan, bar.enabled() ? [&bar](std::uint64_t done, std::uint64_t total) {
    bar.update(double(done) / double(total), "of " + std::to_string(total) + " outputs");
  } : std::function<void(std::uint64_t, std::uint64_t)>());
  const ThresholdCounts counts = user_sample_counts(s.d, s.dprime);
  const AuditResult r = threshold_test(counts, claim, confidence, tolerance);
  if (!o.plot.empty()) stage_output(o.plot, threshold_audit_svg(counts, r, "audit of " + o.exec));
  Output out;
  out.json["command"] = "audit";
  out.json["kind"] = "exec";
  out.json["exec"] = o.exec;
  out.json["dataset"] = o.dataset;
  out.json["neighbour"] = o.neighbour;
  if (!plan.projection.text.empty()) out.json["projection"] = plan.projection.text;
  out.json["delta"] = claim.delta;
  out.json["runs"] = plan.runs;
  out.json["calls_d"] = s.calls_d;
  out.json["calls_dprime"] = s.calls_dprime;
  out.json["surplus_outputs"] = s.surplus;
  out.json["output_dimension"] = s.dimension;
  out.json["confidence"] = confidence;
  out.json["tolerance"] = tolerance;
  out.json["seed"] = plan.seed;
  std::ostringstream t;
  describe(r, out, t);
  t << "runs             " << plan.runs << " outputs on each of D (" << o.dataset << ", " << s.calls_d << " calls) and D' ("
    << o.neighbour << ", " << s.calls_dprime << " calls); the first half of each chooses the event, the second half "
    << "estimates it\n";
  t << "calls            alternating D and D', each with its own DPLEDGER_SEED (from seed " << plan.seed << ")";
  if (s.surplus) t << "; " << s.surplus << " outputs beyond the runs unused";
  t << "\n";
  if (!o.plot.empty()) {
    out.json["plot"] = o.plot;
    t << "plot             " << o.plot << "\n";
  }
  out.text = t.str();
  return out;
}

// The plan of an algorithm audit from the options (ALGORITHM as the first argument), or from a merged shard's
// record of them.
AlgorithmAuditPlan algorithm_audit_plan(const std::string& algorithm, const AuditOptions& o) {
  AlgorithmAuditPlan plan;
  plan.algorithm = algorithm;
  plan.sets = o.sets;
  if (!o.runs.empty()) {
    const double runs = parse_finite("--runs", o.runs);
    if (!(runs >= 4 && runs <= 1e7 && runs == std::floor(runs)))
      throw InputError("--runs=" + o.runs + " is out of range for an algorithm: allowed integers [4, 10000000]");
    plan.runs = static_cast<std::uint64_t>(runs);
  }
  plan.seed = o.seed;
  plan.confidence = parse_confidence(o.confidence);
  plan.threads = o.threads ? o.threads : std::max(1u, std::thread::hardware_concurrency());
  for (const auto& f : o.injects) {
    parse_fault(plan.algorithm, f, plan.faults, plan.noise_factor);
    plan.faults_text += (plan.faults_text.empty() ? "" : ", ") + f;
  }
  if (o.test.empty() || o.test == "both") plan.tests = AuditTests::both;
  else if (o.test == "distinguishing") plan.tests = AuditTests::distinguishing;
  else if (o.test == "noise") plan.tests = AuditTests::noise;
  else throw InputError("--test=" + o.test + " is not a test: allowed distinguishing, noise, both");
  if (o.claim.empty() || o.claim == "accounted") plan.claim = ClaimAudited::accounted;
  else if (o.claim == "paper") plan.claim = ClaimAudited::paper;
  else throw InputError("--claim=" + o.claim + " is not a claim: allowed accounted, paper");
  return plan;
}

// The report of a decided algorithm audit (its own, or merged from shards).
Output algorithm_audit_output(const AlgorithmAuditResult& w, const AlgorithmAuditPlan& plan, const AuditOptions& o) {
  if (!o.plot.empty()) stage_output(o.plot, algorithm_audit_svg(w));
  Output out;
  out.json["command"] = "audit";
  out.json["target"] = w.algorithm;
  out.json["kind"] = "algorithm";
  out.json["set"] = o.sets;
  out.json["runs"] = w.runs;
  out.json["confidence"] = w.confidence;
  out.json["seed"] = plan.seed;
  out.json["threads"] = plan.threads;
  out.json["threat_model"] = w.threat_model;
  out.json["canary"] = w.canary;
  out.json["statistic"] = w.statistic;
  out.json["releases_per_run"] = w.releases_per_run;
  out.json["actual_noise_factor"] = w.noise_factor;
  out.json["configuration"] = w.configuration;
  out.json["inject"] = o.injects;
  out.json["test"] = w.tests == AuditTests::both ? "both" : w.tests == AuditTests::distinguishing ? "distinguishing" : "noise";
  out.json["claim_audited"] = w.claim == ClaimAudited::paper ? "paper" : "accounted";
  out.json["verdict"] = to_string(w.verdict);
  out.json["epsilon_lower"] = jdown(w.epsilon_lower);
  out.json["epsilon_claimed"] = jup(w.claim_epsilon);
  out.json["delta"] = w.claim_delta;
  out.json["claim"] = w.claim_source;
  Json curve = Json::array();
  for (const auto& c : w.curve) curve.push_back(Json{{"epsilon", c.epsilon}, {"delta", jup(c.delta)}});
  out.json["claimed_curve"] = curve;
  out.json["distinguishing"] = Json{{"verdict", to_string(w.distinguishing)},
                                    {"event", Json{{"statistic", w.d_first ? ">" : "<="}, {"threshold", w.threshold},
                                                   {"reads", w.on_increments ? "increments" : "likelihood ratio"},
                                                   {"likelier_under", w.d_first ? "D" : "D'"}}},
                                    {"count_p", w.k_p}, {"n_p", w.n_p}, {"count_q", w.k_q}, {"n_q", w.n_q},
                                    {"p_lower", jdown(w.p_lower)}, {"q_upper", jup(w.q_upper)},
                                    {"claim_allows_p", jup(w.allowed_p)}};
  out.json["noise_check"] = Json{{"verdict", to_string(w.noise)}, {"family", w.noise_family}, {"draws", w.noise_draws},
                                 {"ratio", w.noise_ratio}, {"ratio_lower_under_claim", w.noise_ratio_lower}};
  out.exit_code = exit_code(w.verdict);
  std::ostringstream t;
  const std::string C = format_input(w.confidence);
  const bool use_d = w.tests != AuditTests::noise, use_n = w.tests != AuditTests::distinguishing;
  const std::string tests_named = use_d && use_n ? "neither test (distinguishing, white-box noise check)"
                                  : use_d        ? "the distinguishing test"
                                                 : "the white-box noise check";
  const std::string claim_named =
      w.claim == ClaimAudited::paper ? "the paper's claim (" + w.claim_theorem + ")" : std::string("the claim");
  if (w.verdict == Verdict::violation) {
    std::vector<std::string> fired;
    if (use_d && w.distinguishing == Verdict::violation)
      fired.push_back("distinguishing test: the outputs on D and D' are more distinguishable than " + claim_named + " allows");
    if (use_n && w.noise == Verdict::violation)
      fired.push_back("white-box noise check: the noise drawn is smaller than the noise the claim is computed for");
    t << "verdict          VIOLATION at confidence " << C << " (";
    for (std::size_t i = 0; i < fired.size(); ++i) t << (i ? "; " : "") << fired[i];
    t << ")\n";
  } else {
    t << "verdict          PASS: " << tests_named << (use_d && use_n ? " shows" : " shows no") << (use_d && use_n ? " a" : "")
      << " violation at confidence " << C << "\n";
  }
  t << "audit            end to end: each run executes the algorithm on D and on D' and the statistic reads its "
       "releases\n";
  if (!w.configuration.empty()) {
    t << "configuration   ";
    for (const auto& c : w.configuration) t << " " << c;
    t << "   (the audit's defaults; --set overrides)\n";
  }
  if (!w.faults.empty()) t << "injected         " << w.faults << " (into the run's code; the claim is unchanged)\n";
  t << "threat model     " << w.threat_model << "\n";
  t << "canary           " << w.canary << "\n";
  t << "claim            epsilon " << up(w.claim_epsilon) << " at delta " << format_input(w.claim_delta) << "; the curve: "
    << w.claim_source << "\n";
  t << "distinguishing   " << (use_d ? "" : "(not part of the verdict) ") << to_string(w.distinguishing) << ": event "
    << (w.on_increments ? "increments statistic " : "statistic ") << (w.d_first ? "> " : "<= ")
    << format_input(w.threshold) << " (likelier under " << (w.d_first ? "D" : "D'") << "): P >= " << down(w.p_lower) << " ("
    << w.k_p << "/" << w.n_p << "), Q <= " << up(w.q_upper) << " (" << w.k_q << "/" << w.n_q << "); the claim allows P <= "
    << up(w.allowed_p) << "\n";
  t << "epsilon_lower    " << down(w.epsilon_lower) << "   (at delta " << format_input(w.claim_delta) << ", confidence "
    << C << (use_d && use_n ? " shared with the noise check" : "") << ")\n";
  t << "noise check      " << (use_n ? "" : "(not part of the verdict) ") << to_string(w.noise) << " (white-box: reads the noise drawn): " << w.noise_draws << " " << w.noise_family
    << " draws, energy / claimed " << format_input(w.noise_ratio) << " (the claim's lower end "
    << format_input(w.noise_ratio_lower) << ")\n";
  t << "statistic        " << w.statistic << "\n";
  t << "runs             " << w.runs << " (each gives the statistic on D and on D'; the first half chooses the event), seed "
    << plan.seed << "\n";
  if (w.noise_factor != 1)
    t << "note             actual_noise_factor=" << format_input(w.noise_factor)
      << ": the runs draw that multiple of the claimed noise (negative control); the claim is unchanged\n";
  if (!o.plot.empty()) {
    out.json["plot"] = o.plot;
    t << "plot             " << o.plot << "\n";
  }
  out.text = t.str();
  return out;
}

Output run_algorithm_audit(const AuditOptions& o) {
  if (!o.delta.empty()) throw InputError("--delta applies to mechanism targets: an algorithm's claim is its own");
  AlgorithmAuditPlan plan = algorithm_audit_plan(o.args.front(), o);
  if (!o.shard.empty()) {
    std::tie(plan.shard_index, plan.shard_count) = parse_shard(o.shard);
    if (o.out.empty()) throw InputError("--shard=" + o.shard + " needs --out FILE for the shard's records");
    if (!o.plot.empty()) throw InputError("--plot is for the decided audit: give it to `audit merge`, not to a --shard");
  } else if (!o.out.empty()) {
    throw InputError("--out=" + o.out + " is for --shard i/n (the shard's records)");
  }
  Progress bar("audit");
  const AlgorithmAuditResult w = algorithm_audit(plan, runs_progress(bar));
  if (!w.partial) return algorithm_audit_output(w, plan, o);
  AlgorithmShard s;
  s.version = version_string();
  s.algorithm = plan.algorithm;
  s.sets = o.sets;
  s.injects = o.injects;
  s.test = o.test.empty() ? "both" : o.test;
  s.claim = o.claim.empty() ? "accounted" : o.claim;
  s.runs = w.runs;
  s.seed = plan.seed;
  s.shard_index = plan.shard_index;
  s.shard_count = plan.shard_count;
  s.confidence = plan.confidence;
  s.records = w.records;
  stage_output(o.out, to_json(s).dump() + "\n");
  Output out;
  out.json["command"] = "audit";
  out.json["target"] = plan.algorithm;
  out.json["kind"] = "algorithm";
  out.json["shard"] = o.shard;
  out.json["out"] = o.out;
  out.json["runs"] = w.runs;
  out.json["seed"] = plan.seed;
  out.json["confidence"] = plan.confidence;
  out.text = "shard " + o.shard + " of audit " + plan.algorithm + " (" + std::to_string(w.runs) + " runs in all, seed " +
             std::to_string(plan.seed) + ") written to " + o.out + "; combine with: dpledger audit merge FILE...\n";
  return out;
}

// `audit merge` of an algorithm audit's shards: their records gathered, the claim computed again, the decision
// made as the unsharded audit of the same seed makes it.
Output merge_algorithm_shards(const AuditOptions& o, const std::vector<std::string>& files, AlgorithmShardMerge& merge) {
  const AlgorithmShard total = merge.total();
  AuditOptions given = o;
  given.sets = total.sets;
  given.injects = total.injects;
  given.test = total.test;
  given.claim = total.claim;
  given.seed = total.seed;
  given.threads = 1;
  if (!is_auditable(total.algorithm))
    throw InputError("audit merge: the shards audit " + total.algorithm + ", which this dpledger cannot audit");
  AlgorithmAuditPlan plan = algorithm_audit_plan(total.algorithm, given);
  plan.runs = total.runs;  // both validated when the shard was read
  plan.confidence = total.confidence;
  plan.merged = &total.records;
  const AlgorithmAuditResult w = algorithm_audit(plan);
  Output out = algorithm_audit_output(w, plan, given);
  out.json["merged"] = files;
  out.json["shards_version"] = total.version;
  out.text += "merged           " + std::to_string(files.size()) + " shards (written by dpledger " + total.version + ")\n";
  return out;
}

Output run_whitebox(const AuditOptions& o) {
  if (!o.shard.empty() || !o.out.empty()) throw InputError("--shard/--out apply to mechanism targets (laplace:, gaussian:)");
  if (!o.delta.empty()) throw InputError("--delta applies to mechanism targets: an algorithm's claim is its own");
  WhiteBoxPlan plan;
  plan.algorithm = o.args.front();
  plan.sets = o.sets;
  const double runs = parse_finite("--runs", o.runs.empty() ? "1000" : o.runs);
  if (!(runs >= 1 && runs <= 1e6 && runs == std::floor(runs)))
    throw InputError("--runs=" + o.runs + " is out of range for an algorithm: allowed integers [1, 1000000]");
  plan.runs = static_cast<std::uint64_t>(runs);
  plan.seed = o.seed;
  plan.confidence = parse_confidence(o.confidence);
  plan.threads = o.threads ? o.threads : std::max(1u, std::thread::hardware_concurrency());
  Progress bar("audit");
  // The runs go on worker threads while the progress is reported (no refusal can come from there): the work is
  // named for --time-limit's message.
  describe_work("audit " + plan.algorithm + " with --runs " + std::to_string(plan.runs) + " (lower --runs)");
  const WhiteBoxResult w = whitebox_audit(plan, runs_progress(bar));
  if (!o.plot.empty()) stage_output(o.plot, whitebox_audit_svg(w));
  Output out;
  out.json["command"] = "audit";
  out.json["target"] = w.algorithm;
  out.json["kind"] = "white-box";
  out.json["set"] = o.sets;
  out.json["runs"] = plan.runs;
  out.json["confidence"] = plan.confidence;
  out.json["seed"] = plan.seed;
  out.json["threads"] = plan.threads;
  out.json["verdict"] = to_string(w.verdict);
  out.json["epsilon_lower"] = jdown(w.epsilon_lower);
  out.json["epsilon_claimed"] = jnear(w.epsilon_claimed);
  out.json["epsilon_claimed_min"] = jnear(w.epsilon_claimed_min);
  out.json["epsilon_accountant"] = jnear(w.epsilon_accountant);
  out.json["runs_over_claim"] = w.runs_over_claim;
  out.json["max_loss_over_claim"] = w.max_loss_over_claim;
  out.json["loss"] = w.loss_definition;
  out.json["loss_max"] = w.max_loss;
  out.json["loss_mean"] = w.mean_loss;
  out.json["loss_mean_interval"] = Json::array({jdown(w.mean_lower), jup(w.mean_upper)});
  out.json["hoeffding_range"] = w.range;
  if (w.claimed_average) out.json["claimed_average_epsilon"] = *w.claimed_average;
  if (w.average_gap) {
    out.json["loss_minus_claimed_average"] = *w.average_gap;
    out.json["loss_minus_claimed_average_halfwidth_normal"] = jnear(*w.average_gap_halfwidth);  // inf for 1 run
  }
  if (w.accountant_expected) out.json["accountant_expected_epsilon_run1"] = *w.accountant_expected;
  if (w.realised_gamma) out.json["realised_gamma"] = *w.realised_gamma;
  out.json["delta_curve"] = Json{{"epsilon", w.eps_grid}, {"delta_monte_carlo", w.delta_mc},
                                 {"delta_monte_carlo_upper", w.delta_mc_upper}, {"delta_accountant", w.accountant_delta}};
  out.json["histogram"] = Json{{"edges", w.hist_edges}, {"counts", w.hist_counts}};
  out.json["detectable_probability"] = jup(w.detectable_probability);
  if (!w.note.empty()) {
    out.json["precision"] = w.note;
    out.json["certified_runs"] = w.certified_runs;
  }
  if (!o.plot.empty()) out.json["plot"] = o.plot;
  out.json = algorithms::json_safe(out.json);  // never null where a number is promised (inf is "inf")
  out.exit_code = exit_code(w.verdict);
  std::ostringstream t;
  const std::string C = format_input(plan.confidence);
  const bool curve_claim = w.mean_interval_normal;  // dp-sgd: the accountant's delta(eps) curve is the claim
  if (curve_claim) {
    out.json["delta_curve"]["delta_monte_carlo_lower"] = w.delta_mc_lower;
    out.json["accountant_delta"] = w.claim_delta;
  }
  if (w.verdict == Verdict::violation && curve_claim)
    t << "verdict          VIOLATION: the Monte Carlo delta(eps)'s lower end exceeds the accountant's delta(eps) at "
         "confidence " << C << "\n";
  else if (w.verdict == Verdict::violation)
    t << "verdict          VIOLATION: " << w.runs_over_claim << " of " << plan.runs
      << " runs have an exact loss above their own claim (up to " << format_input(w.max_loss_over_claim) << " times it)\n";
  else if (curve_claim)
    t << "verdict          PASS: the Monte Carlo delta(eps) stays within the accountant's curve at every eps of the "
         "grid (lower ends at confidence " << C << ", jointly)\n";
  else
    t << "verdict          PASS: every run's exact loss is within the claim; an output region of probability >= "
      << up(w.detectable_probability) << " with a larger loss would have shown at confidence " << C << "\n";
  t << "loss             " << w.loss_definition << "\n";
  if (curve_claim) {
    t << "max loss         " << format_input(w.max_loss) << "   (the largest loss of " << plan.runs
      << " runs; a Gaussian loss is unbounded: the curve below is what is audited)\n";
    t << "mean loss        " << format_input(w.mean_loss) << "   [" << format_input(w.mean_lower) << ", "
      << format_input(w.mean_upper) << "] at confidence " << C << " (normal approximation)\n";
    t << "claimed          none (the paper defers to the accountant)\n";
    t << "accountant       " << up(w.epsilon_accountant) << " at delta " << format_input(w.claim_delta)
      << "   (dpledger's certified bound for the run's ledger)\n";
    t << "epsilon_lower    " << down(w.epsilon_lower) << "   (at that delta: the largest eps of the grid whose Monte "
         "Carlo delta exceeds it at confidence " << C << ")\n";
  } else {
    t << "max loss         " << down(w.max_loss) << "   (the largest exact loss of " << plan.runs << " runs: a lower bound on epsilon)\n";
    t << "mean loss        " << format_input(w.mean_loss) << "   [" << down(w.mean_lower) << ", " << up(w.mean_upper)
      << "] at confidence " << C << " (Hoeffding, losses in [0, " << format_input(w.range) << "])\n";
    t << "claimed          " << up(w.epsilon_claimed_min) << " .. " << up(w.epsilon_claimed)
      << "   (the paper's bound per run; it varies with the run's random graph)\n";
    t << "loss / claim     " << format_input(w.max_loss_over_claim) << "   (the largest ratio of a run's loss to its own claim)\n";
    t << "accountant       " << up(w.epsilon_accountant) << "   (dpledger's certified bound, largest over the runs)\n";
  }
  if (w.claimed_average)
    t << "thesis average   " << format_input(*w.claimed_average) << "   (eq. (2.6) as printed, mean over the runs"
      << (*w.claimed_average < w.mean_lower ? "; BELOW the mean loss's lower bound: refuted" : "") << ")\n";
  if (w.average_gap)
    t << "loss - average   " << format_input(*w.average_gap) << " +- " << format_input(*w.average_gap_halfwidth)
      << "   (mean of each run's loss minus its eq. (2.6) figure; normal approximation at confidence " << C
      << (*w.average_gap - *w.average_gap_halfwidth > 0 ? ": the thesis's average is below the realised mean" : "") << ")\n";
  if (w.accountant_expected)
    t << "expected (run 1) " << up(*w.accountant_expected) << "   (certified expected loss along run 1's trajectory)\n";
  if (w.realised_gamma) t << "realised gamma   " << format_input(*w.realised_gamma) << "   (mean over runs of loss / worst case)\n";
  t << "delta(eps)       eps: Monte Carlo delta [" << (curve_claim ? "lower, " : "") << "upper at C] vs accountant\n";
  const std::size_t stride = std::max<std::size_t>(1, (w.eps_grid.size() - 1) / 5);
  for (std::size_t k = 0; k < w.eps_grid.size(); k += stride) {
    t << "                 " << format_input(w.eps_grid[k]) << ": " << format_input(w.delta_mc[k]) << " [";
    if (curve_claim) t << format_input(w.delta_mc_lower[k]) << ", ";
    t << format_input(w.delta_mc_upper[k]) << "] vs " << format_input(w.accountant_delta[k]) << "\n";
  }
  t << "histogram        ";
  for (auto c : w.hist_counts) t << c << " ";
  t << "(30 bins on [" << format_input(w.hist_edges.front()) << ", " << format_input(w.hist_edges.back()) << "])\n";
  if (!w.note.empty()) t << "precision        " << w.note << "\n";
  if (!o.plot.empty()) t << "plot             " << o.plot << "\n";
  out.text = t.str();
  return out;
}

Output run_canary_scores(const AuditOptions& o) {
  if (!o.args.empty()) throw InputError("audit: give either TARGET or --canary-scores, not both");
  if (!o.runs.empty()) throw InputError("--runs is for a TARGET: --canary-scores audits the canaries of one run");
  if (!o.samples.empty()) throw InputError("--canary-scores and --samples are two kinds of audit: give one");
  if (!o.mu.empty()) throw InputError("--mu is for --samples; --canary-scores takes --epsilon E");
  CanaryAuditOptions c;
  c.method = parse_canary_method(o.method.empty() ? "one-run" : o.method);
  c.delta = o.delta.empty() ? 1e-5 : parse_delta("--delta", o.delta, true).up;
  c.confidence = parse_confidence(o.confidence);
  c.seed = o.seed;
  if (!o.epsilon.empty()) c.claimed_epsilon = parse_epsilon("--epsilon", o.epsilon).up;
  if (!o.thresholds.empty()) {
    if (o.thresholds == "bonferroni") c.choice = ThresholdChoice::bonferroni;
    else if (o.thresholds == "split") c.choice = ThresholdChoice::split;
    else throw InputError("--thresholds=" + o.thresholds + " is not a choice: allowed bonferroni, split");
  }
  if (!o.threshold.empty()) {
    if (!o.thresholds.empty() || !o.guesses.empty())
      throw InputError("--threshold fixes the threshold: give it without --thresholds or --guesses");
    c.threshold = parse_finite("--threshold", o.threshold);
    c.choice = ThresholdChoice::fixed;
  }
  if (!o.guesses.empty()) {
    if (!o.thresholds.empty()) throw InputError("--guesses fixes the guesses: give it without --thresholds");
    const auto comma = o.guesses.find(',');
    auto count = [&](const std::string& v) {
      const double x = parse_finite("--guesses", v);
      if (!(x >= 0 && x <= 1e12 && x == std::floor(x)))
        throw InputError("--guesses=" + o.guesses + " is out of range: allowed K+[,K-] with integers >= 0");
      return static_cast<std::uint64_t>(x);
    };
    c.guesses = {count(o.guesses.substr(0, comma)), comma == std::string::npos ? 0 : count(o.guesses.substr(comma + 1))};
    c.choice = ThresholdChoice::fixed;
  }
  if (!o.fpr.empty()) {
    c.fprs.clear();
    std::stringstream ss(o.fpr);
    std::string item;
    while (std::getline(ss, item, ',')) c.fprs.push_back(parse_finite("--fpr", item));
    if (c.fprs.empty() || c.fprs.size() > 100) throw InputError("--fpr=" + o.fpr + " is out of range: allowed 1 to 100 rates in [0, 1]");
  }
  const auto scores = read_canary_scores(o.canary_scores);
  const CanaryAuditResult r = audit_canary_scores(scores, c);
  if (!o.plot.empty()) stage_output(o.plot, canary_audit_svg(r, c.delta, c.claimed_epsilon, "canaries of " + o.canary_scores));
  Output out;
  out.json["command"] = "audit";
  out.json["kind"] = "canary-scores";
  out.json["canary_scores"] = o.canary_scores;
  out.json["method"] = to_string(c.method);
  out.json["delta"] = c.delta;
  out.json["confidence"] = c.confidence;
  out.json["canaries"] = r.canaries;
  out.json["included"] = r.included;
  out.json["excluded"] = r.excluded;
  out.json["threshold_choice"] = r.choice;
  out.json["bonferroni_family"] = r.family;
  out.json["audited"] = r.audited;
  out.json["threshold"] = r.threshold;
  out.json["epsilon_lower"] = jdown(r.epsilon_lower);
  out.json["detectable"] = jnear(r.detectable);
  const bool one_run = c.method == CanaryMethod::one_run || c.method == CanaryMethod::one_run_fdp;
  if (one_run) {
    out.json["guesses"] = r.guesses;
    out.json["correct"] = r.correct;
    out.json["k_plus"] = r.k_plus;
    out.json["k_minus"] = r.k_minus;
  } else {
    out.json["true_positives"] = r.true_positives;
    out.json["false_positives"] = r.false_positives;
    out.json["tpr_lower"] = jdown(r.tpr_lower);
    out.json["fpr_upper"] = jup(r.fpr_upper);
    if (r.mu_lower) out.json["mu_lower"] = jdown(*r.mu_lower);
  }
  Json tf = Json::array();
  for (const auto& [f, t] : r.tpr_at_fpr) tf.push_back(Json{{"fpr", f}, {"tpr", t}});
  out.json["tpr_at_fpr"] = tf;
  out.json["auroc"] = r.auroc;
  if (c.claimed_epsilon) {
    out.json["epsilon_claimed"] = *c.claimed_epsilon;
    out.json["verdict"] = to_string(*r.verdict);
    out.exit_code = exit_code(*r.verdict);
  }
  if (!o.plot.empty()) out.json["plot"] = o.plot;
  std::ostringstream t;
  const std::string C = format_input(c.confidence);
  if (r.verdict) {
    if (*r.verdict == Verdict::violation)
      t << "verdict          VIOLATION: the lower bound exceeds the claimed epsilon " << o.epsilon
        << " at confidence " << C << "\n";
    else if (*r.verdict == Verdict::pass)
      t << "verdict          PASS: no violation at confidence " << C << "; these canaries could show epsilon up to "
        << down(r.detectable) << "\n";
    else
      t << "verdict          INCONCLUSIVE: even a perfect attack on " << r.audited << " canaries shows at most epsilon "
        << up(r.detectable) << " <= the claim; add canaries\n";
  }
  const char* what = c.method == CanaryMethod::one_run ? "Steinke, Nasr and Jagielski 2023, Thm 3.1; certified binomial tails"
                     : c.method == CanaryMethod::one_run_fdp
                         ? "Mahloujifar, Melis and Chaudhuri 2024: refutes the Gaussian curve with this (eps, delta)"
                     : c.method == CanaryMethod::gdp ? "Gaussian-DP mu of the bounds, as epsilon of that Gaussian curve"
                                                     : "exact Clopper-Pearson bounds on TPR and FPR";
  t << "epsilon_lower    " << down(r.epsilon_lower) << "   (" << to_string(c.method) << " at delta " << (o.delta.empty() ? "1e-05" : o.delta)
    << ", confidence " << C << "; " << what << ")\n";
  if (r.mu_lower) t << "mu_lower         " << down(*r.mu_lower) << "\n";
  if (one_run)
    t << "guesses          " << r.guesses << " (" << r.k_plus << " highest scores guessed included, " << r.k_minus
      << " lowest excluded), " << r.correct << " correct, of " << r.audited << " canaries\n";
  else
    t << "event            score >= " << format_input(r.threshold) << ": TPR >= " << down(r.tpr_lower) << " ("
      << r.true_positives << "/" << r.included << "), FPR <= " << up(r.fpr_upper) << " (" << r.false_positives << "/"
      << r.excluded << ")\n";
  t << "threshold        " << r.choice;
  if (r.family > 1) t << ", confidence shared by " << r.family << " candidate tests";
  t << "\n";
  t << "canaries         " << r.canaries << " (" << r.included << " included, " << r.excluded << " excluded)\n";
  t << "attack           AUROC " << format_input(r.auroc);
  for (const auto& [f, v] : r.tpr_at_fpr) t << ", TPR " << format_input(v) << " at FPR " << format_input(f);
  t << " (ROC convex hull)\n";
  if (!o.plot.empty()) t << "plot             " << o.plot << "\n";
  out.text = t.str();
  return out;
}

// Options that would do nothing for the kind of audit asked for are refused, naming the option.
void refuse_unused_audit_options(const AuditOptions& o) {
  const bool merge = !o.args.empty() && o.args.front() == "merge";
  const bool mechanism = !merge && !o.args.empty() && o.args.front().find(':') != std::string::npos;
  if (!o.projection.empty() && o.samples.empty())
    throw InputError("--projection projects the vectors of --samples FILE: give it with --samples");
  if (!o.neighbour_samples.empty() && o.samples.empty())
    throw InputError("--neighbour-samples goes with --samples FILE (the outputs on D)");
  if (o.exact_loss && (mechanism || merge || !o.samples.empty() || !o.canary_scores.empty()))
    throw InputError("--exact-loss is for an ALGORITHM with a per-run exact loss (Xiao 2019, wang-nedic, dp-sgd), not for " +
                     std::string(merge ? "audit merge" : mechanism ? "a mechanism target" : !o.samples.empty() ? "--samples" : "--canary-scores"));
  if (merge) {
    for (const auto& [given, name] : {std::pair{!o.runs.empty(), "--runs"}, std::pair{o.seed_given, "--seed"},
                                      std::pair{o.threads != 0, "--threads"}, std::pair{!o.shard.empty(), "--shard"},
                                      std::pair{!o.sets.empty(), "--set"}, std::pair{!o.injects.empty(), "--inject"},
                                      std::pair{!o.test.empty(), "--test"}, std::pair{!o.claim.empty(), "--claim"},
                                      std::pair{!o.out.empty(), "--out"}})
      if (given)
        throw InputError(std::string(name) + " is not for audit merge: the shards carry what their audit was given "
                         "(give " + name + " to audit TARGET --shard i/n)");
  }
}

Output run_audit(const AuditOptions& o) {
  check_plot_path(o.plot);
  refuse_unused_audit_options(o);
  if (!o.canary_scores.empty()) return run_canary_scores(o);
  if (!o.method.empty() || !o.thresholds.empty() || !o.threshold.empty() || !o.guesses.empty() || !o.fpr.empty())
    throw InputError("--method, --thresholds, --threshold, --guesses and --fpr are for --canary-scores FILE");
  if (!o.exec.empty()) return run_exec(o);
  if (!o.dataset.empty() || !o.neighbour.empty()) throw InputError("--dataset and --neighbour are for --exec 'CMD {}'");
  if (!o.samples.empty()) {
    if (!o.runs.empty()) throw InputError("--runs is for a TARGET: --samples audits the lines of the files");
    if (!o.args.empty()) throw InputError("audit: give either TARGET or --samples, not both");
    return run_samples(o);
  }
  if (o.args.empty()) throw InputError("audit: give a TARGET (e.g. laplace:b=1), --samples FILE, --exec 'CMD {}', or merge FILE...");
  if (o.args.front() == "merge") return run_merge(o);
  if (o.args.size() > 1) throw InputError("audit: one TARGET expected, got " + std::to_string(o.args.size()) + " arguments");
  if (!o.epsilon.empty() || !o.mu.empty())
    throw InputError("--epsilon/--mu are for --samples: a built-in target's claim comes from the accountant");
  if (o.args.front().find(':') == std::string::npos) {
    if (o.list_faults) {
      (void)algorithms::find_algorithm(o.args.front());
      if (!is_auditable(o.args.front())) throw NotApplicable("audit " + o.args.front() + ": no algorithm audit, no faults");
      Output out;
      out.json["command"] = "audit";
      out.json["target"] = o.args.front();
      out.json["faults"] = applicable_faults(o.args.front());
      std::ostringstream t;
      for (const auto& f : applicable_faults(o.args.front()))
        t << (f == "unsampled" || f == "reuse-noise" ? f : f + "=F") << "\n";
      out.text = t.str();
      return out;
    }
    if (!o.injects.empty() || !o.test.empty() || !o.claim.empty())
      if (o.exact_loss || !is_auditable(o.args.front()))
        throw InputError("--inject, --test and --claim are for the algorithm audits (dpledger audit ALGORITHM)");
    if (o.exact_loss || !is_auditable(o.args.front())) {
      if (!has_known_density(o.args.front()) && !o.exact_loss) {
        (void)algorithms::find_algorithm(o.args.front());
        std::string known;
        for (const auto& a : auditable_algorithms()) known += (known.empty() ? "" : ", ") + a;
        for (const auto& a : known_density_algorithms()) known += ", " + a + " (--exact-loss)";
        throw NotApplicable("audit " + o.args.front() + ": no audit for this algorithm yet (audited: " + known + ")");
      }
      return run_whitebox(o);
    }
    return run_algorithm_audit(o);
  }
  const auto sets = algorithms::parse_assignments(o.sets);
  const MechanismTarget target =
      make_mechanism_target(o.args.front(), sets, o.delta.empty() ? std::nullopt : std::optional(parse_delta("--delta", o.delta, true).up));
  SamplingPlan plan;
  plan.runs = parse_runs(o.runs.empty() ? "1000000" : o.runs);
  plan.seed = o.seed;
  const double confidence = parse_confidence(o.confidence), tolerance = parse_tolerance(o.tolerance);
  // Default: every core, at most 32 (each thread holds its own counts and stack).
  plan.threads = o.threads ? o.threads : std::clamp(std::thread::hardware_concurrency(), 1u, 32u);
  if (!o.shard.empty()) {
    std::tie(plan.shard_index, plan.shard_count) = parse_shard(o.shard);
    if (o.out.empty()) throw InputError("--shard=" + o.shard + " needs --out FILE for the partial counts");
  } else if (!o.out.empty()) {
    throw InputError("--out=" + o.out + " is for --shard i/n (partial counts)");
  }
  validate_plan(plan);
  require_mechanism_audit_resources(target, plan);
  Progress bar("audit");
  const ThresholdCounts counts = sample_mechanism(target, plan, runs_progress(bar));
  if (!o.shard.empty()) {
    Shard s;
    s.version = version_string();
    s.target = target.spec;
    s.sets = sets;
    if (!o.delta.empty()) s.delta = target.claim.delta;
    s.runs = plan.runs;
    s.seed = plan.seed;
    s.shard_index = plan.shard_index;
    s.shard_count = plan.shard_count;
    s.confidence = confidence;
    s.tolerance = tolerance;
    s.counts = counts;
    stage_output(o.out, to_json(s).dump() + "\n");
    Output out;
    out.json["command"] = "audit";
    out.json["target"] = target.spec;
    out.json["shard"] = o.shard;
    out.json["out"] = o.out;
    out.json["runs"] = plan.runs;
    out.json["seed"] = plan.seed;
    out.json["confidence"] = confidence;
    out.text = "shard " + o.shard + " of " + target.spec + " (" + std::to_string(plan.runs) + " runs in all, seed " +
               std::to_string(plan.seed) + ") written to " + o.out + "; combine with: dpledger audit merge FILE...\n";
    return out;
  }
  return mechanism_output(target, counts, plan.runs, plan.seed, confidence, tolerance, sets, plan.threads, o.plot);
}

const Registration audit_registration{"audit", 60, [](CLI::App& root, CLI::App*& sub) -> Runner {
  auto o = std::make_shared<AuditOptions>();
  sub = root.add_subcommand("audit",
                            "Empirical lower bound on epsilon (threshold test, exact Clopper-Pearson bounds) against the "
                            "claim: exit 0 pass, 3 violation, 4 inconclusive");
  sub->add_option("TARGET", o->args,
                  "laplace:b=B[,sens=S] | gaussian:sigma=S[,sens=S] | ALGORITHM (dgd-secret-sharing, "
                  "admm-random-aggregation, dsgd-random-aggregation, dsgd-random-aggregation-minmax, dp-sgd, dp-cd, "
                  "admm-centralized, admm-lasso, admm-federated, admm-decentralized, dp-dda-node-sampling, "
                  "wang-nedic, dvp-admm, private-radmm: distinguishing and noise tests against the run's claim, the "
                  "threat model printed; --exact-loss: Xiao 2019, wang-nedic, dp-sgd) | merge FILE... (shards "
                  "written by --shard)");
  sub->add_option("--runs", o->runs,
                  "Runs on EACH of D and D' (half choose the event, half estimate it), integer in [2, 1e13], default "
                  "1e6; for an ALGORITHM: runs with independent seeds, [4, 1e7], default 1000 (dgd-secret-sharing 8000, "
                  "dp-sgd 4000, admm-centralized and admm-random-aggregation 2000; --exact-loss: [1, 1e6]); for --exec: outputs wanted on each side, "
                  "[2, 1e7], required");
  sub->add_option("--confidence", o->confidence, "Confidence C in (0, 1) of the lower bound")->capture_default_str();
  auto* seed = sub->add_option("--seed", o->seed, "Seed, an integer in [0, 2^64); the result does not depend on --threads")
      ->check(seed_value())
      ->capture_default_str();
  sub->add_option("--threads", o->threads, "Worker threads (default: all cores)")
      ->check(integer_in(1, 1024));
  sub->add_option("--delta", o->delta, "Claimed delta in [0, 1) (default: 0 for laplace, 1e-5 for gaussian and --canary-scores)");
  sub->add_option("--set", o->sets, "key=value, repeatable: for laplace/gaussian and dp-sgd, actual_noise_factor=F draws F times the "
                  "claimed noise (negative control); for an ALGORITHM, its run keys (dpledger run ALGORITHM --parameters)");
  sub->add_option("--tolerance", o->tolerance,
                  "Largest resolution (estimate - lower bound, in epsilon or mu) that still allows PASS; beyond it "
                  "the verdict is INCONCLUSIVE")
      ->capture_default_str();
  sub->add_option("--shard", o->shard, "i/n: run only blocks i, i+n, ... (an ALGORITHM: runs i-1, i-1+n, ...) and write "
                  "their partial counts (records) to --out; `audit merge` combines the n files exactly");
  sub->add_option("--out", o->out, "The shard's JSON file for --shard")
      ->check(writable_output_file());
  sub->add_option("--samples", o->samples, "File of outputs of YOUR mechanism on D: one number (or vector) per line");
  sub->add_option("--neighbour-samples", o->neighbour_samples, "File of outputs on the neighbouring D'");
  sub->add_option("--epsilon", o->epsilon, "Claimed epsilon for --samples, --exec and --canary-scores (a verdict: exit 0/3/4)");
  sub->add_option("--mu", o->mu, "Claimed Gaussian-DP mu for --samples and --exec (audited in place of epsilon)");
  sub->add_option("--exec", o->exec,
                  "Your program as a shell command, {} where a data set's path goes: run on --dataset and --neighbour "
                  "(alternating, DPLEDGER_SEED set to a fresh seed in [0, 2^31) per call) until each has --runs outputs, "
                  "one number or vector per line; then the test of --samples");
  sub->add_option("--dataset", o->dataset, "For --exec: the data set D");
  sub->add_option("--neighbour", o->neighbour, "For --exec: the neighbouring data set D'");
  sub->add_option("--projection", o->projection, "coord:K (1-based column) or weights:w1,w2,... for vector outputs (--samples, --exec)");
  sub->add_option("--canary-scores", o->canary_scores,
                  "File of one training run's canary scores: CSV `score,included` (header line optional) or JSON lines "
                  "{\"score\": s, \"included\": 0|1}; audits that run (with --method, --delta, --epsilon)");
  sub->add_option("--method", o->method,
                  "For --canary-scores: one-run (default; Steinke, Nasr and Jagielski 2023), one-run-fdp (Mahloujifar, "
                  "Melis and Chaudhuri 2024, Gaussian curve), clopper-pearson, gdp");
  sub->add_option("--thresholds", o->thresholds,
                  "For --canary-scores: bonferroni (default: the best of the guess sets \"k highest scores\", k = 1, 2, 5, 10, ..., "
                  "confidence shared by them) or split "
                  "(chosen on a random half, seeded by --seed, audited on the other)");
  sub->add_option("--threshold", o->threshold, "For --canary-scores: a threshold fixed in advance (score >= T guessed included)");
  sub->add_option("--guesses", o->guesses,
                  "For --canary-scores one-run: K+[,K-], guess included on the K+ highest scores and excluded on the K- "
                  "lowest (fixed in advance)");
  sub->add_option("--fpr", o->fpr, "For --canary-scores: FPRs at which to report the attack's TPR (default 0.001,0.01,0.1)");
  sub->add_option("--inject", o->injects,
                  "For an ALGORITHM, repeatable: a fault injected into the run's code (the claim unchanged): noise=F, "
                  "clip=F, sensitivity=F, unsampled, reuse-noise (`--list-faults ALGORITHM` names those that apply)");
  sub->add_option("--test", o->test,
                  "For an ALGORITHM: which test carries the verdict: distinguishing (black-box, on the released "
                  "outputs), noise (white-box, the noise drawn) or both (default)");
  sub->add_option("--claim", o->claim,
                  "For an ALGORITHM: accounted (default: dpledger's certified curve of the run) or paper (the paper's "
                  "printed epsilon, where it states one)");
  sub->add_flag("--list-faults", o->list_faults, "With an ALGORITHM: the faults --inject can put into its code");
  sub->add_flag("--exact-loss", o->exact_loss,
               "For an ALGORITHM with a per-run exact loss (Xiao 2019, wang-nedic, dp-sgd): the per-run loss audit against "
               "the paper's claim (its arithmetic) instead of the distinguishing and noise tests");
  sub->add_option("--plot", o->plot, "Write the audit picture (SVG): output histograms and the event, or the loss histogram")
      ->check(writable_output_file());
  return [o, seed] {
    o->seed_given = seed->count() > 0;
    return run_audit(*o);
  };
}};

}  // namespace
}  // namespace dpl::cli
