#!/usr/bin/env bash
# The Python package as it ships (run by scripts/test.sh after it built the wheel):
# 1. the wheel's platform tag: abi3 and manylinux, and `auditwheel show` (installed into
#    the test venv by package name, pinned in scripts/packaging/requirements.txt) must
#    derive exactly the tag in its file name from the symbols it links;
# 2. the sdist: `maturin sdist`, then `pip install` of it into a fresh virtualenv, where pip
#    gets maturin from PyPI and builds the extension with cargo (nothing else is needed),
#    then scripts/packaging/python_smoke.py in that venv: metadata, and a real stdio call.
# The sdist build is the one compile CI adds; it uses its own target directory
# (target/sdist-build), kept between runs and seeded from the wheel's build (below), so
# only ferrymcp's own crates rebuild there (the sdist is unpacked in a new directory every
# time).
set -euo pipefail
cd "$(dirname "$0")/../.."
. scripts/env.sh
root="$PWD"

.venv/bin/pip install --quiet --disable-pip-version-check -r scripts/packaging/requirements.txt

wheel="$(ls target/wheels/ferrymcp-*.whl | head -n 1)"
[ -n "$wheel" ] || fail "no wheel in target/wheels (scripts/test.sh builds it)"
tag="$(basename "$wheel" .whl | cut -d- -f5)"
case "$(basename "$wheel")" in
  *-cp310-abi3-manylinux_*) ;;
  *) fail "$(basename "$wheel"): expected an abi3 manylinux wheel (cp310-abi3-manylinux_*)" ;;
esac
# The `ferrymcp` command rides in the wheel as a script (scripts/test.sh put the executable
# into ferrymcp._native.data/scripts/); bindings-python/tests/test_command.py runs it installed.
python3 -c 'import sys, zipfile; names = zipfile.ZipFile(sys.argv[1]).namelist(); sys.exit(not any(n.endswith(".data/scripts/ferrymcp") for n in names))' "$wheel" \
  || fail "$(basename "$wheel") does not carry the ferrymcp command (.data/scripts/ferrymcp)"
report="$(.venv/bin/auditwheel show "$wheel" | tr -s '[:space:]' ' ')"
echo "auditwheel:$report"
# auditwheel derives the most compatible tag the wheel's symbols allow; the file's own tag
# must be exactly that one (an older tag would be a lie, a plain linux_* tag not portable).
grep -qF "is consistent with the following platform tag: \"$tag\"" <<<"$report" \
  || fail "auditwheel does not find $(basename "$wheel") consistent with its tag $tag"

begun=$SECONDS
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
(cd bindings-python && ../.venv/bin/maturin sdist -o "$work" >/dev/null)
sdist="$(ls "$work"/ferrymcp-*.tar.gz)"
python3 -m venv "$work/venv"
# On a clean machine (CI) that directory is seeded with the dependencies the wheel build
# above compiled into target/release (the same crates, features and profile): their
# fingerprints, build-script outputs and libraries, never ferrymcp's own crates, which are
# removed below and so are always compiled from the sdist's sources. Only what the sdist's
# build cannot match (pyo3, configured for that venv's interpreter) compiles again. A
# copy, not hard links: rustc may rewrite an output in place.
seed="$root/target/sdist-build/release"
if [ ! -d "$seed" ] && [ -d target/release/.fingerprint ]; then
  mkdir -p "$seed/deps"
  cp -a target/release/.fingerprint target/release/build "$seed/"
  find target/release/deps -maxdepth 1 -type f \( -name 'lib*' -o -name '*.d' \) \
    ! -name '*ferrymcp*' ! -name '*_native*' -exec cp -a -t "$seed/deps" {} +
fi
# pip unpacks the sdist in a new directory each time, so ferrymcp's own crates get new
# artifacts each run: the previous run's are removed first, the dependencies' are reused.
rm -rf target/sdist-build/release/{deps,.fingerprint,build}/*ferrymcp* target/sdist-build/release/deps/*_native*
CARGO_TARGET_DIR="$root/target/sdist-build" "$work/venv/bin/pip" install --quiet --disable-pip-version-check "$sdist"
(cd "$work" && venv/bin/python "$root/scripts/packaging/python_smoke.py")
echo "python package: sdist built, installed and smoke-tested in $((SECONDS - begun)) s"
