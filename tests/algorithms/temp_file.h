// SPDX-License-Identifier: Apache-2.0
// A file with given content in the temp directory, removed at scope exit (for the reader tests).
#pragma once

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace dpl::testing {

class TempFile {
 public:
  // `name` (keep its extension: the readers choose by it) is prefixed with "dpl_" and the process id, so that
  // test executables running in parallel do not collide.
  TempFile(const std::string& name, const std::string& content)
      : path_(std::filesystem::temp_directory_path() / ("dpl_" + std::to_string(::getpid()) + "_" + name)) {
    std::ofstream(path_) << content;
  }
  ~TempFile() { std::filesystem::remove(path_); }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  std::string path() const { return path_.string(); }

 private:
  std::filesystem::path path_;
};

}  // namespace dpl::testing
