// SPDX-License-Identifier: Apache-2.0
#include "cli/output_file.h"

#include "accounting/errors.h"
#include "cli/provenance.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <utility>
#include <variant>
#include <vector>

namespace dpl::cli {

namespace {

namespace fs = std::filesystem;

// The temporary files that exist while commit_staged_outputs() writes them: a terminating signal (Ctrl-C, a CPU
// time limit, a closed terminal) removes them before the process ends, so no partial file survives it.
constexpr int kMaxTemporaries = 64;
char g_temporaries[kMaxTemporaries][4096];
volatile std::sig_atomic_t g_temporary_count = 0;

extern "C" void remove_temporaries_and_reraise(int sig) {
  remove_output_temporaries();
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

void install_cleanup_handlers() {
  static bool installed = false;
  if (installed) return;
  installed = true;
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGXCPU, SIGXFSZ, SIGPIPE}) std::signal(sig, remove_temporaries_and_reraise);
}

// Registers a temporary file for removal by a signal; false if the path does not fit the fixed table.
bool register_temporary(const std::string& path) {
  if (g_temporary_count >= kMaxTemporaries || path.size() >= sizeof g_temporaries[0]) return false;
  std::memcpy(g_temporaries[g_temporary_count], path.c_str(), path.size() + 1);
  g_temporary_count = g_temporary_count + 1;
  return true;
}

void forget_temporaries() { g_temporary_count = 0; }

std::string directory_of(const std::string& path) {
  const fs::path parent = fs::path(path).parent_path();
  return parent.empty() ? std::string(".") : parent.string();
}

// The file a write to `path` reaches: a symbolic link is followed (its target is replaced, not the link).
std::string resolved(const std::string& path) {
  std::error_code ec;
  if (fs::is_symlink(fs::symlink_status(path, ec))) {
    const fs::path target = fs::weakly_canonical(path, ec);
    if (!ec) return target.string();
  }
  return path;
}

// The same file for two spellings of a path (./a.csv and a.csv): the canonical directory and the name.
std::string identity(const std::string& path) {
  std::error_code ec;
  const fs::path p = fs::weakly_canonical(fs::absolute(resolved(path), ec), ec);
  return ec ? path : p.string();
}

bool is_special_file(const std::string& path) {  // exists and is not a regular file (/dev/null, a pipe, a tty)
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

// A new, empty, uniquely named file beside `path` (open; the caller closes it), or -1 with errno set.
int create_temporary(const std::string& path, std::string& temp) {
  temp = directory_of(path) + "/." + fs::path(path).filename().string() + ".dpledger-XXXXXX";
  if (temp.size() >= sizeof g_temporaries[0]) {
    errno = ENAMETOOLONG;
    return -1;
  }
  std::vector<char> name(temp.begin(), temp.end());
  name.push_back('\0');
  const int fd = ::mkstemp(name.data());
  if (fd >= 0) temp.assign(name.data());
  return fd;
}

// "" if `path` can be written, else the reason.
std::string why_not_writable(const std::string& path) {
  if (path.empty()) return "an empty file name";
  const std::string target = resolved(path);
  struct stat st {};
  if (::stat(target.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) return "is a directory";
    if (!S_ISREG(st.st_mode)) {  // a device or a pipe: written directly
      const int fd = ::open(target.c_str(), O_WRONLY | O_NONBLOCK);
      if (fd < 0 && errno != ENXIO) return std::strerror(errno);
      if (fd >= 0) ::close(fd);
      return "";
    }
  }
  const std::string dir = directory_of(target);
  if (::stat(dir.c_str(), &st) != 0) return "its directory " + dir + " does not exist";
  if (!S_ISDIR(st.st_mode)) return dir + " is not a directory";
  std::string probe;
  const int fd = create_temporary(target, probe);
  if (fd < 0) return std::string("cannot create a file in ") + dir + " (" + std::strerror(errno) + ")";
  ::close(fd);
  ::unlink(probe.c_str());
  return "";
}

// The output files of the command line so far: the file's identity -> the option that named it ("" if unnamed).
std::map<std::string, std::string>& declared_outputs() {
  static std::map<std::string, std::string> s;
  return s;
}

// "" when `path` is not yet an output of the command line (then it is now, for `option`), else the reason.
std::string why_named_twice(const std::string& option, const std::string& path) {
  const auto [it, fresh] = declared_outputs().try_emplace(identity(path), option);
  if (fresh) return "";
  const std::string mine = option.empty() ? "" : option + " ";
  return mine + "names the same file as " + (it->second.empty() ? std::string("another output option") : it->second) +
         ": give each output its own file";
}

struct Staged {
  std::string path;
  std::variant<std::string, std::function<void(std::ostream&)>> content;
};

std::vector<Staged>& staged() {
  static std::vector<Staged> s;
  return s;
}

void write_content(std::ostream& f, const Staged& s) {
  if (const auto* text = std::get_if<std::string>(&s.content))
    f.write(text->data(), static_cast<std::streamsize>(text->size()));
  else
    std::get<std::function<void(std::ostream&)>>(s.content)(f);
}

// Writes `s` to a new temporary file beside its path; returns the temporary's name or throws InputError.
std::string write_temporary(const Staged& s, const std::string& target) {
  std::string temp;
  const int fd = create_temporary(target, temp);
  if (fd < 0) throw InputError("cannot write " + s.path + ": " + std::strerror(errno));
  struct stat st {};
  const mode_t mask = ::umask(0);
  ::umask(mask);
  const mode_t mode = ::stat(target.c_str(), &st) == 0 ? (st.st_mode & 07777) : (0666 & ~mask);
  (void)::fchmod(fd, mode);
  ::close(fd);
  if (!register_temporary(temp)) {
    ::unlink(temp.c_str());
    throw InputError("cannot write " + s.path + ": too many output files");
  }
  bool ok = false;
  try {
    std::ofstream f(temp, std::ios::binary | std::ios::trunc);
    write_content(f, s);
    f.close();
    ok = !f.fail();
  } catch (...) {
    ::unlink(temp.c_str());
    throw;
  }
  if (!ok) {
    ::unlink(temp.c_str());
    throw InputError("cannot write " + s.path + " (disk full or a write error)");
  }
  return temp;
}

}  // namespace

void require_writable(const std::string& option, const std::string& path) {
  const std::string why = why_not_writable(path);
  if (!why.empty()) throw InputError(option + " " + path + ": cannot write the file: " + why);
  if (const std::string twice = why_named_twice(option, path); !twice.empty()) throw InputError(path + ": " + twice);
}

CLI::Validator writable_output_file(const std::string& option) {
  return CLI::Validator(
      [option](std::string& path) -> std::string {
        const std::string why = why_not_writable(path);
        if (!why.empty()) return path + ": cannot write the file: " + why;
        if (const std::string twice = why_named_twice(option, path); !twice.empty()) return path + ": " + twice;
        return "";
      },
      "FILE", "writable output file");
}

void stage_output(const std::string& path, std::string unstamped) {
  std::string content = stamp_file(path, unstamped);  // which dpledger wrote it, with which arguments
  for (auto& s : staged())
    if (s.path == path) {
      s.content = std::move(content);
      return;
    }
  staged().push_back({path, std::move(content)});
}

void stage_output(const std::string& path, std::function<void(std::ostream&)> unstamped) {
  // The provenance: a first line written before the stream where the format has one (CSV, JSON lines), else the
  // whole content stamped as one text.
  const std::string prefix = stamp_prefix(path);
  std::function<void(std::ostream&)> writer =
      !prefix.empty() ? std::function<void(std::ostream&)>([prefix, w = std::move(unstamped)](std::ostream& f) {
        f << prefix;
        w(f);
      })
                      : std::function<void(std::ostream&)>([path, w = std::move(unstamped)](std::ostream& f) {
                          std::ostringstream text;
                          w(text);
                          f << stamp_file(path, text.str());
                        });
  for (auto& s : staged())
    if (s.path == path) {
      s.content = std::move(writer);
      return;
    }
  staged().push_back({path, std::move(writer)});
}

void remove_output_temporaries() {
  for (int i = 0; i < g_temporary_count; ++i) ::unlink(g_temporaries[i]);  // async-signal-safe
}

void commit_staged_outputs(const std::function<void()>& before_rename) {
  install_cleanup_handlers();
  std::vector<Staged> files = std::move(staged());
  staged().clear();
  // Devices and pipes are written directly (replacing /dev/null by a regular file would be wrong); they come last,
  // after every regular file is in place.
  std::vector<std::pair<std::string, std::string>> renames;  // temporary -> target
  try {
    for (const auto& s : files) {
      const std::string target = resolved(s.path);
      if (is_special_file(target)) continue;
      renames.emplace_back(write_temporary(s, target), target);
    }
  } catch (...) {
    for (const auto& [temp, target] : renames) ::unlink(temp.c_str());
    forget_temporaries();
    throw;
  }
  if (before_rename) before_rename();
  for (std::size_t i = 0; i < renames.size(); ++i)
    if (std::rename(renames[i].first.c_str(), renames[i].second.c_str()) != 0) {
      const std::string why = std::strerror(errno);
      for (std::size_t k = i; k < renames.size(); ++k) ::unlink(renames[k].first.c_str());
      forget_temporaries();
      throw InputError("cannot write " + renames[i].second + ": " + why);
    }
  forget_temporaries();
  for (const auto& s : files) {
    const std::string target = resolved(s.path);
    if (!is_special_file(target)) continue;
    std::ofstream f(target, std::ios::binary);
    write_content(f, s);
    f.flush();
    if (!f) throw InputError("cannot write " + s.path);
  }
}

void discard_staged_outputs() { staged().clear(); }

}  // namespace dpl::cli
