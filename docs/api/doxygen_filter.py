#!/usr/bin/env python3
# Doxygen input filter for dpledger's headers: their plain `//` comments become Doxygen comments (`///`), and the
# comment block at the top of a header becomes that header's page (`\file`), so the reference documents each public
# header as written, without a second comment syntax in the sources. Usage (Doxygen's INPUT_FILTER): FILTER FILE
import sys


def doxygen_comments(text: str) -> str:
    out, file_page_named = [], False
    for line in text.splitlines():
        stripped = line.lstrip()
        if stripped.startswith("//") and not stripped.startswith("///") and "SPDX-License-Identifier:" not in line:
            if not file_page_named:  # the header's own comment block: its page
                out.append("/// \\file")
            out.append(line.replace("//", "///", 1))
        else:
            out.append(line)
        if stripped and "SPDX-License-Identifier:" not in line:
            file_page_named = True
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    with open(sys.argv[1], encoding="utf-8") as f:
        sys.stdout.write(doxygen_comments(f.read()))
