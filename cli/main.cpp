// SPDX-License-Identifier: Apache-2.0
// dpledger: certified differential-privacy accounting and verification of private optimisation.
// Thin front end: parse, call the libraries, print; errors map to exit codes (docs/cli.md).
#include "accounting/errors.h"
#include "cli/command_examples.h"
#include "cli/command_registry.h"
#include "cli/did_you_mean.h"
#include "cli/provenance.h"
#include "cli/output_file.h"
#include "cli/resource_limits.h"

#include <CLI/CLI.hpp>
#include <fcntl.h>
#include <malloc.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <limits>
#include <sstream>
#include <string>
#include <system_error>

namespace {

// One line of at most about 400 characters: a message that echoes a long input (a 20 kB spec, a file's line) keeps
// its start (the option or file it names) and its end (the allowed range), with "..." for the middle.
std::string one_line(std::string s) {
  std::replace(s.begin(), s.end(), '\n', ' ');
  while (!s.empty() && s.back() == ' ') s.pop_back();
  constexpr std::size_t kHead = 240, kTail = 160;
  if (s.size() > kHead + kTail + 5) {
    std::size_t head = kHead, tail = s.size() - kTail;
    while (head > 0 && (static_cast<unsigned char>(s[head]) & 0xC0) == 0x80) --head;  // not inside a UTF-8 character
    while (tail < s.size() && (static_cast<unsigned char>(s[tail]) & 0xC0) == 0x80) ++tail;
    s = s.substr(0, head) + " ... " + s.substr(tail);
  }
  return s;
}

int report_error(const std::string& msg, int code) {
  std::cerr << (code == 2 ? "error: " : "internal error: ") << one_line(msg) << "\n";
  return code;
}

// --json anywhere before a bare "--": help and version are thrown during parsing, possibly before the --json
// flag itself has been processed, so the raw arguments decide how they are printed.
bool json_requested(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--") == 0) return false;
    if (std::strcmp(argv[i], "--json") == 0) return true;
  }
  return false;
}

// A standard stream the process was started without (`>&-`) is opened on /dev/null read-only: no file the command
// opens can take its number (a CSV written through std::cout), and every write to it fails (EBADF), so that the
// failure is reported at exit like any other.
void occupy_closed_standard_streams() {
  for (int fd = 0; fd <= 2; ++fd) {
    if (fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
    const int opened = open("/dev/null", O_RDONLY);
    if (opened >= 0 && opened != fd) {
      dup2(opened, fd);
      close(opened);
    }
  }
}

// Everything on standard output is flushed and checked once, at exit: a command whose output could not be written
// (`> /dev/full`, a closed stdout) fails with exit 2 and one line on stderr, never exit 0 having written nothing.
int checked_standard_output(int code) {
  std::cout.flush();
  errno = 0;
  const bool flushed = std::fflush(stdout) == 0;
  const int error = errno;
  if (flushed && !std::ferror(stdout) && std::cout.good()) return code;
  std::cerr << "error: cannot write the standard output"
            << (error != 0 ? std::string(" (") + std::strerror(error) + ")" : std::string()) << "; its text is lost\n";
  return code == 0 ? 2 : code;
}

int run_command_line(int argc, char** argv);

// The main thread's stack grows on demand, and under --memory-limit (RLIMIT_AS) a growth that no longer fits is a
// segmentation fault, not an allocation that fails: its first 4 MB (of the usual 8) are mapped before the limit is
// set, so that a deep call in a command under the limit finds its stack already there.
__attribute__((noinline)) void map_main_stack() {
  std::size_t size = std::size_t{4} << 20;
  rlimit stack{};
  if (getrlimit(RLIMIT_STACK, &stack) == 0 && stack.rlim_cur != RLIM_INFINITY)
    size = std::min<std::size_t>(size, stack.rlim_cur / 2);  // half of a smaller stack limit (ulimit -s)
  volatile char* block = static_cast<volatile char*>(__builtin_alloca(size));
  for (std::size_t i = 0; i < size; i += 4096) block[i] = 0;
}

}  // namespace

int main(int argc, char** argv) {
  occupy_closed_standard_streams();
  return checked_standard_output(run_command_line(argc, argv));
}

namespace {

int run_command_line(int argc, char** argv) {
  using namespace dpl::cli;
  // The PLD allocates and frees arrays of megabytes many times per run; glibc would return each to the kernel
  // (mmap, trimming) and fault the pages in again (zero-filled) on the next allocation: a sixth of a DP-SGD run's
  // wall time. A command-line process keeps its memory until it exits instead.
  mallopt(M_MMAP_THRESHOLD, 1 << 30);
  mallopt(M_TRIM_THRESHOLD, std::numeric_limits<int>::max());
  // Both threads (the PLD's helper included) allocate from the main heap, whose first 512 MB of address space are
  // marked for transparent huge pages (where the kernel offers them on request): the arrays are then faulted in
  // 2 MB at a time instead of 4 kB (system time of a DP-SGD run by PLD 48 -> 15 ms). Address space only: nothing
  // is touched here, and memory a run never uses is never faulted in.
  mallopt(M_ARENA_MAX, 1);
  constexpr std::size_t kHugeHeap = std::size_t{512} << 20, kHugePage = std::size_t{2} << 20;
  if (void* block = std::malloc(kHugeHeap)) {
    const std::uintptr_t begin = (reinterpret_cast<std::uintptr_t>(block) + kHugePage - 1) & ~(kHugePage - 1);
    const std::uintptr_t end = (reinterpret_cast<std::uintptr_t>(block) + kHugeHeap) & ~(kHugePage - 1);
    if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);  // advice: failure is harmless
    std::free(block);  // kept in the heap (no trimming), reused by the next allocations
  }
  CLI::App app{"dpledger: certified differential-privacy accounting and empirical verification of private "
               "(distributed) optimisation.",
               "dpledger"};
  record_arguments(argc, argv);
  app.set_version_flag("--version", "dpledger " + version_string());
  auto& g = global_options();
  app.add_flag("--json", g.json, "Print exactly one JSON object on stdout (accepted before or after the command)");
  app.add_flag("--quiet,-q", g.quiet, "No progress output on stderr");
  app.add_flag("--verbose,-v", g.verbose,
               "Text output with the details: the accountant's method and theorem, accountants that do not apply, notes");
  ResourceLimits& limits = resource_limits();
  app.add_option("--time-limit", limits.cpu_seconds,
                 "Stop the command after this many seconds of CPU time (all threads), exit 2; 0: no limit. Default: "
                 "9 for the accounting commands, run 60, check 120, audit 180, sweep 600")
      ->check(CLI::Validator(
          [](std::string& v) -> std::string {
            char* end = nullptr;
            const double seconds = std::strtod(v.c_str(), &end);
            if (v.empty() || *end != '\0' || !(seconds >= 0 && seconds <= 1e9))
              return "value " + v + " is out of range: allowed 0 (no limit) or (0, 1e9] seconds";
            return "";
          },
          "SECONDS", "time limit"));
  app.add_option("--memory-limit", limits.memory_mb,
                 "Cap the memory (address space) of any command at this many MB (at least 100); beyond it the command "
                 "exits 2; 0: no limit")
      ->check(CLI::Validator(
          [](std::string& v) -> std::string {
            char* end = nullptr;
            const double mb = std::strtod(v.c_str(), &end);
            if (v.empty() || *end != '\0' || !(mb == 0 || (mb >= 100 && mb <= 1e12)))
              return "value " + v + " is out of range: allowed 0 (no limit) or [100, 1e12] MB";
            return "";
          },
          "MB", "memory limit"))
      ->capture_default_str();
  app.fallthrough(true);
  app.require_subcommand(1);

  auto entries = command_entries();
  std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return a.order < b.order; });
  std::vector<std::pair<CLI::App*, Runner>> commands;
  for (auto& e : entries) {
    CLI::App* sub = nullptr;
    Runner r = e.setup(app, sub);
    if (const std::string ex = examples_help_text(sub->get_name()); !ex.empty()) sub->footer(ex);
    commands.emplace_back(sub, std::move(r));
  }

  const bool json = json_requested(argc, argv);
  // Help and version as one JSON object when --json is given.
  auto print_json = [](Json j) {
    std::cout << dump_json(with_provenance(j)) << "\n";
    return 0;
  };
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    if (json) return print_json(Json{{"command", "help"}, {"text", app.help()}});
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    if (json) return print_json(Json{{"command", "help"}, {"text", app.help("", CLI::AppFormatMode::All)}});
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    if (json) return print_json(Json{{"command", "version"}});
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);
    // A mistyped command or option is named with the closest known one ("did you mean compose?").
    const std::string unknown = unknown_word_message(app, argc, argv);
    return report_error(unknown.empty() ? e.what() : unknown, 2);
  } catch (const dpl::InputError& e) {
    return report_error(e.what(), 2);
  }

  for (auto& [sub, run] : commands) {
    if (!sub->parsed()) continue;
    if (limits.cpu_seconds < 0) limits.cpu_seconds = default_time_limit(sub->get_name());
    if (limits.memory_mb > 0) map_main_stack();
    enforce_resource_limits(limits, sub->get_name());
    try {
      Output out = run();
      commit_staged_outputs(stop_time_limit);  // the files are written only once the command has succeeded
      stop_time_limit();
      if (g.json)
        std::cout << dump_json(with_provenance(out.json)) << "\n";
      else
        std::cout << out.text;
      std::cout.flush();
      return out.exit_code;
    } catch (const dpl::InputError& e) {
      return report_error(e.what(), 2);
    } catch (const CLI::ParseError& e) {
      return report_error(e.what(), 2);
    } catch (const std::bad_alloc&) {
      return report_error(memory_limit_message(sub->get_name()), 2);
    } catch (const std::system_error& e) {
      // A thread whose stack does not fit under the memory limit: the same refusal as an allocation.
      if (e.code() == std::errc::resource_unavailable_try_again || e.code() == std::errc::not_enough_memory)
        return report_error(memory_limit_message(sub->get_name()), 2);
      return report_error(e.what(), 1);
    } catch (const std::exception& e) {
      return report_error(e.what(), 1);
    }
  }
  return report_error("no command given", 2);
}

}  // namespace
