# SPDX-License-Identifier: Apache-2.0
"""Make `from opacus.accountants.analysis import rdp` work without torch.

Registers empty parent packages (opacus, opacus.accountants, opacus.accountants.analysis) in sys.modules, so that
Opacus's __init__ files (which import torch) never run, and loads only the torch-free module
opacus/accountants/analysis/rdp.py (numpy and scipy only) with importlib.util.spec_from_file_location.
Usage (bench/compare.sh, bench/README.md): OPACUS_ANALYSIS_LOADER=bench/opacus_analysis_loader.py and
OPACUS_RDP_PY=<a copy of pytorch/opacus's opacus/accountants/analysis/rdp.py>. The comparison in the
README used that file at commit 2f4b546.
"""
import importlib.util
import os
import sys
import types

_RDP_PY = os.environ.get("OPACUS_RDP_PY", "")
if not os.path.isfile(_RDP_PY):
    raise ImportError("OPACUS_RDP_PY must name a copy of opacus/accountants/analysis/rdp.py (got '%s')" % _RDP_PY)

if "opacus.accountants.analysis.rdp" not in sys.modules:
    _parent = None
    for _name in ("opacus", "opacus.accountants", "opacus.accountants.analysis"):
        _mod = sys.modules.get(_name)
        if _mod is None:
            _mod = types.ModuleType(_name)
            _mod.__path__ = []  # a package, but with nothing to find: only rdp is provided
            sys.modules[_name] = _mod
        if _parent is not None:
            setattr(_parent, _name.rsplit(".", 1)[1], _mod)
        _parent = _mod
    _spec = importlib.util.spec_from_file_location("opacus.accountants.analysis.rdp", _RDP_PY)
    _rdp = importlib.util.module_from_spec(_spec)
    sys.modules["opacus.accountants.analysis.rdp"] = _rdp
    _spec.loader.exec_module(_rdp)
    _parent.rdp = _rdp
