"""Issue 31, items 7-12: the workbook, symlinks and modes, strict JSON, special files.

Each test reproduces one finding of the round-3 campaign:

- 7: the PAR workbook is written in time linear in its rows;
- 8: workbook cells built from model or lab text are text, never formulas;
- 9: no writer follows a symlink (workbook temporary, ``examples``,
  ``keygen``, the API's ``write_certificates``); outputs are 0644 under a
  0022 umask, only keygen's private key is 0600;
- 10: a signed certificate with a key given twice is refused;
- 11: special files (``/dev/zero``, a FIFO) are refused without blocking or
  reading without bound; control characters never reach the terminal;
- 12: damaged reconciliation folders, absurd numbers, NaN and deep nesting
  give a located error, exit 2.
"""

from __future__ import annotations

import json
import os
import re
import resource
import shutil
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from testpaths import DATA, JURISDICTIONS, ROOT

from certify.cli import main

PT = str(JURISDICTIONS / "pt.toml")
SMALL = ROOT / "tests" / "reports" / "data" / "small.toml"


def _certify(model, out, *extra):
    args = ["certify", str(model), "--jurisdiction", PT, "--spins", "0", "--seed", "1"]
    return main([*args, "--out", str(out), *extra])


def _evil_model(tmp_path: Path) -> Path:
    """The small test machine with id ``=SUM(1,2)`` and a symbol named ``=1+2``."""
    text = SMALL.read_text(encoding="utf-8")
    text = text.replace('id = "TEST-3X3-5"', 'id = "=SUM(1,2)"')
    text = text.replace('"CH"', '"=1+2"').replace("\nCH = ", '\n"=1+2" = ')
    path = tmp_path / "evil.toml"
    path.write_text(text, encoding="utf-8")
    return path


def _slotcert(*args, timeout=60):
    """Run slotcert in a child process (a hang or an unbounded read is killed, not awaited)."""

    def limit():  # an unbounded read of /dev/zero fails on memory, not the machine
        resource.setrlimit(resource.RLIMIT_AS, (6 << 30, 6 << 30))

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    try:
        return subprocess.run(
            [sys.executable, "-m", "certify", *map(str, args)],
            capture_output=True,
            text=True,
            errors="replace",
            timeout=timeout,
            env=env,
            preexec_fn=limit,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"slotcert {' '.join(map(str, args))} did not finish in {timeout} s")


# --- 7: the workbook is linear in rows -------------------------------------------------


def test_workbook_work_is_linear_in_rows(tmp_path, monkeypatch):
    """The writer never asks the sheet for its last row while appending rows.

    Before the fix every appended row was followed by ``sheet[sheet.max_row]``, and
    ``max_row`` scans the sheet: 2,000 rows took 1.5 s and 8,000 rows 29 s (ratio 20).
    Counted, not timed: the reads of ``max_row`` while writing 1,000 and 4,000 rows are
    the same number (they grew with the rows before).
    """
    import openpyxl.worksheet.worksheet as ws

    import reports.parxlsx as px
    from reports.par import Section

    reads = [0]
    real = ws.Worksheet.max_row

    def counted(sheet):
        reads[0] += 1
        return real.fget(sheet)

    monkeypatch.setattr(ws.Worksheet, "max_row", property(counted))

    def max_row_reads(n):
        rows = [(1, i, f"S{i % 7}", 3, 0.001) for i in range(n)]
        section = Section("reels", "Reel strips", ("reel", "stop", "symbol", "weight", "p"), rows)
        monkeypatch.setattr(px, "par_sections", lambda c, m: [section])
        reads[0] = 0
        px.write_par_xlsx({}, None, tmp_path / f"w{n}.xlsx")
        return reads[0]

    assert max_row_reads(1000) == max_row_reads(4000)


# --- 8: workbook text is never a formula ----------------------------------------------


@pytest.mark.parametrize("lab", ["=LAB()", '=HYPERLINK("http://evil.example/","open")'])
def test_workbook_text_from_model_and_lab_is_never_a_formula(tmp_path, lab):
    from openpyxl import load_workbook

    out = tmp_path / "out"
    _certify(_evil_model(tmp_path), out, "--lab", lab)
    (book_path,) = out.glob("*.par.xlsx")
    book = load_workbook(book_path)
    seen = set()
    for sheet in book:
        for row in sheet.iter_rows():
            for cell in row:
                assert cell.data_type != "f", (sheet.title, cell.coordinate, cell.value)
                if isinstance(cell.value, str) and cell.value.startswith("="):
                    assert cell.data_type == "s"
                    seen.add(cell.value)
    assert "=1+2" in seen  # the symbol, as text
    assert any(v.startswith("=SUM(1,2)") for v in seen)  # the machine id
    assert lab in seen  # the lab's name


# --- 9: no writer follows a symlink; modes ---------------------------------------------


def _victim(tmp_path: Path) -> Path:
    target = tmp_path / "outside" / "victim.txt"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text("precious\n")
    return target


def test_workbook_is_not_written_through_a_planted_temporary_symlink(tmp_path):
    out, victim = tmp_path / "out", _victim(tmp_path)
    out.mkdir()
    os.symlink(victim, out / "TINY-3X1.par.xlsx.tmp")
    _certify(DATA / "tiny_lines.toml", out)
    assert victim.read_text() == "precious\n"
    book = out / "TINY-3X1.par.xlsx"
    assert book.is_file() and not book.is_symlink()


def test_outputs_are_0644_and_only_the_private_key_0600(tmp_path):
    old = os.umask(0o022)
    try:
        out = tmp_path / "out"
        _certify(DATA / "tiny_lines.toml", out)
        assert main(["keygen", str(tmp_path / "keys")]) == 0
    finally:
        os.umask(old)
    modes = {p.name: stat.S_IMODE(p.stat().st_mode) for p in out.iterdir()}
    assert modes and all(m == 0o644 for m in modes.values()), modes
    assert stat.S_IMODE((tmp_path / "keys" / "slotcert-signing.key").stat().st_mode) == 0o600
    assert stat.S_IMODE((tmp_path / "keys" / "slotcert-signing.pub").stat().st_mode) == 0o644


def test_examples_do_not_follow_planted_or_dangling_symlinks(tmp_path):
    folder, victim = tmp_path / "ex", _victim(tmp_path)
    (folder / "machines").mkdir(parents=True)
    os.symlink(victim, folder / "machines" / "ref-5x3-20.toml")
    dangling = tmp_path / "outside" / "created.toml"
    os.symlink(dangling, folder / "machines" / "hold-5x3-20.toml")
    assert main(["examples", str(folder)]) == 0
    assert not dangling.exists()  # without --force a dangling link is kept, never written through
    assert main(["examples", str(folder), "--force"]) == 0
    assert victim.read_text() == "precious\n"
    assert not dangling.exists()
    for name in ("ref-5x3-20.toml", "hold-5x3-20.toml"):
        path = folder / "machines" / name
        assert path.is_file() and not path.is_symlink()


def test_keygen_does_not_write_the_public_key_through_a_dangling_symlink(tmp_path):
    keys = tmp_path / "keys"
    keys.mkdir()
    dangling = tmp_path / "outside" / "pub.pem"
    dangling.parent.mkdir()
    os.symlink(dangling, keys / "slotcert-signing.pub")
    assert main(["keygen", str(keys)]) == 2
    assert not dangling.exists()
    assert not (keys / "slotcert-signing.key").exists()


def test_api_write_certificates_does_not_follow_symlinks(tmp_path):
    import slotcert

    out, victim = tmp_path / "out", _victim(tmp_path)
    out.mkdir()
    for name in ("TINY-3X1.par.csv", "TINY-3X1.certificate.json", "TINY-3X1.html"):
        os.symlink(victim, out / name)
    batch = slotcert.certify(DATA / "tiny_lines.toml", PT, spins=0, seed=1)
    slotcert.write_certificates(batch, out)
    assert victim.read_text() == "precious\n"
    assert not (out / "TINY-3X1.par.csv").is_symlink()


# --- 10: duplicate keys in a signed certificate ----------------------------------------


@pytest.fixture(scope="module")
def signed(tmp_path_factory):
    """A signed certificate of the tiny game and its public key."""
    root = tmp_path_factory.mktemp("signed")
    assert main(["keygen", str(root / "keys")]) == 0
    out = root / "out"
    key = str(root / "keys" / "slotcert-signing.key")
    _certify(DATA / "tiny_lines.toml", out, "--sign-key", key)
    return out / "TINY-3X1.certificate.json", root / "keys" / "slotcert-signing.pub"


def test_a_duplicated_key_in_a_signed_certificate_is_refused(signed, tmp_path, capsys):
    cert, pub = signed
    assert main(["verify", str(cert), "--public-key", str(pub)]) == 0
    data = json.loads(cert.read_text())
    verdict = data["verdict"]
    forged = "pass" if verdict != "pass" else "fail"
    text = cert.read_text()
    assert text.startswith("{")
    edited = tmp_path / "forged.json"
    edited.write_text('{\n  "verdict": "' + forged + '",' + text[1:])
    capsys.readouterr()
    assert main(["verify", str(edited), "--public-key", str(pub)]) == 2
    err = capsys.readouterr().err
    assert str(edited) in err and "'verdict'" in err and "twice" in err


# --- 11: special files, terminal output ------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["validate", "/dev/zero"],
        ["verify", "{cert}", "--public-key", "/dev/zero"],
        ["certify", "{model}", "--jurisdiction", PT, "--spins", "0", "--seed", "1",
         "--out", "{out}", "--sign-key", "/dev/zero"],
        ["certify", "{model}", "--jurisdiction", PT, "--spins", "0", "--seed", "1",
         "--out", "{out}", "--lab-config", "/dev/zero"],
    ],
    ids=["validate", "verify-public-key", "sign-key", "lab-config"],
)  # fmt: skip
def test_dev_zero_is_refused_not_read(args, signed, tmp_path):
    names = {"cert": signed[0], "model": DATA / "tiny_lines.toml", "out": tmp_path / "out"}
    done = _slotcert(*(a.format(**names) for a in args))
    assert done.returncode == 2, done.stderr
    assert "/dev/zero" in done.stderr and "character device" in done.stderr


def test_a_fifo_as_model_is_refused_without_blocking(tmp_path):
    fifo = tmp_path / "model.toml"
    os.mkfifo(fifo)
    done = _slotcert("validate", fifo, timeout=30)
    assert done.returncode == 2, done.stderr
    assert "FIFO" in done.stderr


def test_a_fifo_as_checkpoint_chunk_is_set_aside_without_blocking(tmp_path, capsys):
    import numpy as np

    from certify.checkpoint import Checkpoint
    from certify.model import load_machine

    ck = Checkpoint(tmp_path / "ck", load_machine(DATA / "tiny_lines.toml"), 1, 1000)
    chunk = tmp_path / "ck" / "s0-c000000000-n1.npz"
    os.mkfifo(chunk)
    (tmp_path / "ck" / (chunk.name + ".sha256")).write_text("0" * 64 + "\n")
    found: list = []
    worker = threading.Thread(target=lambda: found.append(ck.load(0, np.array([1000]))))
    worker.daemon = True
    worker.start()
    worker.join(20)
    if worker.is_alive():  # blocked in open(): give it an end of file, then fail
        fd = os.open(chunk, os.O_WRONLY | os.O_NONBLOCK)
        os.close(fd)
        worker.join(5)
        pytest.fail("reading a FIFO chunk file blocked")
    assert found == [{}]
    assert "FIFO" in capsys.readouterr().err


# --- 11 and 12: meters report ----------------------------------------------------------


@pytest.fixture(scope="module")
def recon(faulty_files_small):
    return faulty_files_small


@pytest.fixture(scope="module")
def faulty_files_small(tmp_path_factory):
    """A small faulty floor reconciled once (30 machines, 21 days)."""
    from meters.simulate import simulate_floor

    root = tmp_path_factory.mktemp("recon")
    paths = simulate_floor(seed=12, faults="all", n_machines=30, days=21).write(
        root / "floor", "csv", False
    )
    out = root / "out"
    args = ["meters", "reconcile", str(paths["dump"]), "--floor", str(paths["floor"])]
    assert main([*args, "--counts", str(paths["counts"]), "--out", str(out)]) == 1
    return paths, out


def _damaged(recon, tmp_path, name, edit):
    folder = tmp_path / "recon"
    shutil.copytree(recon[1], folder)
    path = folder / name
    data = edit(path.read_bytes())
    path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
    return folder


def _first_cell(text, column, value):
    lines = text.decode().splitlines()
    header = [h.strip('"') for h in lines[0].split(",")]
    row = lines[1].split(",")
    row[header.index(column)] = value
    lines[1] = ",".join(row)
    return "\n".join(lines) + "\n"


def _floor_value(text, key, value):
    data = json.loads(text)
    data["floor"][key] = value
    return json.dumps(data)


def test_meters_report_strips_control_characters(recon, tmp_path, capsys):
    folder = _damaged(
        recon, tmp_path, "machines.csv",
        lambda t: _first_cell(t, "machine_id", '"\x1b[31mEVIL\x1b]0;owned\x07\x9b2J"'),
    )  # fmt: skip
    assert main(["meters", "report", str(folder)]) == 0
    shown = capsys.readouterr().out
    assert "EVIL" in shown
    assert not any(ord(c) < 32 and c not in "\n" or 0x7F <= ord(c) < 0xA0 for c in shown)


DAMAGE = {
    "summary-list": ("summary.json", lambda t: "[1, 2]"),
    "summary-floor-text": ("summary.json", lambda t: '{"floor": "x"}'),
    "summary-floor-empty": ("summary.json", lambda t: '{"floor": {}}'),
    "summary-deep": ("summary.json", lambda t: "[" * 200_000 + "]" * 200_000),
    "summary-not-utf8": ("summary.json", lambda t: b"\xff\xfe{}"),
    "summary-huge-money": ("summary.json", lambda t: _floor_value(t, "coin_in", "1E+100000000")),
    "summary-bad-money": ("summary.json", lambda t: _floor_value(t, "drop", "abc")),
    "machines-not-utf8": ("machines.csv", lambda t: b"machine_id,coin_in\n\xff\xfe,1\n"),
    "machines-columns": ("machines.csv", lambda t: "a,b\n1,2\n"),
    "machines-bad-money": ("machines.csv", lambda t: _first_cell(t, "coin_in", "abc")),
    "machines-bad-z": ("machines.csv", lambda t: _first_cell(t, "z", "zz")),
    "findings-columns": ("findings.csv", lambda t: "a,b\n1,2\n"),
    "findings-not-utf8": ("findings.csv", lambda t: b"\xff\xfe\n"),
    "findings-empty": ("findings.csv", lambda t: ""),
}


@pytest.mark.parametrize("case", sorted(DAMAGE))
def test_meters_report_on_a_damaged_folder_is_a_located_error(recon, tmp_path, capsys, case):
    name, edit = DAMAGE[case]
    folder = _damaged(recon, tmp_path, name, edit)
    assert main(["meters", "report", str(folder)]) == 2
    err = capsys.readouterr().err
    assert str(folder / name) in err, err
    assert "internal error" not in err


def test_floor_denomination_1e100000000_is_a_located_error(recon, tmp_path, capsys):
    paths = recon[0]
    lines = paths["floor"].read_text().splitlines()
    header = lines[0].split(",")
    row = lines[1].split(",")
    row[header.index("denomination")] = "1E+100000000"
    lines[1] = ",".join(row)
    floor = tmp_path / "floor.csv"
    floor.write_text("\n".join(lines) + "\n")
    args = ["meters", "reconcile", str(paths["dump"]), "--floor", str(floor)]
    code = main([*args, "--counts", str(paths["counts"]), "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert code == 2, err
    assert str(floor) in err and "denomination" in err


# --- 12: NaN and deep nesting ----------------------------------------------------------


def test_verify_of_a_certificate_with_nan_is_a_located_error(signed, tmp_path, capsys):
    cert, pub = signed
    data = json.loads(cert.read_text())
    data["bet_levels"][0]["exact"]["rtp"] = float("nan")
    edited = tmp_path / "nan.json"
    edited.write_text(json.dumps(data))  # writes NaN, as Python does
    for extra in ([], ["--public-key", str(pub)]):
        capsys.readouterr()
        assert main(["verify", str(edited), *extra]) == 2
        err = capsys.readouterr().err
        assert str(edited) in err and "NaN" in err


def test_verify_of_deeply_nested_json_is_a_located_error(tmp_path, capsys):
    deep = tmp_path / "deep.json"
    deep.write_text('{"machine": ' + "[" * 200_000 + "]" * 200_000 + "}")
    assert main(["verify", str(deep)]) == 2
    err = capsys.readouterr().err
    assert str(deep) in err and "nested" in err


def test_checkpoint_manifest_nested_200000_deep_is_a_located_error(tmp_path):
    from certify.checkpoint import Checkpoint
    from certify.errors import InputError
    from certify.model import load_machine

    (tmp_path / "ck").mkdir()
    manifest = tmp_path / "ck" / "manifest.json"
    manifest.write_text("[" * 200_000 + "]" * 200_000)
    with pytest.raises(InputError, match="manifest.json.*nested"):
        Checkpoint(tmp_path / "ck", load_machine(DATA / "tiny_lines.toml"), 1, 1000)


def test_deeply_nested_toml_is_a_located_error(tmp_path, capsys):
    model = tmp_path / "deep.toml"
    model.write_text('schema = "slotcert/machine@1"\nx = ' + "[" * 100_000 + "]" * 100_000 + "\n")
    assert main(["validate", str(model)]) == 2
    err = capsys.readouterr().err
    assert str(model) in err and "nested" in err


def test_error_messages_strip_control_characters_from_model_text(tmp_path, capsys):
    """An escape sequence in a key of a model reaches stderr as plain text only."""
    text = (DATA / "tiny_lines.toml").read_text(encoding="utf-8")
    evil = tmp_path / "evil.toml"
    key = '"\\u001b]0;owned\\u0007\\u001b[2J"'
    evil.write_text(text.replace('name = "Tiny"', f'name = "Tiny"\n{key} = 1'), encoding="utf-8")
    assert main(["validate", str(evil)]) == 2
    err = capsys.readouterr().err
    assert "unknown key" in err
    assert not any(ord(c) < 32 and c != "\n" for c in err), repr(err)


# --- 11: one reader for input files ----------------------------------------------------

_RAW_READ = re.compile(
    r"\.read_text\(|\.read_bytes\(|(?<![\w])open\(|tomllib\.load\(|np\.load\("
    r"|pd\.read_(csv|parquet|json|excel)\(|pq\.read_(table|schema)\(|pacsv\.read_csv\("
)
# modules allowed to read files without certify.inputs, and why
_RAW_READERS = {
    "certify/inputs.py": "the helper itself",
    "certify/outputs.py": "writes; reads /proc/self/status for the umask",
    "certify/_numba.py": "hashes its own sources",
    "certify/engine/prefix.py": "hashes its own source; its own table cache",
    "certify/examples.py": "copies the package's own models",
    "certify/prebuilt_build.py": "build tool over the repository's models",
    "reports/translations.py": "the package's own translation files",
    "reports/browser_check.py": "files it wrote itself in a temporary folder",
    "reports/pdf.py": "the PDF the browser printed into a temporary folder",
    "reports/parcsv.py": "writes (through atomic_path)",
    "meters/jackpot_run.py": "writes (through atomic_path)",
    "certify/outcomes/logs.py": "outcome logs, streamed after regular_file() in pieces",
    "certify/outcomes/record.py": "writes (a temporary file, then os.replace)",
    "certify/outcomes/report.py": "the package's own report template",
    "meters/readers.py": "dumps, after regular_file() in _headers",
    "meters/floor.py": "floor and counts, after regular_file()",
    "meters/parallel.py": "the dump, after the command's regular_file()",
    "meters/strategies.py": "its own spilled pieces",
    "meters/operator_report.py": "CSV files, after regular_file()",
}


def test_input_files_are_read_through_certify_inputs():
    """A module reading files directly must be listed above with its reason (issue 31 item 11)."""
    offenders = []
    for package in ("certify", "reports", "meters", "slotcert"):
        for path in sorted((ROOT / package).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if rel in _RAW_READERS:
                continue
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                code = line.split("#")[0]
                if _RAW_READ.search(code) and not re.search(r"os\.open\(|io\.BytesIO\(", code):
                    offenders.append(f"{rel}:{n}: {line.strip()}")
    assert not offenders, "read through certify.inputs:\n" + "\n".join(offenders)
