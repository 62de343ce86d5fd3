# SPDX-License-Identifier: Apache-2.0
"""bench/peer_suites.py on small peer-style suites written here (no peer source needed): the imports of
dp_accounting, opacus.accountants and jax_privacy resolve to the drop-ins, passes and failures are counted, a
suite that does not import and a missing library are reported as such."""

import os
import sys
import textwrap

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peer_suites  # noqa: E402


def write(root, rel, text):
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text))


@pytest.fixture
def peers(tmp_path):
    root = tmp_path / "peers"
    # dp_accounting: the marker file (the library's own module, never imported in drop-in mode) and a test file
    # with two passing tests and one that fails on the drop-in (a wrong expected value).
    write(root, "dp/python/dp_accounting/dp_accounting/dp_event.py", "raise ImportError('peer module used')\n")
    write(root, "dp/python/dp_accounting/dp_accounting/dp_event_test.py", """
        import unittest
        from dp_accounting import dp_event
        from dp_accounting.rdp import rdp_privacy_accountant

        class T(unittest.TestCase):
            def test_module_is_the_dropin(self):
                self.assertTrue(rdp_privacy_accountant.__name__.startswith("dpledger."))

            def test_epsilon(self):
                acc = rdp_privacy_accountant.RdpAccountant()
                acc.compose(dp_event.GaussianDpEvent(1.0))
                self.assertGreater(acc.get_epsilon(1e-5), 0)

            def test_wrong_value(self):
                self.assertEqual(dp_event.GaussianDpEvent(1.0).noise_multiplier, 2.0)
        """)
    # a suite that does not import
    write(root, "dp/python/dp_accounting/dp_accounting/gaussian_mechanism_test.py",
          "from dp_accounting import no_such_module\n")
    # opacus: the accountants' package marker and a test using the registry and GaussianAccountant
    write(root, "opacus/opacus/accountants/__init__.py", "raise ImportError('peer module used')\n")
    write(root, "opacus/opacus/tests/accountants_test.py", """
        import unittest
        from opacus.accountants import GaussianAccountant, RDPAccountant, create_accountant

        class T(unittest.TestCase):
            def test_rdp(self):
                acc = create_accountant("rdp")
                acc.step(noise_multiplier=1.0, sample_rate=0.01)
                self.assertIsInstance(acc, RDPAccountant)
                self.assertGreater(acc.get_epsilon(delta=1e-5), 0)
        """)
    # jax_privacy: its own module (run as it is, calling dp_accounting and jax.numpy) and its test
    write(root, "jax_privacy/jax_privacy/__init__.py", "raise ImportError('the package __init__ must be skipped')\n")
    write(root, "jax_privacy/jax_privacy/auditing.py", """
        import dp_accounting
        import jax.numpy as jnp

        def sigma(eps, delta):
            return float(jnp.asarray(dp_accounting.get_sigma_gaussian(eps, delta)))
        """)
    write(root, "jax_privacy/tests/auditing_test.py", """
        import unittest
        from jax_privacy import auditing

        class T(unittest.TestCase):
            def test_sigma(self):
                self.assertGreater(auditing.sigma(1.0, 1e-5), 1.0)
        """)
    return root


def rows_of(capsys):
    out = capsys.readouterr().out.splitlines()
    return {line.split("|")[1].strip(): [c.strip() for c in line.split("|")[2:-1]] for line in out[2:]}


def test_the_table_counts_passes_on_the_dropins(peers, capsys):
    assert peer_suites.main([str(peers), "--markdown"]) == 0
    rows = rows_of(capsys)
    assert rows["dp_accounting dp_event_test"][:3] == ["3", "-", "2"]
    assert rows["dp_accounting gaussian_mechanism_test"][3] == "does not import"
    assert rows["opacus accountants_test"][:3] == ["1", "-", "1"]
    assert rows["jax_privacy auditing_test"][:3] == ["1", "-", "1"]
    assert "not found" not in rows["jax_privacy auditing_test"][3]
    # a suite whose file is absent from the folder
    assert rows["dp_accounting rdp/rdp_privacy_accountant_test"][3].startswith("no dp_accounting/rdp/")


def test_a_folder_without_the_libraries(tmp_path, capsys):
    assert peer_suites.main([str(tmp_path), "--suite", "opacus", "--markdown"]) == 0
    rows = rows_of(capsys)
    assert list(rows) == ["opacus accountants_test"]
    assert rows["opacus accountants_test"][3] == f"opacus not found in {tmp_path}"


def test_not_a_folder(tmp_path):
    with pytest.raises(SystemExit):
        peer_suites.main([str(tmp_path / "missing")])
