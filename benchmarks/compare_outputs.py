"""Compare two `slotcert certify --out` folders file by file, run times aside.

A behaviour-preserving change must leave every output byte-identical apart
from the figures that measure the run itself: run times, and the moment of
issue (``issued_utc``, the certificate number's time stamp, the workbook's
created / modified dates). A workbook (``.xlsx``, a zip) is compared member
by member, its zip dates aside. Usage::

    python -m benchmarks.compare_outputs BEFORE_DIR AFTER_DIR

Exit 0 when equal, 1 with the differing files and their first differing
lines otherwise.
"""

from __future__ import annotations

import re
import sys
import zipfile
from pathlib import Path

# what legitimately changes from run to run: measured run times
RUN_TIME = re.compile(r'("runtime_s": )[0-9.eE+-]+|(\b[0-9]+\.[0-9]+ s\b)')
# ... and the moment of issue: ISO date-times and the certificate number's stamp
ISSUED = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)?|\d{8}T\d{6}Z")


def _lines(text: str) -> list[str]:
    return [ISSUED.sub("<issued>", RUN_TIME.sub("<time>", line)) for line in text.splitlines()]


def normalised(path: Path) -> list[str]:
    """The file's lines with run times and issue times blanked (a zip: member by member)."""
    if zipfile.is_zipfile(path):
        out = []
        with zipfile.ZipFile(path) as z:
            for name in sorted(z.namelist()):
                out.append(f"== {name}")
                out += _lines(z.read(name).decode("utf-8", errors="replace"))
        return out
    return _lines(path.read_text(encoding="utf-8", errors="replace"))


def compare(before: Path, after: Path) -> list[str]:
    """Differences between two output folders, one message each."""
    problems = []
    names = sorted({p.name for p in before.iterdir()} | {p.name for p in after.iterdir()})
    for name in names:
        a, b = before / name, after / name
        if not a.exists() or not b.exists():
            problems.append(f"{name}: only in {'after' if b.exists() else 'before'}")
            continue
        la, lb = normalised(a), normalised(b)
        if la != lb:
            first = next(
                (i for i, (x, y) in enumerate(zip(la, lb)) if x != y), min(len(la), len(lb))
            )
            problems.append(f"{name}: line {first + 1} differs")
    return problems


def main(argv: list[str]) -> int:
    """Entry point: print differences, exit 1 if any."""
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    problems = compare(Path(argv[0]), Path(argv[1]))
    for p in problems:
        print(p)
    print("identical (run times aside)" if not problems else f"{len(problems)} files differ")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
