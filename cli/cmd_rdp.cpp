// SPDX-License-Identifier: Apache-2.0
// `dpledger rdp`: the Renyi-DP curve of a composition at chosen orders.
#include "accounting/errors.h"
#include "accounting/numeric/decimal.h"
#include "accounting/numeric/exact_rational.h"
#include "accounting/numeric/portable_math.h"
#include "accounting/rdp/rdp_accountant.h"
#include "accounting/rdp/rdp_orders_table.h"
#include "cli/command_registry.h"
#include "cli/ledger_file_option.h"
#include "cli/ledger_options.h"
#include "cli/option_values.h"
#include "cli/output_file.h"
#include "cli/resource_limits.h"
#include "plotting/svg_plot.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iomanip>
#include <limits>
#include <memory>
#include <sstream>

namespace dpl::cli {
namespace {

constexpr const char* kDefaultOrders =
    "1.25,1.5,1.75,2,2.5,3,3.5,4,4.5,5,6,7,8,9,10,12,14,16,20,24,32,48,64,128,256,512,1024,inf";

struct RdpOptions {
  std::vector<std::string> specs, ledgers;
  std::string orders = kDefaultOrders, plot;
};

// --plot: the composed curve at 120 log-spaced orders in (1, 1e4] (the fast certified path, upper bounds) with the
// requested finite orders marked; log axes when the values span more than two decades.
void write_rdp_plot(const ComposedRdp& rdp, const std::vector<double>& orders, const std::string& path) {
  plotting::Plot p;
  p.title = "Renyi DP curve of the composition (certified upper bounds)";
  plotting::PlotSeries line{"RDP epsilon(alpha)", {}, {}}, marks{"requested orders", {}, {}};
  marks.points = true;
  for (int i = 0; i <= 120; ++i) {
    const double a = 1 + portable::pow(10.0, -2 + 6.0 * i / 120);  // 1.01 .. 1e4
    if (a > 1e4) continue;
    const Interval v = rdp.certified_at(a);
    if (!is_finite(v)) continue;
    line.x.push_back(a);
    line.y.push_back(hi_up(v));
  }
  for (double a : orders)
    if (std::isfinite(a)) {
      const Interval v = rdp.certified_at(a);
      if (!is_finite(v)) continue;
      marks.x.push_back(a);
      marks.y.push_back(hi_up(v));
    }
  double lo = std::numeric_limits<double>::infinity(), hi_v = 0;
  for (double y : line.y)
    if (y > 0) lo = std::min(lo, y), hi_v = std::max(hi_v, y);
  p.x = {"Renyi order alpha (log scale)", true};
  p.y = {hi_v > 100 * lo ? "RDP epsilon (log scale)" : "RDP epsilon", hi_v > 100 * lo};
  p.series = {line, marks};
  stage_output(path, plotting::render_svg(p));
}

std::vector<double> parse_orders(const std::string& text) {
  std::vector<double> out;
  std::size_t pos = 0;
  while (true) {
    const auto comma = text.find(',', pos);
    const std::string item = text.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    double a;
    if (item == "inf") {
      a = std::numeric_limits<double>::infinity();
    } else {
      a = parse_finite("--orders", item);
      if (!(a > 1) || a > 1e7)
        throw InputError("--orders=" + item + " is out of range: allowed (1, 1e7] or inf");
    }
    out.push_back(a);
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  return out;
}

Output run_rdp(const RdpOptions& o) {
  require_some_ledger(o.specs, o.ledgers);
  const Ledger ledger = parse_ledger(specs_with_files(o.specs, o.ledgers));
  const std::vector<double> orders = parse_orders(o.orders);
  const ComposedRdp rdp(ledger);
  // The cost per order grows with the distinct curves and varies a hundredfold between orders (a subsampled
  // curve takes 0.1 to 15 ms per order), so no estimate is made before the work: the work is named for
  // --time-limit's message.
  describe_work("rdp of " + std::to_string(rdp.distinct_curves()) + " distinct curves at " +
                std::to_string(orders.size()) + " orders" + (o.plot.empty() ? "" : " (and the plot's 121)"));
  Output out;
  out.json["command"] = "rdp";
  Json jo = Json::array(), jr = Json::array();
  std::ostringstream t;
  t << std::left << std::setw(12) << "order" << "RDP epsilon (upper bound, rounded up)\n";
  for (const RdpAtOrder& v : composed_rdp_at_orders(rdp, orders)) {
    // Exact rational curves print their exact value rounded up; the others their certified upper end.
    const std::string text = v.exact ? format_up_rational(*v.exact) : format_upper(v.bound);
    jo.push_back(std::isinf(v.order) ? Json("inf") : json_input(v.order));
    jr.push_back(json_upper_decimal(text));  // never null, never below the text's decimal
    t << std::left << std::setw(12) << format_input(v.order) << text << "\n";
  }
  out.json["orders"] = jo;
  out.json["rdp"] = jr;
  out.json["mechanisms"] = ledger_json(ledger);
  out.json["method"] = "per-step RDP curves composed additively (Mironov 2017, Prop. 1); upper bounds";
  out.text = t.str();
  if (!o.plot.empty()) {
    write_rdp_plot(rdp, orders, o.plot);
    out.json["plot"] = o.plot;
  }
  return out;
}

const Registration rdp_registration{"rdp", 20, [](CLI::App& root, CLI::App*& sub) -> Runner {
  auto o = std::make_shared<RdpOptions>();
  sub = root.add_subcommand("rdp", "Renyi-DP curve of the composition at the given orders (upper bounds)");
  add_mechanism_option(sub, o->specs);
  add_ledger_file_option(sub, o->ledgers);
  sub->add_option("--orders", o->orders, "Comma-separated Renyi orders, each in (1, 1e7] or 'inf'; at most 1000, and "
                                         "at most about 3 s of work for the ledger")
      ->capture_default_str();
  sub->add_option("--plot", o->plot, "Write an SVG of the RDP curve over orders 1.01 to 1e4 (log axis), the requested "
                                     "orders marked")
      ->check(writable_output_file());
  return [o] { return run_rdp(*o); };
}};

}  // namespace
}  // namespace dpl::cli
