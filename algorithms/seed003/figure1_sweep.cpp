#include "algorithms/seed003/figure1_sweep.h"

#include "accounting/errors.h"
#include "algorithms/run/algorithm_registry.h"
#include "algorithms/seed003/ledger_epsilon.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <map>
#include <sstream>

namespace dpl::algorithms::seed003 {

namespace {

RunResult run_named(const std::string& name, const std::vector<std::string>& sets, std::uint64_t seed) {
  RunParameters p = RunParameters::from_assignments(sets);
  return find_algorithm(name).run(p, seed);
}

double number(const Json& j) { return j.is_number() ? j.get<double>() : HUGE_VAL; }

}  // namespace

std::vector<Figure1Row> run_figure1(const Figure1Config& c, const ProgressCallback& progress) {
  if (c.seeds < 1 || c.seeds > 100) throw InputError("--seeds=" + std::to_string(c.seeds) + " is out of range: allowed integers [1, 100]");
  if (c.K < 1 || c.K > 100000) throw InputError("--K=" + std::to_string(c.K) + " is out of range: allowed integers [1, 100000]");
  if (static_cast<double>(c.K) * c.seeds > 50000)
    throw InputError("--K x --seeds = " + std::to_string(c.K * c.seeds) + " is too large: allowed at most 50000 (about "
                     "ten minutes on 2 cores)");
  if (c.nu.empty()) throw InputError("--nu: at least one noise multiplier is needed");
  const std::vector<std::string> problem{"data=lasso-synthetic", "loss=squared", "l2=0", "l1=" + spec_number(c.kappa),
                                         "K=" + std::to_string(c.K), "delta=1e-6"};
  std::vector<Figure1Row> rows;
  std::size_t pairs_done = 0;
  for (double nu : c.nu) {
    if (!(nu > 0) || !std::isfinite(nu)) throw InputError("--nu: " + spec_number(nu) + " is out of range: allowed (0, inf)");
    std::map<std::string, std::vector<double>> objective, epsilon;
    std::vector<double> optimum;
    for (int s = 0; s < c.seeds; ++s) {
      if (progress) {
        progress(static_cast<double>(pairs_done++) / static_cast<double>(c.nu.size() * static_cast<std::size_t>(c.seeds)),
                 "noise multiplier " + spec_number(nu) + ", seed " + std::to_string(s + 1) + " of " + std::to_string(c.seeds));
      }
      const auto seed = static_cast<std::uint64_t>(1000 + s);  // the same data for both methods at a seed
      // DP-SGD: fixed-size batches of m = n/10, replace-one sensitivity 2C of a clipped gradient, noise std
      // sigma C: ratio 2/sigma = 1/nu.
      auto sgd_sets = problem;
      for (const std::string& x : std::vector<std::string>{"sampling=fixed", "q=0.1", "accountant=rdp", "gamma=" + spec_number(c.sgd_gamma),
                                   "C=" + spec_number(c.sgd_clip), "sigma=" + spec_number(2 * nu)})
        sgd_sets.push_back(x);
      const RunResult sgd = run_named("dp-sgd", sgd_sets, seed);
      objective["dp-sgd"].push_back(sgd.extra["test_objective"].get<double>());
      epsilon["dp-sgd"].push_back(number(sgd.accounted["epsilon"]));
      // ADMM (Algorithm 3 with Algorithm 6's clipping): sensitivity 2C of Clip(x_i - z) + eta/2, std sigma/2:
      // ratio 4C/sigma = 1/nu.
      auto admm_sets = problem;
      for (const std::string& x : std::vector<std::string>{"gamma=" + spec_number(c.admm_gamma), "C=" + spec_number(c.admm_clip),
                                   "sigma=" + spec_number(4 * c.admm_clip * nu), "lambda=1"})
        admm_sets.push_back(x);
      const RunResult admm = run_named("admm-federated", admm_sets, seed);
      const double obj = admm.extra["test_objective"].get<double>();
      objective["admm (subsampled, paper's model)"].push_back(obj);
      objective["admm (certified)"].push_back(obj);
      epsilon["admm (subsampled, paper's model)"].push_back(number(admm.accounted["subsampled_epsilon_not_certified"]));
      epsilon["admm (certified)"].push_back(number(admm.accounted["epsilon"]));
      optimum.push_back(admm.extra["test_objective_at_optimum"].get<double>());
    }
    for (const std::string name : {"dp-sgd", "admm (subsampled, paper's model)", "admm (certified)"}) {
      Figure1Row r;
      r.method = name;
      r.nu = nu;
      r.certified = name != "admm (subsampled, paper's model)";
      const auto& v = objective[name];
      const auto& e = epsilon[name];
      for (double x : v) r.mean += x / static_cast<double>(v.size());
      for (double x : v) r.sd += (x - r.mean) * (x - r.mean) / std::max<double>(1, static_cast<double>(v.size()) - 1);
      r.sd = std::sqrt(r.sd);
      for (double x : e) r.epsilon += x / static_cast<double>(e.size());
      for (double x : optimum) r.optimum += x / static_cast<double>(optimum.size());
      rows.push_back(r);
    }
  }
  return rows;
}

std::string figure1_csv(const std::vector<Figure1Row>& rows) {
  std::ostringstream s;
  s << std::setprecision(10);
  s << "method,noise_multiplier,epsilon,certified,test_objective_mean,test_objective_sd,test_objective_at_optimum\n";
  for (const auto& r : rows)
    s << r.method << "," << r.nu << "," << r.epsilon << "," << (r.certified ? "yes" : "no") << "," << r.mean << ","
      << r.sd << "," << r.optimum << "\n";
  return s.str();
}

std::string figure1_svg(const std::vector<Figure1Row>& rows) {
  const double W = 760, H = 460, left = 95, right = 250, top = 40, bottom = 60;
  const double pw = W - left - right, ph = H - top - bottom;
  double xmin = HUGE_VAL, xmax = 0, ymin = HUGE_VAL, ymax = 0;
  for (const auto& r : rows) {
    if (!(r.epsilon > 0) || !std::isfinite(r.epsilon)) continue;
    xmin = std::min(xmin, r.epsilon), xmax = std::max(xmax, r.epsilon);
    ymin = std::min(ymin, std::max(r.mean - r.sd, r.mean * 0.5)), ymax = std::max(ymax, r.mean + r.sd);
  }
  const double lx0 = std::floor(std::log10(xmin)), lx1 = std::ceil(std::log10(xmax));
  for (const auto& r : rows) ymin = std::min(ymin, r.optimum * 0.8);
  const double ly0 = std::floor(std::log10(ymin)), ly1 = std::ceil(std::log10(ymax));
  auto X = [&](double e) { return left + pw * (std::log10(e) - lx0) / (lx1 - lx0); };
  auto Y = [&](double v) { return top + ph * (1 - (std::log10(std::max(v, 1e-300)) - ly0) / (ly1 - ly0)); };
  std::ostringstream s;
  s << std::setprecision(6);
  s << "<svg xmlns='http://www.w3.org/2000/svg' width='" << W << "' height='" << H
    << "' font-family='sans-serif' font-size='12'>\n<rect width='100%' height='100%' fill='white'/>\n";
  s << "<text x='" << left << "' y='22' font-size='14'>Lasso (n=1000, p=64), federated, 10% users per round: "
    << "test objective vs epsilon</text>\n";
  s << "<rect x='" << left << "' y='" << top << "' width='" << pw << "' height='" << ph
    << "' fill='none' stroke='black'/>\n";
  for (double e = lx0; e <= lx1 + 1e-9; e += 1) {
    for (int m = 1; m < 10; ++m) {
      const double v = std::pow(10.0, e) * m;
      if (std::log10(v) > lx1 + 1e-9) break;
      const double x = X(v);
      s << "<line x1='" << x << "' y1='" << top + ph << "' x2='" << x << "' y2='" << top + ph + (m == 1 ? 6 : 3)
        << "' stroke='black'/>\n";
      if (m == 1) {
        s << "<line x1='" << x << "' y1='" << top << "' x2='" << x << "' y2='" << top + ph << "' stroke='#ddd'/>\n";
        s << "<text x='" << x << "' y='" << top + ph + 20 << "' text-anchor='middle'>" << std::pow(10.0, e) << "</text>\n";
      }
    }
  }
  for (double e = ly0; e <= ly1 + 1e-9; e += 1) {
    const double y = Y(std::pow(10.0, e));
    s << "<line x1='" << left - 6 << "' y1='" << y << "' x2='" << left + pw << "' y2='" << y << "' stroke='#ddd'/>\n";
    s << "<text x='" << left - 10 << "' y='" << y + 4 << "' text-anchor='end'>" << std::pow(10.0, e) << "</text>\n";
  }
  s << "<text x='" << left + pw / 2 << "' y='" << H - 15 << "' text-anchor='middle'>epsilon (delta = 1e-6, log scale)</text>\n";
  s << "<text transform='translate(18," << top + ph / 2 << ") rotate(-90)' text-anchor='middle'>test objective (log scale)</text>\n";
  if (!rows.empty() && rows.front().optimum > 0) {
    const double y = Y(rows.front().optimum);
    s << "<line x1='" << left << "' y1='" << y << "' x2='" << left + pw << "' y2='" << y
      << "' stroke='#777' stroke-dasharray='2,3'/>\n";
    s << "<text x='" << left + 6 << "' y='" << y - 5 << "' fill='#555' font-size='10'>non-private "
      << "Lasso optimum</text>\n";
  }
  const std::vector<std::pair<std::string, std::string>> series{
      {"dp-sgd", "#d62728"}, {"admm (subsampled, paper's model)", "#1f77b4"}, {"admm (certified)", "#2ca02c"}};
  const std::map<std::string, std::string> label{
      {"dp-sgd", "proximal DP-SGD (certified)"},
      {"admm (subsampled, paper's model)", "private ADMM, paper's model"},
      {"admm (certified)", "private ADMM, certified"}};
  double ly = top + 10;
  for (const auto& [name, col] : series) {
    std::ostringstream path;
    for (const auto& r : rows) {
      if (r.method != name || !(r.epsilon > 0) || !std::isfinite(r.epsilon)) continue;
      const double x = X(r.epsilon);
      path << (path.tellp() == 0 ? "M" : " L") << x << " " << Y(r.mean);
      s << "<line x1='" << x << "' y1='" << Y(std::max(r.mean - r.sd, 1e-300)) << "' x2='" << x << "' y2='"
        << Y(r.mean + r.sd) << "' stroke='" << col << "'/>\n";
      s << "<circle cx='" << x << "' cy='" << Y(r.mean) << "' r='3.5' fill='" << col << "'/>\n";
    }
    const bool dashed = name == "admm (subsampled, paper's model)";
    s << "<path d='" << path.str() << "' fill='none' stroke='" << col << "' stroke-width='2'"
      << (dashed ? " stroke-dasharray='6,4'" : "") << "/>\n";
    s << "<line x1='" << left + pw + 15 << "' y1='" << ly << "' x2='" << left + pw + 40 << "' y2='" << ly << "' stroke='"
      << col << "' stroke-width='2'" << (dashed ? " stroke-dasharray='6,4'" : "") << "/>\n";
    s << "<text x='" << left + pw + 46 << "' y='" << ly + 4 << "'>" << label.at(name) << "</text>\n";
    ly += 22;
  }
  s << "<text x='" << left + pw + 15 << "' y='" << ly + 8 << "' font-size='10'>points: noise multipliers;</text>\n";
  s << "<text x='" << left + pw + 15 << "' y='" << ly + 22 << "' font-size='10'>bars: one std over seeds</text>\n";
  s << "</svg>\n";
  return s.str();
}

}  // namespace dpl::algorithms::seed003
