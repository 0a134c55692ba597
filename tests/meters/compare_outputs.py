"""Compare the outputs of the meters commands at two commits, file by file.

Usage (from the repository root, with the project's venv)::

    python tests/meters/compare_outputs.py REF [--tree DIR] [--files findings.csv,...]

Checks out ``REF`` in a temporary git worktree, runs the same meters and
jackpots commands with the same inputs in it and in ``--tree`` (default: this
checkout) — a simulated faulty floor as CSV, JSON lines, SAS Parquet (in
memory, piecewise with ``--pieces 3``, and grouped by machine in small row
groups, which takes the parallel path), and the jackpot ledger of
``tests/jackpots/data`` — and compares every output file (the output folder's
name replaced). Exit 0 when all are equal, 1 otherwise, listing the files
that differ. ``--files`` restricts the comparison to those names.

Not a test (its name does not start with ``test_``): a tool to show a
behaviour-preserving change left the outputs byte-identical.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SIM = ["meters", "simulate", "--machines", "40", "--days", "15", "--seed", "5", "--faults", "all"]


def slotcert(tree: Path, *args: str) -> None:
    """Run the command line of the checkout ``tree`` (its packages first on the path)."""
    code = "import sys; from certify.cli import main; sys.exit(main(sys.argv[1:]))"
    env = {**os.environ, "PYTHONPATH": str(tree)}
    subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=tree,
        env=env,
        check=False,
        stdout=subprocess.DEVNULL,
    )


def grouped_parquet(source: Path, target: Path) -> None:
    """The SAS Parquet dump sorted by machine, in row groups of 97 rows."""
    import numpy as np
    import pyarrow.parquet as pq

    table = pq.read_table(source)
    name = next(c for c in table.column_names if "machine" in c)
    ids = np.asarray(table.column(name).to_pylist(), dtype=object)
    pq.write_table(table.take(np.argsort(ids, kind="stable")), target, row_group_size=97)


def run_all(tree: Path, out: Path) -> None:
    """Every command of the comparison, outputs under ``out``."""
    for fmt, extra in (("csv", []), ("jsonl", []), ("parquet", ["--sas"])):
        slotcert(tree, *SIM, "--format", fmt, *extra, "--out", str(out / f"sim-{fmt}"))
    runs = {
        "r-csv": ("csv", "dump.csv", []),
        "r-jsonl": ("jsonl", "dump.jsonl", []),
        "r-pq": ("parquet", "dump.parquet", []),
        "r-pq3": ("parquet", "dump.parquet", ["--pieces", "3"]),
    }
    grouped_parquet(out / "sim-parquet" / "dump.parquet", out / "grouped.parquet")
    for name, (fmt, dump, extra) in runs.items():
        sim = out / f"sim-{fmt}"
        slotcert(
            tree,
            "meters",
            "reconcile",
            str(sim / dump),
            "--floor",
            str(sim / "floor.csv"),
            "--counts",
            str(sim / "counts.csv"),
            *extra,
            "--out",
            str(out / name),
        )
    sim = out / "sim-parquet"
    slotcert(
        tree,
        "meters",
        "reconcile",
        str(out / "grouped.parquet"),
        "--floor",
        str(sim / "floor.csv"),
        "--counts",
        str(sim / "counts.csv"),
        "--out",
        str(out / "r-grouped"),
    )
    data = ROOT / "tests" / "jackpots" / "data"
    slotcert(
        tree,
        "jackpots",
        "ledger",
        str(data / "dump.csv"),
        "--floor",
        str(data / "floor.csv"),
        "--links",
        str(ROOT / "models" / "links"),
        "--hits",
        str(data / "hits.csv"),
        "--out",
        str(out / "ledger"),
    )


def differing(a: Path, b: Path, only: set[str]) -> list[str]:
    """Output files of ``a`` whose bytes differ in ``b`` (``b``'s folder name read as ``a``'s)."""
    out = []
    for path in sorted(p for p in a.rglob("*") if p.is_file() and p.suffix != ".parquet"):
        rel = path.relative_to(a)
        if rel.parts[0].startswith("sim-") or (only and path.name not in only):
            continue
        other = b / rel
        mine = path.read_bytes()
        theirs = (
            other.read_bytes().replace(str(b).encode(), str(a).encode()) if other.exists() else None
        )
        if mine != theirs:
            out.append(str(rel))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ref", help="the commit to compare with (e.g. main)")
    parser.add_argument(
        "--tree", default=str(ROOT), help="the checkout to compare (default: this one)"
    )
    parser.add_argument("--files", default="", help="comma-separated output names to compare")
    args = parser.parse_args()
    only = {f.strip() for f in args.files.split(",") if f.strip()}
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "ref"
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(base), args.ref],
            check=True,
            capture_output=True,
        )
        try:
            run_all(base, Path(tmp) / "a")
            run_all(Path(args.tree), Path(tmp) / "b")
            bad = differing(Path(tmp) / "a", Path(tmp) / "b", only)
        finally:
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(base)],
                check=False,
                capture_output=True,
            )
    for name in bad:
        print(f"differs: {name}")
    print(f"{'identical' if not bad else f'{len(bad)} file(s) differ'} ({args.ref} vs {args.tree})")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
