#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Runs the commands shown in README.md and docs/*.md and compares what they print with what the page says.

Forms recognised inside fenced code blocks:
  $ COMMAND            (a "console" line) followed by the lines it prints: stdout must be exactly those lines,
                       where a line "..." stands for any number of lines; "# exit N" after the command gives the
                       expected exit code (default 0);
  build/bin/dpledger ...   # comment   (a plain command line): every decimal of 6 or more significant digits in
                       the comment must appear in stdout, and the exit code must be 0 (or the "exit N" named there).
Commands run in a scratch folder that mirrors the source tree's paths (build/bin/dpledger, build/python, data/,
docs/images/), one folder per page, in page order, so that a command may read the files an earlier one wrote.

Usage: doc_commands.py SOURCE_DIR DPLEDGER [--slow | --fast] [--list] [--update]
  --fast runs the commands not named slow below, --slow only those; both by default.
  --update rewrites the pages in place from what the commands print now: the expected lines of a "$ COMMAND" block
           (not where the page shows "..."; those are reported), and each decimal of a "# comment" that the
           command no longer prints by the printed decimal nearest to it, if one agrees with it to 1e-6 relative
           (else reported). Exit codes are not rewritten. Review the diff before committing.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

# Commands that take more than a few seconds (matched as substrings of the command): run under the `slow` label.
SLOW = [
    "dpledger run ",
    "dpledger --json run ",
    "dpledger sweep ",
    "dpledger audit dp-sgd",
    "dpledger audit laplace:b=1 --runs 10000000 ",
    "dpledger audit laplace:b=1 --runs 40000000",
    "for i in 1 2 3 4; do",
    "dpledger audit gaussian:sigma=1",
    "--canary-scores canaries.csv --delta",
    "--canary-scores half.csv --delta",
    "dpledger audit merge",
    "dpledger audit laplace:b=1 --runs 20000 --shard",  # the shards the merge after them reads
    "dpledger check 004/thm-1-chain",
    "dpledger check --quick",
    "--accountant pld --delta 1e-30",
    "calibrate -m gaussian:sigma=1.1,q=?",
    "calibrate -m gaussian:sigma=?,q=0.01,steps=10000 --epsilon 1 --delta 1e-5 --accountant pld",
    "gamma --omega 0.1:1:10",
    "consensus",
    "steps=1e6",
    "--ledger sgd.jsonl",  # reads what a slow `run` wrote
]
# Commands shown but not run here: they install, build, or take minutes.
NOT_RUN = [
    "scripts/setup", "scripts/test", "cmake ", "cpack", "apt ", "sudo ", "bench/", "SLURM", "$((SLURM",
    "--runs 1e9",  # shown being refused by the time limit, and running for about a minute with a larger one
]
# Listing and describing are fast even for the slow commands.
FAST = ["--list", "--parameters", "--help"]
NUMBER = re.compile(r"(?<![\w.])-?\d+\.\d{5,}(?:e[-+]?\d+)?")


def blocks(text):
    """Fenced code blocks of a markdown text, as (index of the block's first line in the page, lines)."""
    out, current, first = [], None, 0
    for number, line in enumerate(text.split("\n")):
        if line.startswith("```"):
            if current is None:
                current, first = [], number + 1
            else:
                out.append((first, current))
                current = None
        elif current is not None:
            current.append(line)
    return out


def split_comment(command):
    """(command, comment) split at the first ' #' outside quotes."""
    quote = None
    for i, ch in enumerate(command):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and i > 0 and command[i - 1] == " ":
            return command[:i].rstrip(), command[i + 1:].strip()
    return command.rstrip(), ""


def cases(page_text, with_places=False):
    """(command, expected stdout lines or None, numbers, exit code) in page order; with_places adds where the page
    holds what the command should print: ("lines", first, end) page line indices of the expected lines, or
    ("comment", index) of the line that carries the comment."""
    found = []
    for first, block in blocks(page_text):
        console = any(l.startswith("$ ") for l in block)
        i = 0
        while i < len(block):
            line = block[i]
            if console and line.startswith("$ "):
                command = line[2:]
                while command.endswith("\\") and i + 1 < len(block):
                    i += 1
                    command = command[:-1] + " " + block[i].strip()
                command, comment = split_comment(command)
                expected, begin = [], i + 1
                while i + 1 < len(block) and not block[i + 1].startswith("$ "):
                    i += 1
                    expected.append(block[i].rstrip())
                while expected and expected[-1] == "":
                    expected.pop()
                m = re.search(r"exit (\d)", comment)
                case = (command, expected, [], int(m.group(1)) if m else 0)
                found.append(case + (("lines", first + begin, first + begin + len(expected)),) if with_places else case)
            elif not console and ("build/bin/dpledger" in line or line.startswith(("printf ", "PYTHONPATH="))):
                command = line
                while command.endswith("\\") and i + 1 < len(block):
                    i += 1
                    command = command[:-1] + " " + block[i].strip()
                command, comment = split_comment(command)
                m = re.search(r"exit (\d)", comment)
                case = (command, None, NUMBER.findall(comment), int(m.group(1)) if m else 0)
                found.append(case + (("comment", first + i),) if with_places else case)
            i += 1
    return found


def nearest_printed(number, stdout):
    """The decimal printed in stdout nearest to number (a page's decimal), if within 1e-6 relative, else None."""
    value, best = float(number), None
    for printed in NUMBER.findall(stdout):
        gap = abs(float(printed) - value)
        if gap <= 1e-6 * abs(value) and (best is None or gap < best[0]):
            best = (gap, printed)
    return best[1] if best else None


def matches(expected, actual):
    """Whether the actual lines match the expected ones, '...' standing for any run of lines."""
    if not expected:
        return not actual
    if expected[0] == "...":
        return any(matches(expected[1:], actual[k:]) for k in range(len(actual) + 1))
    return bool(actual) and expected[0] == actual[0] and matches(expected[1:], actual[1:])


def update(page_lines, edits, place, expected, numbers, stdout, problems):
    """Records the page edits that make the page show what was printed (--update); returns the problems left."""
    left = [q for q in problems if q.startswith("exit code")]
    if place[0] == "lines":
        if "..." in expected:
            return problems
        printed = stdout.rstrip("\n").split("\n") if stdout else []
        edits.append((place[1], place[2], printed))
        return left
    line = page_lines[place[1]]
    at = line.index(" #") if " #" in line else len(line)
    comment = line[at:]
    for number in numbers:
        if number in stdout:
            continue
        printed = nearest_printed(number, stdout)
        if printed is None:
            left.append(f"the page quotes {number}; no printed decimal is within 1e-6 of it: not updated")
        else:
            comment = re.sub(r"(?<![\w.])" + re.escape(number) + r"(?![\d])", printed, comment)
    if comment != line[at:]:
        edits.append((place[1], place[1] + 1, [line[:at] + comment]))
    return left


def sandbox(source, binary):
    root = tempfile.mkdtemp(prefix="dpledger-docs-")
    os.makedirs(os.path.join(root, "build", "bin"))
    os.symlink(os.path.abspath(binary), os.path.join(root, "build", "bin", "dpledger"))
    python = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(binary))), "python")
    if os.path.isdir(python):
        os.symlink(python, os.path.join(root, "build", "python"))
    os.symlink(os.path.join(source, "data"), os.path.join(root, "data"))
    os.makedirs(os.path.join(root, "docs", "images"))
    return root


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    flags = {a for a in sys.argv[1:] if a.startswith("--")}
    source, binary = os.path.abspath(args[0]), args[1]
    pages = [os.path.join(source, "README.md")] + sorted(
        os.path.join(source, "docs", f) for f in os.listdir(os.path.join(source, "docs")) if f.endswith(".md"))
    failures, ran = [], 0
    for page in pages:
        name = os.path.relpath(page, source)
        page_text = open(page, encoding="utf-8").read()
        page_cases = cases(page_text, with_places=True)
        if not page_cases:
            continue
        page_lines, edits = page_text.split("\n"), []
        root = sandbox(source, binary)
        try:
            for command, expected, numbers, code, place in page_cases:
                if any(s in command for s in NOT_RUN):
                    continue
                if command.startswith("PYTHONPATH=") and not os.path.isdir(os.path.join(root, "build", "python")):
                    continue
                slow = any(s in command for s in SLOW) and not any(s in command for s in FAST)
                if ("--slow" in flags and not slow) or ("--fast" in flags and slow):
                    continue
                if "--list" in flags:
                    print(("slow  " if slow else "fast  ") + name + ": " + command)
                    continue
                start = time.monotonic()
                p = subprocess.run(["sh", "-c", command], cwd=root, capture_output=True, text=True, timeout=600)
                seconds = time.monotonic() - start
                ran += 1
                problems = []
                if p.returncode != code:
                    problems.append(f"exit code {p.returncode}, the page says {code}; stderr: {p.stderr.strip()[:300]}")
                if expected is not None and not matches(expected, p.stdout.rstrip("\n").split("\n") if p.stdout else []):
                    problems.append("stdout differs from the page:\n--- page\n" + "\n".join(expected) +
                                    "\n--- printed\n" + p.stdout.rstrip("\n"))
                for n in numbers:
                    if n not in p.stdout:
                        problems.append(f"the page quotes {n}, the command does not print it:\n{p.stdout.rstrip()}")
                if "--update" in flags and problems:
                    problems = update(page_lines, edits, place, expected, numbers, p.stdout, problems)
                status = "FAIL" if problems else "ok  "
                print(f"{status} {seconds:6.2f} s  {name}: {command}", flush=True)
                for problem in problems:
                    print("      " + problem.replace("\n", "\n      "))
                if problems:
                    failures.append((name, command))
        finally:
            shutil.rmtree(root, ignore_errors=True)
        if edits:
            for first, end, lines in sorted(edits, reverse=True):
                page_lines[first:end] = lines
            with open(page, "w", encoding="utf-8") as out:
                out.write("\n".join(page_lines))
            print(f"updated {name} ({len(edits)} places)", flush=True)
    if "--list" in flags:
        return 0
    print(f"{ran} commands run, {len(failures)} differ from their page")
    return 1 if failures or ran == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
