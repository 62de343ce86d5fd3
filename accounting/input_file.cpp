// SPDX-License-Identifier: Apache-2.0
#include "accounting/input_file.h"

#include "accounting/errors.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace dpl {

namespace {

std::string megabytes(std::size_t bytes) {
  const double mb = static_cast<double>(bytes) / double(1 << 20);
  char b[32];
  if (mb < 1)
    std::snprintf(b, sizeof b, "%.0f kB", static_cast<double>(bytes) / 1024);
  else
    std::snprintf(b, sizeof b, mb >= 10 ? "%.0f MB" : "%.3g MB", mb);
  return b;
}

constexpr std::size_t kChunk = std::size_t{1} << 16;

}  // namespace

InputFile::InputFile(const std::string& path, std::string what, InputFileLimits limits)
    : what_(std::move(what)), limits_(limits) {
  if (path == "-") {
    fd_ = STDIN_FILENO;
  } else {
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) throw InputError(what_ + ": cannot open the file (" + std::strerror(errno) + ")");
    owns_fd_ = true;
  }
  struct stat st {};
  if (::fstat(fd_, &st) == 0) {
    if (S_ISDIR(st.st_mode)) {
      if (owns_fd_) ::close(fd_);
      throw InputError(what_ + ": is a directory, not a file");
    }
    if (S_ISREG(st.st_mode) && static_cast<std::size_t>(st.st_size) > limits_.max_bytes) {
      if (owns_fd_) ::close(fd_);
      throw InputError(what_ + ": the file has " + megabytes(static_cast<std::size_t>(st.st_size)) +
                       ", above the limit of " + megabytes(limits_.max_bytes) + " for this kind of file");
    }
  }
}

InputFile::~InputFile() {
  if (owns_fd_) ::close(fd_);
}

bool InputFile::fill() {
  if (eof_) return false;
  const std::size_t old = buffer_.size();
  buffer_.resize(old + kChunk);
  ssize_t n;
  do {
    n = ::read(fd_, buffer_.data() + old, kChunk);
  } while (n < 0 && errno == EINTR);
  if (n < 0) {
    buffer_.resize(old);
    throw InputError(what_ + ": cannot read the file (" + std::strerror(errno) + ")");
  }
  buffer_.resize(old + static_cast<std::size_t>(n));
  if (n == 0) {
    eof_ = true;
    return false;
  }
  total_ += static_cast<std::size_t>(n);
  if (total_ > limits_.max_bytes)
    throw InputError(what_ + ": the file is longer than the limit of " + megabytes(limits_.max_bytes) +
                     " for this kind of file");
  return true;
}

bool InputFile::next_line(std::string& line) {
  std::size_t searched = pos_;
  while (true) {
    const std::size_t nl = buffer_.find('\n', searched);
    if (nl != std::string::npos) {
      if (nl - pos_ > limits_.max_line) break;
      line.assign(buffer_, pos_, nl - pos_);
      pos_ = nl + 1;
      ++line_number_;
      if (!line.empty() && line.back() == '\r') line.pop_back();
      return true;
    }
    if (buffer_.size() - pos_ > limits_.max_line) break;
    searched = buffer_.size();
    if (pos_ > 0) {  // keep only the unfinished line
      buffer_.erase(0, pos_);
      searched -= pos_;
      pos_ = 0;
    }
    if (!fill()) {
      if (pos_ >= buffer_.size()) return false;
      line.assign(buffer_, pos_, std::string::npos);
      pos_ = buffer_.size();
      ++line_number_;
      if (!line.empty() && line.back() == '\r') line.pop_back();
      return true;
    }
  }
  throw InputError(what_ + ": line " + std::to_string(line_number_ + 1) + " is longer than the limit of " +
                   megabytes(limits_.max_line) + " per line");
}

std::string InputFile::read_all() {
  while (fill()) {
  }
  std::string rest = buffer_.substr(pos_);
  buffer_.clear();
  pos_ = 0;
  return rest;
}

std::string read_input_file(const std::string& path, const std::string& what, InputFileLimits limits) {
  InputFile f(path, what, limits);
  return f.read_all();
}

void check_json_depth(const std::string& text, const std::string& what, int max_depth) {
  int depth = 0;
  bool in_string = false, escaped = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > max_depth)
        throw InputError(what + ": JSON nested more than " + std::to_string(max_depth) +
                         " levels deep (at byte " + std::to_string(i + 1) + "): allowed at most " +
                         std::to_string(max_depth));
    } else if (c == ']' || c == '}') {
      if (depth > 0) --depth;
    }
  }
}

}  // namespace dpl
