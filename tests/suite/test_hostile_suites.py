"""Hostile suite files end in exit 2 with one positioned line: never a traceback, hang or crash.

Every file in tests/data/hostile/ (each says in its first line what it attacks) is validated by
its own `mcptest validate` process, which reports its own peak memory (VmHWM) on the way out. Special files (a FIFO, /dev/zero) and files over the size or value bounds are made here.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest
from support.peak_rss import measured_mcptest, peak_mib

from mcptest.suite.yaml_bounds import MAX_FILE_BYTES, MAX_VALUES

pytestmark = pytest.mark.slow  # starts real servers or subprocesses

DATA = Path(__file__).resolve().parents[1] / "data" / "hostile"
FILES = sorted(DATA.glob("*.yml"))
POSITIONED = re.compile(r"^(?P<file>\S+?):(?P<line>\d+):(?P<col>\d+): \S.*$")
MAX_RSS_MIB = 200
HANG_GUARD_S = 30  # kills a hung child; not a speed target (bench/ measures speed)
HAS_PROC = Path("/proc/self/status").exists()


def _validate(path: Path | str, tmp: Path) -> tuple[int, str, str, float]:
    """Exit code, stdout, stderr and peak RSS (MiB) of one `mcptest validate PATH` process."""
    peak = tmp / "peak-kib"
    try:
        r = subprocess.run(measured_mcptest(peak, "validate", str(path)),
                           capture_output=True, text=True, stdin=subprocess.DEVNULL,
                           timeout=HANG_GUARD_S)
    except subprocess.TimeoutExpired:
        pytest.fail(f"mcptest validate {path} hung")
    rss = peak_mib(peak)
    return r.returncode, r.stdout, r.stderr, rss


def _assert_one_positioned_line(code: int, out: str, err: str, rss: float, name: str) -> str:
    assert code == 2, err
    assert out == ""
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1, err
    m = POSITIONED.match(lines[0])
    assert m is not None, lines[0]
    assert m["file"].endswith(name)
    assert int(m["line"]) >= 1 and int(m["col"]) >= 1
    assert rss < MAX_RSS_MIB, f"{name}: peak RSS {rss:.0f} MiB"
    assert rss > 0 or not HAS_PROC
    return lines[0]


def test_every_hostile_file_says_what_it_attacks() -> None:
    assert len(FILES) >= 20
    for path in FILES:
        assert path.read_bytes().startswith(b"# attacks: "), path.name


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_hostile_file_is_one_positioned_line_and_exit_2(path: Path, tmp_path: Path) -> None:
    _assert_one_positioned_line(*_validate(path, tmp_path), path.name)


@pytest.mark.parametrize(("name", "expected"), [
    ("alias_bomb_top.yml", "more than 100,000 values once aliases are expanded"),
    ("deep_nesting_block.yml", "nesting is too deep (more than 64 levels"),
    ("timeout_inf.yml", "tools[0].timeout: must be a finite number"),
    ("timeout_huge.yml", "tools[0].timeout: must be at most 86400"),
    ("schema_remote_ref.yml", "`$ref` 'http://127.0.0.1:9/schema.json' does not resolve"),
    ("schema_missing_ref.yml", "`$ref` '#/$defs/nope' does not resolve"),
    ("schema_dynamic_ref.yml", "`$dynamicRef` 'https://127.0.0.1:9/x#node' does not resolve"),
    ("python_object_tag.yml", "python_object_tag.yml:8:11: tools[0].args: tag"
                              " `!!python/object/apply:os.system` is not supported"),
    ("bool_tag_bad_value.yml", "bool_tag_bad_value.yml:10:26: tools[0].expect[0].matcher.exact:"
                               " `!!bool` cannot hold 'maybe' (expected true or false)"),
])
def test_hostile_file_names_the_problem(name: str, expected: str, tmp_path: Path) -> None:
    line = _assert_one_positioned_line(*_validate(DATA / name, tmp_path), name)
    assert expected in line


def test_a_fifo_is_refused_without_reading_it(tmp_path: Path) -> None:
    fifo = tmp_path / "suite.yml"
    os.mkfifo(fifo)
    code, out, err, _ = _validate(fifo, tmp_path)
    assert (code, out) == (2, "")
    assert err.strip().endswith("suite.yml: not a regular file (a device, FIFO or socket); "
                                "give a suite file")


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero on this system")
@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_a_device_is_refused(device: str, tmp_path: Path) -> None:
    code, _, err, rss = _validate(device, tmp_path)
    assert code == 2
    assert err == f"{device}: not a regular file (a device, FIFO or socket); give a suite file\n"
    assert rss < MAX_RSS_MIB


def test_a_file_over_the_size_bound_is_refused(tmp_path: Path) -> None:
    big = tmp_path / "big.yml"
    big.write_text("# " + "x" * MAX_FILE_BYTES + "\n")
    line = _assert_one_positioned_line(*_validate(big, tmp_path), "big.yml")
    assert "larger than 1,024 KiB" in line


def test_too_many_values_without_aliases_are_refused(tmp_path: Path) -> None:
    wide = tmp_path / "wide.yml"
    wide.write_text("x: [" + ",".join(["0"] * (MAX_VALUES + 1)) + "]\n")
    line = _assert_one_positioned_line(*_validate(wide, tmp_path), "wide.yml")
    assert "more than 100,000 values" in line and "too many values" in line
