"""Test setup: import ferrymcp from this source tree unless it is installed.

CI installs the wheel (with the native module) and tests that. A source checkout without
a build runs only the tests that need no engine against `python/`: declaring a resource
already asks core to parse its URI template, and most tests serve through the engine.
"""

import importlib.util
import signal
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
if importlib.util.find_spec("ferrymcp") is None:
    sys.path.insert(0, str(HERE.parent / "python"))

# A runner started with SIGINT ignored (a background job of a non-interactive shell, as CI
# may start it) passes that to every child it spawns, and the tests stop their servers
# with SIGINT: a handled signal is reset to the default in a child, an ignored one is not.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

REPO = HERE.parents[1]
PYTHON_EVERYTHING = REPO / "tests" / "fixtures" / "python" / "everything.py"
RUST_EVERYTHING = REPO / "tests" / "fixtures" / "rust" / "everything.rs"
