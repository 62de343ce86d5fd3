// SPDX-License-Identifier: Apache-2.0
// `dpledger manpage` and `dpledger completion bash`: the man page and the bash completion script, generated from
// the CLI definitions themselves (every subcommand and option registered with CLI11), so they never drift from
// `--help`. The build runs both and `cmake --install` / the .deb put the results in place.
#include "accounting/composition/accounting_result.h"
#include "accounting/mechanisms/dp_event_text.h"
#include "accounting/mechanisms/mechanism_spec.h"
#include "algorithms/run/algorithm_registry.h"
#include "algorithms/sweeps/figure_registry.h"
#include "audit/whitebox_audit.h"
#include "proofs-check/registry.h"
#include "cli/command_examples.h"
#include "cli/command_registry.h"
#include "cli/output_file.h"
#include "cli/provenance.h"

#include <algorithm>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace dpl::cli {
namespace {

const std::vector<MechanismKind>& all_mechanisms() { return all_mechanism_kinds(); }

// The named subcommands of an app (CLI11 option groups have no name and are not commands).
std::vector<const CLI::App*> commands_of(const CLI::App& app) {
  std::vector<const CLI::App*> out;
  for (const CLI::App* s : app.get_subcommands([](const CLI::App* a) { return !a->get_name().empty(); }))
    out.push_back(s);
  return out;
}

std::vector<const CLI::Option*> options_of(const CLI::App& app) {
  std::vector<const CLI::Option*> out;
  for (const CLI::Option* o : app.get_options())
    if (!o->get_positional()) out.push_back(o);
  return out;
}

std::vector<std::string> names_of(const CLI::Option& o) {
  std::vector<std::string> n;
  for (const auto& s : o.get_snames()) n.push_back("-" + s);
  for (const auto& l : o.get_lnames()) n.push_back("--" + l);
  return n;
}

// roff escapes: backslash, leading dot/quote, and '-' as a real minus in option names.
// Text for the man page: backslashes and hyphens escaped; in filled text (not the examples) a break point \: after
// every ',', '|' and '/' that no space follows, so that long lists (a default of 28 orders, a set of class names) can
// break at the page width instead of overflowing it (groff's "can't break line").
std::string roff(const std::string& s, bool filled = true) {
  std::string r;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '\\') r += "\\e";
    else if (c == '-') r += "\\-";
    else r += c;
    if (filled && (c == ',' || c == '|' || c == '/') && i + 1 < s.size() && s[i + 1] != ' ') r += "\\:";
  }
  if (!r.empty() && (r[0] == '.' || r[0] == '\'')) r = "\\&" + r;
  return r;
}

void man_options(std::ostringstream& m, const CLI::App& app) {
  for (const CLI::Option* o : options_of(app)) {
    std::string names;
    for (const auto& n : names_of(*o)) names += (names.empty() ? "" : ", ") + std::string("\\fB") + roff(n) + "\\fR";
    if (names.empty() || (o->get_name() == "--help" && app.get_parent() != nullptr)) continue;
    const std::string type = o->get_type_name();
    m << ".TP\n" << names << (type.empty() || o->get_type_size() == 0 ? "" : " \\fI" + roff(type) + "\\fR") << "\n";
    std::string d = o->get_description();
    if (!o->get_default_str().empty() && d.find("default") == std::string::npos)
      d += " (default: " + o->get_default_str() + ")";
    m << roff(d) << "\n";
  }
}

void man_command(std::ostringstream& m, const CLI::App& app, const std::string& prefix) {
  const std::string full = prefix.empty() ? app.get_name() : prefix + " " + app.get_name();
  m << ".SS \"dpledger " << roff(full) << "\"\n" << roff(app.get_description()) << "\n";
  man_options(m, app);
  if (const auto& examples = command_examples(app.get_name()); !examples.empty()) {
    m << ".PP\nExamples:\n";
    for (const auto& e : examples)
      m << ".PP\n" << roff(e.what) << "\n.RS\n.EX\n" << roff(e.command, false) << "\n.EE\n.RE\n";
  }
  for (const CLI::App* s : commands_of(app)) man_command(m, *s, full);
}

std::string man_page(const CLI::App& root) {
  std::ostringstream m;
  m << ".TH DPLEDGER 1 \"\" \"dpledger " << roff(version_string()) << "\" \"User Commands\"\n"
    // Left-aligned, not justified: option lists and defaults hold long words that a justified line cannot
    // stretch around without groff's "cannot adjust line".
    << ".ad l\n"
    << ".SH NAME\ndpledger \\- certified differential\\-privacy accounting and verification of private "
       "optimisation\n"
    << ".SH SYNOPSIS\n.B dpledger\n[\\fB\\-\\-json\\fR] [\\fB\\-q\\fR] \\fICOMMAND\\fR [\\fIOPTIONS\\fR]\n"
    << ".SH DESCRIPTION\n" << roff(root.get_description()) << "\n.PP\n"
    << "Every epsilon or delta printed as a bound is certified (interval arithmetic or directed rounding) and "
       "rounded in the safe direction: an upper bound up, a lower bound down.\n"
    << ".SH GLOBAL OPTIONS\n";
  man_options(m, root);
  m << ".SH COMMANDS\n";
  for (const CLI::App* s : commands_of(root)) man_command(m, *s, "");
  m << ".SH MECHANISM SPECS\nA mechanism is \\fINAME\\fR:\\fIkey\\fR=\\fIvalue\\fR,... (option \\fB\\-m\\fR, "
       "repeatable, composed in order).\n";
  for (MechanismKind k : all_mechanisms()) {
    std::string keys;
    for (const auto& key : allowed_keys(k)) keys += (keys.empty() ? "" : ", ") + key;
    m << ".TP\n\\fB" << to_string(k) << "\\fR\nkeys: " << keys << "\n";
  }
  m << ".SH EXIT STATUS\n"
    << ".TP\n0\nsuccess (audit: pass; check: every claim has its expected status)\n"
    << ".TP\n1\ninternal failure (a bug)\n"
    << ".TP\n2\nbad input or usage: one line on stderr starting with error: that names the option, the value "
       "and the allowed range; nothing on stdout\n"
    << ".TP\n3\naudit: violation; check: a claim's status differs from the one expected\n"
    << ".TP\n4\naudit: inconclusive\n"
    << ".SH SEE ALSO\nThe README and docs/ installed with dpledger (docs/references.md lists every paper and "
       "theorem the formulas come from).\n";
  return m.str();
}

// A bash word list of the long and short option names of an app.
std::string option_words(const CLI::App& app) {
  std::string w;
  for (const CLI::Option* o : options_of(app))
    for (const auto& n : names_of(*o)) w += (w.empty() ? "" : " ") + n;
  return w;
}

// The options of an app that take a value (their next word is not a command or positional argument).
std::string value_option_pattern(const CLI::App& app) {
  std::string w;
  for (const CLI::Option* o : options_of(app))
    if (o->get_type_size() != 0)
      for (const auto& n : names_of(*o)) w += (w.empty() ? "" : "|") + n;
  return w;
}

std::string words(const std::vector<std::string>& v) {
  std::string w;
  for (const auto& x : v) w += (w.empty() ? "" : " ") + x;
  return w;
}

bool has_option(const CLI::App& app, const std::string& name) {
  for (const CLI::Option* o : options_of(app))
    for (const auto& n : names_of(*o))
      if (n == name) return true;
  return false;
}

// The values an option accepts, from the tables the commands validate against (so that completion lists what
// the commands accept, as entries are added): accountants, dp_accounting classes of --asdict-class.
std::vector<std::string> option_values(const std::string& option) {
  if (option == "--accountant") {
    std::vector<std::string> v;
    for (AccountantKind k : all_accountant_kinds()) v.push_back(to_string(k));
    return v;
  }
  if (option == "--asdict-class") return ambiguous_asdict_classes();
  return {};
}

// The values of a command's positional arguments: algorithms (run), figures (sweep), audit targets (a mechanism
// spec, an algorithm, or merge), claim ids and papers (check), shells (completion).
std::vector<std::string> positional_values(const std::string& command) {
  std::vector<std::string> v;
  if (command == "run")
    for (const auto& a : algorithms::algorithm_entries()) v.push_back(a.name);
  if (command == "sweep")
    for (const auto& f : algorithms::sweeps::figure_entries()) v.push_back(f.name);
  if (command == "audit") {
    v = {"merge", "laplace:", "gaussian:"};
    for (const auto& a : audit::known_density_algorithms()) v.push_back(a);
  }
  if (command == "check") {
    std::vector<std::string> papers;
    for (const auto& c : proofs::all_claims()) {
      const std::string paper = c.id.substr(0, c.id.find('/'));
      if (std::find(papers.begin(), papers.end(), paper) == papers.end()) papers.push_back(paper);
      v.push_back(c.id);
    }
    v.insert(v.begin(), papers.begin(), papers.end());
  }
  if (command == "completion") v = {"bash"};
  return v;
}

std::string bash_completion(const CLI::App& root) {
  std::ostringstream b;
  b << "# bash completion for dpledger " << version_string()
    << " (generated by `dpledger completion bash` from the CLI definitions)\n"
    << "_dpledger_mechanism() {\n"
    << "  local cur=\"$1\" name keys base last\n"
    << "  if [[ \"$cur\" != *:* ]]; then\n"
    << "    COMPREPLY=($(compgen -S : -W \"";
  std::string names;
  for (MechanismKind k : all_mechanisms()) names += (names.empty() ? "" : " ") + to_string(k);
  b << names << "\" -- \"$cur\"))\n"
    << "    return\n  fi\n"
    << "  name=\"${cur%%:*}\"\n  case \"$name\" in\n";
  for (MechanismKind k : all_mechanisms()) {
    std::string keys;
    for (const auto& key : allowed_keys(k)) keys += (keys.empty() ? "" : " ") + key;
    b << "    " << to_string(k) << ") keys=\"" << keys << "\" ;;\n";
  }
  b << "    *) return ;;\n  esac\n"
    << "  if [[ \"$cur\" == *,* ]]; then base=\"${cur%,*},\"; last=\"${cur##*,}\"; else base=\"$name:\"; "
       "last=\"${cur#*:}\"; fi\n"
    << "  [[ \"$last\" == *=* ]] && return\n"
    << "  COMPREPLY=($(compgen -P \"$base\" -S = -W \"$keys\" -- \"$last\"))\n"
    << "}\n"
    << "_dpledger_colons() { declare -F __ltrim_colon_completions >/dev/null && __ltrim_colon_completions \"$1\"; }\n"
    << "_dpledger() {\n"
    << "  local cur prev words cword\n"
    << "  if declare -F _get_comp_words_by_ref >/dev/null; then _get_comp_words_by_ref -n := cur prev words cword;\n"
    << "  else cur=\"${COMP_WORDS[COMP_CWORD]}\"; prev=\"${COMP_WORDS[COMP_CWORD-1]}\"; words=(\"${COMP_WORDS[@]}\"); "
       "cword=$COMP_CWORD; fi\n"
    << "  compopt -o nospace 2>/dev/null\n"
    << "  if [[ \"$prev\" == -m || \"$prev\" == --mechanism ]]; then _dpledger_mechanism \"$cur\"; "
       "_dpledger_colons \"$cur\"; return; fi\n"
    // The command and its positional arguments: words that are neither options nor the values of options.
    << "  local cmd=\"\" npos=0 first=\"\" i skip=0 w\n"
    << "  for ((i = 1; i < cword; i++)); do\n"
    << "    if ((skip)); then skip=0; continue; fi\n"
    << "    case \"${words[i]}\" in\n"
    << "      -*=*) ;;\n"
    << "      -*) case \"$cmd\" in\n";
  std::string cmds;
  for (const CLI::App* s : commands_of(root)) {
    cmds += (cmds.empty() ? "" : " ") + s->get_name();
    const std::string pattern = value_option_pattern(*s);
    if (!pattern.empty()) b << "            " << s->get_name() << ") case \"${words[i]}\" in " << pattern << ") skip=1 ;; esac ;;\n";
  }
  b << "          esac ;;\n"
    << "      *) if [[ -z \"$cmd\" ]]; then cmd=\"${words[i]}\"; else ((npos++)); [[ -z \"$first\" ]] && first=\"${words[i]}\"; fi ;;\n"
    << "    esac\n"
    << "  done\n"
    // The value of an option: a list where the option has one, else a file name.
    << "  case \"$cmd $prev\" in\n";
  for (const CLI::App* s : commands_of(root))
    for (const std::string option : {"--accountant", "--asdict-class"})
      if (has_option(*s, option))
        b << "    \"" << s->get_name() << " " << option << "\") compopt +o nospace 2>/dev/null; COMPREPLY=($(compgen -W \""
          << words(option_values(option)) << "\" -- \"$cur\")); return ;;\n";
  for (const CLI::App* s : commands_of(root)) {
    const std::string pattern = value_option_pattern(*s);
    if (pattern.empty()) continue;
    std::string quoted;
    for (const CLI::Option* o : options_of(*s))
      if (o->get_type_size() != 0)
        for (const auto& n : names_of(*o)) quoted += (quoted.empty() ? "" : "|") + ("\"" + s->get_name() + " " + n + "\"");
    b << "    " << quoted << ") compopt +o nospace 2>/dev/null; COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n";
  }
  b << "  esac\n"
    << "  local w=\"\" values=\"\"\n"
    << "  case \"$cmd\" in\n";
  for (const CLI::App* s : commands_of(root)) {
    b << "    " << s->get_name() << ") w=\"" << option_words(*s) << "\"";
    const auto values = positional_values(s->get_name());
    if (!values.empty()) {
      // run, sweep and completion take one positional argument, audit one (or merge FILE...), check any number.
      const std::string name = s->get_name();
      if (name == "check") b << "; values=\"" << words(values) << "\"";
      else if (name == "audit")
        b << "; if ((npos == 0)); then values=\"" << words(values)
          << "\"; elif [[ \"$first\" == merge ]]; then compopt +o nospace 2>/dev/null; "
             "COMPREPLY=($(compgen -f -- \"$cur\")); return; fi";
      else b << "; ((npos == 0)) && values=\"" << words(values) << "\"";
    }
    b << " ;;\n";
  }
  b << "    \"\") w=\"" << cmds << " " << option_words(root) << "\" ;;\n"
    << "  esac\n"
    << "  if [[ \"$cur\" != -* ]]; then\n"
    << "    if [[ -n \"$values\" ]]; then\n"
    << "      local v; for v in $(compgen -W \"$values\" -- \"$cur\"); do [[ \"$v\" == *: ]] && COMPREPLY+=(\"$v\") || "
       "COMPREPLY+=(\"$v \"); done\n"
    << "      _dpledger_colons \"$cur\"; return\n"
    << "    fi\n"
    << "  fi\n"
    << "  COMPREPLY+=($(compgen -S ' ' -W \"$w\" -- \"$cur\"))\n"
    << "}\n"
    << "complete -F _dpledger dpledger\n";
  return b.str();
}

struct ShellOptions {
  std::string shell = "bash", out;
};

Output emit(const std::string& command, const std::string& content, const std::string& out_path) {
  Output o;
  o.json["command"] = command;
  if (!out_path.empty()) {
    stage_output(out_path, content);
    o.json["out"] = out_path;
    o.text = "wrote " + out_path + "\n";
  } else {
    o.json["content"] = content;
    o.text = content;
  }
  return o;
}

const Registration manpage_registration{"manpage", 900, [](CLI::App& root, CLI::App*& sub) -> Runner {
  auto o = std::make_shared<ShellOptions>();
  sub = root.add_subcommand("manpage", "Print the man page (roff), generated from the command definitions");
  sub->add_option("--out", o->out, "Write it to this file instead of standard output")
      ->check(writable_output_file());
  const CLI::App* r = &root;
  return [o, r] { return emit("manpage", man_page(*r), o->out); };
}};

const Registration completion_registration{"completion", 901, [](CLI::App& root, CLI::App*& sub) -> Runner {
  auto o = std::make_shared<ShellOptions>();
  sub = root.add_subcommand("completion",
                            "Print the shell completion script (source it, or install it as "
                            "/usr/share/bash-completion/completions/dpledger)");
  sub->add_option("shell", o->shell, "Shell: bash")->check(CLI::IsMember({"bash"}))->capture_default_str();
  sub->add_option("--out", o->out, "Write it to this file instead of standard output")
      ->check(writable_output_file());
  const CLI::App* r = &root;
  return [o, r] { return emit("completion", bash_completion(*r), o->out); };
}};

}  // namespace
}  // namespace dpl::cli
