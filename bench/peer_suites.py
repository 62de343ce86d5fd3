#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Run the peers' own test files, unchanged, on dpledger's drop-ins, and print how many pass.

    python3 bench/peer_suites.py PEERS_DIR [--suite NAME ...] [--peer] [--markdown]

PEERS_DIR is a folder holding the public sources of the libraries the drop-ins replace, in any layout (it is
searched): Google's differential-privacy repository (its ``python/dp_accounting``), Opacus, jax_privacy. The
script fetches nothing. Each test file runs in its own pytest process in which

* ``dp_accounting`` and its submodules are ``dpledger.dp_accounting`` (the peer's test files themselves, and the
  test helpers they import, ``privacy_accountant_test`` and ``pld.test_util``, come from PEERS_DIR);
* ``opacus`` and ``opacus.accountants...`` are ``dpledger.opacus...``;
* ``jax_privacy`` is the peer's own package folder (its ``accounting.py`` and ``auditing.py`` run as they are,
  calling ``dp_accounting``, that is dpledger), without its ``__init__`` (which loads the training stack);
* ``jax`` (imported by jax_privacy's test and helpers for arrays only) is numpy, and ``tree`` (dm-tree, used by
  dp_event_test to walk a structure) is a small walker, where they are not installed.

With ``--peer`` each dp_accounting and jax_privacy suite is also run on the peer's own ``dp_accounting`` source
(the same stubs, no drop-in): the "peer" column. Opacus's own accountants need torch, so its peer column is
given only where torch is installed. The table lists, per suite, the tests collected, the peer's passes and the
drop-in's passes; a suite that does not import is shown as such.
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from text_table import print_table  # noqa: E402  (shared with the other bench scripts)

# (suite name, library, path of the test file relative to the library's root folder)
SUITES = [
    ("dp_accounting dp_event_test", "dp_accounting", "dp_accounting/dp_event_test.py"),
    ("dp_accounting dp_event_builder_test", "dp_accounting", "dp_accounting/dp_event_builder_test.py"),
    ("dp_accounting gaussian_mechanism_test", "dp_accounting", "dp_accounting/gaussian_mechanism_test.py"),
    ("dp_accounting mechanism_calibration_test", "dp_accounting", "dp_accounting/mechanism_calibration_test.py"),
    ("dp_accounting pld/accountant_test", "dp_accounting", "dp_accounting/pld/accountant_test.py"),
    ("dp_accounting pld/pld_privacy_accountant_test", "dp_accounting",
     "dp_accounting/pld/pld_privacy_accountant_test.py"),
    ("dp_accounting rdp/rdp_privacy_accountant_test", "dp_accounting",
     "dp_accounting/rdp/rdp_privacy_accountant_test.py"),
    ("opacus accountants_test", "opacus", "opacus/tests/accountants_test.py"),
    ("jax_privacy accounting_test", "jax_privacy", "tests/accounting_test.py"),
    ("jax_privacy auditing_test", "jax_privacy", "tests/auditing_test.py"),
]

# How each library's root folder is recognised inside PEERS_DIR (a file relative to the root).
ROOT_MARKERS = {
    "dp_accounting": "dp_accounting/dp_event.py",
    "opacus": "opacus/accountants/__init__.py",
    "jax_privacy": "jax_privacy/auditing.py",
}

# The import shim, loaded by pytest as a plugin (-p) before the test file is collected. Its settings come from
# the environment: DPLEDGER_PEER_MODE (dropin | peer), DPLEDGER_PEER_ROOTS (lib=folder;...).
SHIM = r'''
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
import types

MODE = os.environ["DPLEDGER_PEER_MODE"]
ROOTS = dict(kv.split("=", 1) for kv in os.environ["DPLEDGER_PEER_ROOTS"].split(";") if kv)


def _peer_file(root, name):
    """The peer's source file (or package folder's __init__) for a dotted module name, or None."""
    base = os.path.join(root, *name.split("."))
    for candidate in (base + ".py", os.path.join(base, "__init__.py")):
        if os.path.isfile(candidate):
            return candidate
    return None


class _Existing(importlib.abc.Loader):
    """Loads a name as a module that exists already (the drop-in's)."""

    def __init__(self, module):
        self.module = module

    def create_module(self, spec):
        return self.module

    def exec_module(self, module):
        pass


class _Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.startswith("dpledger.dp_accounting.") and name.rsplit(".", 1)[-1].endswith(("_test", "test_util")):
            # `from dp_accounting import x_test` looks x_test up under the drop-in package's own name
            return self._peer_spec(name, name[len("dpledger."):])
        top = name.split(".")[0]
        if top == "dp_accounting":
            root = ROOTS.get("dp_accounting")
            leaf = name.rsplit(".", 1)[-1]
            peer_own = MODE == "peer" or leaf.endswith("_test") or leaf == "test_util"
            if peer_own:
                return self._peer_spec(name, name)
            return self._alias(name, "dpledger." + name)
        if top == "opacus" and MODE == "dropin":
            return self._alias(name, "dpledger." + name)
        if top == "jax_privacy" and "jax_privacy" in ROOTS:
            folder = os.path.join(ROOTS["jax_privacy"], "jax_privacy")
            if name == "jax_privacy":  # the package folder, without its __init__ (the training stack)
                spec = importlib.machinery.ModuleSpec(name, None, is_package=True)
                spec.submodule_search_locations = [folder]
                return spec
            return None
        return None

    @staticmethod
    def _peer_spec(name, peer_name):
        """The spec of the peer's own file for peer_name (a dp_accounting module), imported as name."""
        root = ROOTS.get("dp_accounting")
        f = None if root is None else _peer_file(root, peer_name)
        if f is None:
            return None
        if f.endswith("__init__.py"):
            return importlib.util.spec_from_file_location(name, f, submodule_search_locations=[os.path.dirname(f)])
        return importlib.util.spec_from_file_location(name, f)

    @staticmethod
    def _alias(name, target):
        try:
            module = importlib.import_module(target)
        except ModuleNotFoundError as e:
            if e.name == target:
                return None
            raise
        return importlib.machinery.ModuleSpec(name, _Existing(module), is_package=hasattr(module, "__path__"))


sys.meta_path.insert(0, _Finder())


def _stub_jax():
    """jax as its test and helpers here use it: jax.numpy is numpy, x64 enabled, jax.tree.leaves."""
    import numpy
    jax = types.ModuleType("jax")
    jax.numpy = numpy
    jax.Array = numpy.ndarray
    jax.config = types.SimpleNamespace(jax_enable_x64=True, update=lambda *a, **k: None)

    def leaves(tree):
        if isinstance(tree, dict):
            return [x for k in sorted(tree) for x in leaves(tree[k])]
        if isinstance(tree, (list, tuple)):
            return [x for t in tree for x in leaves(t)]
        return [] if tree is None else [tree]
    jax.tree = types.SimpleNamespace(leaves=leaves)
    sys.modules["jax"] = jax
    sys.modules["jax.numpy"] = numpy


def _stub_tree():
    """dm-tree's traverse (pre-order; fn returning None descends into sequences, dicts and named tuples)."""
    tree = types.ModuleType("tree")

    def traverse(fn, structure, top_down=True):
        out = fn(structure)
        if out is not None:
            return out
        if isinstance(structure, dict):
            for k in structure:
                traverse(fn, structure[k])
        elif isinstance(structure, (list, tuple)):
            for x in structure:
                traverse(fn, x)
        return None
    tree.traverse = traverse
    sys.modules["tree"] = tree


for _name, _stub in (("jax", _stub_jax), ("tree", _stub_tree)):
    try:
        importlib.import_module(_name)
    except ImportError:
        _stub()
'''


def find_roots(peers_dir):
    """The root folder of each library found in peers_dir (searched to a depth of 6)."""
    roots = {}
    peers_dir = os.path.abspath(peers_dir)
    for dirpath, dirnames, _ in os.walk(peers_dir):
        depth = dirpath[len(peers_dir):].count(os.sep)
        if depth >= 6:
            dirnames[:] = []
        dirnames[:] = [d for d in dirnames if not d.startswith(".")]
        for lib, marker in ROOT_MARKERS.items():
            if lib not in roots and os.path.isfile(os.path.join(dirpath, marker)):
                roots[lib] = dirpath
    return roots


def run_suite(test_file, roots, mode, python, pythonpath, workdir, timeout=1800):
    """(collected, passed, note) of one pytest run of test_file (stopped after `timeout` seconds)."""
    xml = os.path.join(workdir, "result.xml")
    if os.path.exists(xml):
        os.remove(xml)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([workdir] + [p for p in pythonpath if p])
    env["DPLEDGER_PEER_MODE"] = mode
    env["DPLEDGER_PEER_ROOTS"] = ";".join(f"{k}={v}" for k, v in roots.items())
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    # The test file runs from a copy (unchanged) in the scratch folder: pytest would otherwise import the peer's
    # package __init__ files around it, which are the peer library itself.
    copy = os.path.join(workdir, "suite", os.path.basename(test_file))
    os.makedirs(os.path.dirname(copy), exist_ok=True)
    shutil.copyfile(test_file, copy)
    test_file = copy
    cmd = [python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "_dpledger_peer_shim", "--noconftest",
           "--import-mode=importlib", "--rootdir", workdir, f"--junitxml={xml}", test_file]
    try:
        proc = subprocess.run(cmd, env=env, capture_output=True, text=True, cwd=workdir, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, None, f"stopped after {timeout} s"
    if not os.path.exists(xml):
        return None, None, "pytest gave no result: " + (proc.stderr.strip().splitlines() or ["?"])[-1]
    suite = ET.parse(xml).getroot()
    if suite.tag == "testsuites":
        suite = suite[0]
    tests, failures, errors, skipped = (int(suite.get(k, 0)) for k in ("tests", "failures", "errors", "skipped"))
    cases = suite.findall("testcase")
    if len(cases) == 1 and cases[0].get("name", "") == "" or (tests == errors == 1 and proc.returncode == 2):
        return None, None, "does not import"
    return tests, tests - failures - errors - skipped, ""


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("peers_dir", help="folder holding the peers' public sources (searched)")
    parser.add_argument("--suite", action="append", default=[], help="run only suites whose name contains this")
    parser.add_argument("--peer", action="store_true", help="also run each suite on the peer's own source")
    parser.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    parser.add_argument("--python", default=sys.executable, help="the interpreter to run pytest with")
    parser.add_argument("--timeout", type=float, default=1800, help="seconds allowed to each suite (default 1800)")
    args = parser.parse_args(argv)
    if not os.path.isdir(args.peers_dir):
        parser.error(f"peers_dir: '{args.peers_dir}' is not a folder")
    roots = find_roots(args.peers_dir)
    # Absolute: each suite runs from a scratch folder (a relative PYTHONPATH=build/python would not be found there).
    dpledger_path = [os.path.abspath(p) for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    rows = []
    with tempfile.TemporaryDirectory(prefix="dpledger_peer_suites_") as workdir:
        with open(os.path.join(workdir, "_dpledger_peer_shim.py"), "w") as f:
            f.write(SHIM)
        for name, lib, rel in SUITES:
            if args.suite and not any(s in name for s in args.suite):
                continue
            if lib not in roots:
                rows.append((name, "-", "-", "-", f"{lib} not found in {args.peers_dir}"))
                continue
            test_file = os.path.join(roots[lib], rel)
            if not os.path.isfile(test_file):
                rows.append((name, "-", "-", "-", f"no {rel} in {roots[lib]}"))
                continue
            peer = "-"
            if args.peer and lib != "opacus":
                n, p, note = run_suite(test_file, roots, "peer", args.python, dpledger_path, workdir, args.timeout)
                peer = note or f"{p}/{n}"
            elif args.peer:
                import importlib.util
                if importlib.util.find_spec("torch") is not None:
                    n, p, note = run_suite(test_file, roots, "peer", args.python, [roots["opacus"]] + dpledger_path,
                                           workdir, args.timeout)
                    peer = note or f"{p}/{n}"
            n, p, note = run_suite(test_file, roots, "dropin", args.python, dpledger_path, workdir, args.timeout)
            rows.append((name, "-" if n is None else str(n), peer, "-" if p is None else str(p), note))
    header = ("suite (unchanged)", "tests", "peer passes", "drop-in passes", "note")
    print_table(header, rows, args.markdown)
    return 0


if __name__ == "__main__":
    sys.exit(main())
