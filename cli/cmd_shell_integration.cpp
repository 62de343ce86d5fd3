// `dpledger manpage` and `dpledger completion bash`: the man page and the bash completion script, generated from
// the CLI definitions themselves (every subcommand and option registered with CLI11), so they never drift from
// `--help`. The build runs both and `cmake --install` / the .deb put the results in place.
#include "accounting/mechanisms/mechanism_spec.h"
#include "cli/command_registry.h"
#include "cli/output_file.h"

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
std::string roff(const std::string& s) {
  std::string r;
  for (char c : s) {
    if (c == '\\') r += "\\e";
    else if (c == '-') r += "\\-";
    else r += c;
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
  for (const CLI::App* s : commands_of(app)) man_command(m, *s, full);
}

std::string man_page(const CLI::App& root) {
  std::ostringstream m;
  m << ".TH DPLEDGER 1 \"\" \"dpledger\" \"User Commands\"\n"
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

std::string bash_completion(const CLI::App& root) {
  std::ostringstream b;
  b << "# bash completion for dpledger (generated by `dpledger completion bash` from the CLI definitions)\n"
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
    << "  local cmd=\"\" sub=\"\" i\n"
    << "  for ((i = 1; i < cword; i++)); do\n"
    << "    case \"${words[i]}\" in -*) ;; *) if [[ -z \"$cmd\" ]]; then cmd=\"${words[i]}\"; elif [[ -z \"$sub\" ]]; "
       "then sub=\"${words[i]}\"; fi ;; esac\n"
    << "  done\n"
    << "  local w\n"
    << "  case \"$cmd\" in\n";
  std::string cmds;
  for (const CLI::App* s : commands_of(root)) {
    cmds += (cmds.empty() ? "" : " ") + s->get_name();
    std::string subs;
    for (const CLI::App* ss : commands_of(*s)) subs += (subs.empty() ? "" : " ") + ss->get_name();
    b << "    " << s->get_name() << ")\n";
    for (const CLI::App* ss : commands_of(*s))
      b << "      if [[ \"$sub\" == " << ss->get_name() << " ]]; then w=\"" << option_words(*ss) << "\"; else\n";
    b << "      w=\"" << option_words(*s) << (subs.empty() ? "" : " " + subs) << "\"";
    for (std::size_t i = 0; i < commands_of(*s).size(); ++i) b << "; fi";
    b << " ;;\n";
  }
  b << "    \"\") w=\"" << cmds << " " << option_words(root) << "\" ;;\n"
    << "  esac\n"
    << "  if [[ \"$cur\" != -* && -n \"$cmd\" ]]; then compopt +o nospace 2>/dev/null; "
       "COMPREPLY=($(compgen -f -- \"$cur\")); [[ \"$cmd\" == run || \"$cmd\" == audit ]] || return; fi\n"
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
