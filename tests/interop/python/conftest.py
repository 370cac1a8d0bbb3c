"""Where the Rust fixture server is: built by scripts/test.sh (release profile)."""

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="session")
def everything() -> str:
    path = Path(os.environ.get("FERRYMCP_EVERYTHING", ROOT / "target/release/ferrymcp-everything"))
    if not path.exists():
        pytest.fail(f"{path} is missing: build it with `cargo build --release --bin ferrymcp-everything`")
    return str(path)
