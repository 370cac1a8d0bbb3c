"""Test setup: import ferrymcp from this source tree unless it is installed.

CI installs the wheel (with the native module) and tests that. A source checkout without
a build runs only the tests that need no engine against `python/`: declaring a resource
already asks core to parse its URI template, and most tests serve through the engine.
"""

import importlib.util
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
if importlib.util.find_spec("ferrymcp") is None:
    sys.path.insert(0, str(HERE.parent / "python"))

REPO = HERE.parents[1]
PYTHON_EVERYTHING = REPO / "tests" / "fixtures" / "python" / "everything.py"
RUST_EVERYTHING = REPO / "tests" / "fixtures" / "rust" / "everything.rs"
