#include "cli/output_file.h"

#include "accounting/errors.h"
#include "cli/provenance.h"

#include <cstdio>
#include <fstream>
#include <unistd.h>

namespace dpl::cli {

void write_atomically(const std::string& path, const std::string& unstamped) {
  const std::string content = stamp_file(path, unstamped);  // which dpledger wrote it, with which arguments
  const std::string tmp = path + ".tmp" + std::to_string(::getpid());
  {
    std::ofstream f(tmp);
    if (!f) throw InputError("cannot write " + path);
    f << content;
    if (!f) {
      std::remove(tmp.c_str());
      throw InputError("cannot write " + path);
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    throw InputError("cannot write " + path);
  }
}

}  // namespace dpl::cli
