"""Tiny games, one per rule of real games (SPEC 3.1a), as TOML text.

Each is small enough to count by hand; the tests state the count in their
docstrings. ``game(...)`` builds a 1-row, 1-line game from reel strips.
"""

from __future__ import annotations

import tomllib

from certify.model.loader import parse_machine
from certify.model.schema import Machine


def game(
    strips: list[list[str]],
    symbols: dict[str, str],
    pays: str,
    extra: str = "",
    bet: str = "lines = 1",
    levels: str = "[1]",
) -> Machine:
    """A machine from its strips, symbols (name -> inline table), pays and extra sections."""
    reels = len(strips)
    strip_text = ", ".join("[" + ", ".join(f'"{s}"' for s in strip) + "]" for strip in strips)
    symbol_text = "\n".join(f"{name} = {spec}" for name, spec in symbols.items())
    lines = "paylines = [[" + ", ".join("0" for _ in range(reels)) + "]]"
    if "ways" in bet:
        lines = 'evaluation = "ways"'
    text = f"""
schema = "slotcert/machine@1"
[machine]
id = "RULE-TEST"
name = "rule test"
[bet]
denomination = "0.01"
currency = "EUR"
{bet}
bet_levels = {levels}
[symbols]
{symbol_text}
[reels]
rows = 1
strips = [{strip_text}]
{lines}
{pays}
{extra}
"""
    machine, _ = parse_machine(tomllib.loads(text), "<rule test>")
    return machine


def pays(*entries: str) -> str:
    """``[[pays]]`` tables from ``"A A A = 10"`` or ``"CH CH = 5 anywhere"`` strings."""
    out = []
    for entry in entries:
        left, right = entry.split("=")
        combo = ", ".join(f'"{t}"' for t in left.split())
        words = right.split()
        table = f"[[pays]]\ncombo = [{combo}]\npays = {words[0]}\n"
        if "anywhere" in words:
            table += "anywhere = true\n"
        if "unmultiplied" in words:
            table += "free_spins_multiplier = false\n"
        out.append(table)
    return "\n".join(out)
