"""Every written slotopol game on every other reel set of its data file, against the set's key.

Each ``<game>_data.yaml`` of slotopol/server keys its reel sets by the return the
server's brute force printed for them. A model here is written for one of them
(``[machine] version``); its symbol names are mapped to the data file's ids by
aligning its strips with that set's, then every other set is put in its place (and
in the free spins', where those are the base strips again, some symbols renamed)
and its exact return compared with the key to the key's printed rounding.

Run: ``python tests/data/real/reel_sets.py --repo PATH/TO/slotopol-server [NAME.toml ...]``
(a git directory of the server; default: every model of this folder). Not a test: it
needs the server's repository and PyYAML (``pip install pyyaml``). Results of
2026-12-07 in this folder's SOURCES.md.
"""

from __future__ import annotations

import argparse
import copy
import re
import subprocess
import tomllib
from pathlib import Path

import yaml

from certify.exact import compute_exact
from certify.model.loader import parse_machine

HERE = Path(__file__).resolve().parent
# printed with the first line selected only (tests/exact/test_real_games.py PRINTED_ONE_LINE)
ONE_LINE = {
    "agt_hot_clover", "agt_ice_ice_ice", "agt_shining_stars", "ct_cherrycrown", "ct_chillibomb",
    "ct_colibriwild", "ct_groovy_powers", "ct_jolly_beluga_whales", "ct_misty_forest",
    "ct_moneypipe", "novomatic_flame_dancer", "novomatic_katana",
}  # fmt: skip


def reel_sets(repo: str, text: str) -> dict[float, list] | None:
    """The data file's reel sets by key, for the rule file a model's header names."""
    m = re.search(r"game/slot/([a-z0-9]+)/([a-z0-9]+)/", text)
    if m is None:
        return None
    prov, game = m.groups()
    path = f"HEAD:game/slot/{prov}/{game}/{game}_data.yaml"
    out = subprocess.run(["git", f"--git-dir={repo}", "show", path], capture_output=True, text=True)
    if out.returncode != 0:
        return None
    sets: dict[float, list] = {}
    for doc in yaml.safe_load_all(out.stdout):
        if isinstance(doc, dict) and doc and all(isinstance(k, float) for k in doc):
            sets.update(doc)
    return sets


def _names(ids: dict, reels: list) -> list[list[str]]:
    return [[ids[i] for i in reel] for reel in reels]


def _with_set(raw: dict, strips: list, new: list[list[str]], name: str) -> dict:
    """The model with ``new`` base strips (and free-spin strips alike where they repeat them)."""
    out = copy.deepcopy(raw)
    out["reels"]["strips"] = new
    fs = out.get("free_spins", {})
    if isinstance(fs.get("strips"), list) and [len(x) for x in fs["strips"]] == [
        len(x) for x in strips
    ]:
        ren: dict[str, str] = {}
        pairs = [(a, b) for x, y in zip(strips, fs["strips"]) for a, b in zip(x, y)]
        if all(ren.setdefault(a, b) == b for a, b in pairs):
            fs["strips"] = [[ren.get(c, c) for c in x] for x in new]
    if name in ONE_LINE:
        out["bet"]["lines"] = 1
        out["reels"]["paylines"] = out["reels"]["paylines"][:1]
    return out


def check(repo: str, path: Path) -> str:
    """One line per model, then one per other set whose return is not its key."""
    text = path.read_text(encoding="utf-8")
    raw = tomllib.loads(text)
    try:
        key = float(raw["machine"].get("version", ""))
    except ValueError:
        return f"{path.name}: its version is not a reel set key"
    sets = reel_sets(repo, text)
    strips = raw["reels"]["strips"]
    if not sets or key not in sets or [len(r) for r in sets[key]] != [len(s) for s in strips]:
        return f"{path.name}: no reel set {key} shaped as its strips"
    ids: dict = {}
    for a, b in zip(sets[key], strips, strict=True):
        for i, s in zip(a, b, strict=True):
            if ids.setdefault(i, s) != s:
                return f"{path.name}: id {i} is both {ids[i]} and {s}"
    others = []
    for k, reels in sorted(sets.items()):
        if k == key:
            continue
        if len(reels) != len(strips) or any(i not in ids for r in reels for i in r):
            others.append(f"    {k}: ids the model does not name")
            continue
        m = parse_machine(_with_set(raw, strips, _names(ids, reels), path.stem), path.name)[0]
        result = compute_exact(m)
        rtp = result.levels[0].rtp * 100 if result else float("nan")
        half = 0.5 * 10.0 ** -len(repr(k).partition(".")[2])
        if not abs(rtp - k) <= half + 1e-9:
            others.append(f"    {k}: {rtp:.9f}")
    n = len(sets) - 1
    return f"{path.name}: {n - len(others)} of {n} other sets equal their key" + "".join(
        "\n" + o for o in others
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--repo", required=True, help="slotopol/server's git directory")
    parser.add_argument("--folder", default=str(HERE), help="the models' folder (default: this)")
    parser.add_argument("names", nargs="*", help="model files of the folder (default: all)")
    args = parser.parse_args()
    folder = Path(args.folder)
    paths = [folder / n for n in args.names] or sorted(folder.glob("*.toml"))
    for path in paths:
        print(check(args.repo, path), flush=True)


if __name__ == "__main__":
    main()
