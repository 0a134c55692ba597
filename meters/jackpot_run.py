"""``slotcert jackpots ledger|transfer|simulate|returns``: the commands' work.

Their parser is :mod:`meters.jackpot_cli` (registered through the
``slotcert.commands`` entry point), which imports this module only when a
command runs. A transfer moves the whole captive value of a pool that cannot be awarded
to a machine or group of the **same model and stakes** (Portaria 1441/95
n.º 6); any other target is refused with one line and exit code 2.
"""

from __future__ import annotations

import argparse
import csv
import json
import re
from decimal import Decimal
from pathlib import Path

import pandas as pd

from certify.errors import InputError
from certify.inputs import CONFIG_BYTES, read_json
from certify.outputs import atomic_path, neutral_cell, write_text
from meters.codes import FINDING_COLUMNS
from meters.ledger import (
    LEDGER_COLUMNS,
    PERIOD_COLUMNS,
    Book,
    Ledger,
    Transfer,
    as_time,
    compute_ledger,
    ledger_periods,
    load_book,
    read_hits,
    read_readings,
    shown_row,
)

EXIT_OK, EXIT_FAIL = 0, 1
TRANSFER_SCHEMA = "slotcert/jackpot-transfer@1"
RULE = "Portaria 1441/95 n.º 6"


def _inputs(
    args: argparse.Namespace,
) -> tuple[Book, tuple[pd.DataFrame, int, int], list, list, list, int | None]:
    book = load_book(args.floor, args.links, args.digits)
    readings, rows_in, bad = read_readings(args.dumps)
    hits, findings = read_hits(args.hits, book)
    transfers = read_transfers(args.transfers)
    return book, (readings, rows_in, bad), hits, findings, transfers, as_time(args.at)


def cmd_ledger(args: argparse.Namespace) -> int:
    """Run ``jackpots ledger``: 1 if any error-level finding, else 0."""
    book, (readings, rows_in, bad), hits, found, transfers, at = _inputs(args)
    ledger = compute_ledger(book, readings, hits, transfers, at)
    ledger.findings[:0] = found
    ledger.rows_in, ledger.rows_unusable = rows_in, bad
    out = Path(args.out)
    periods = None
    if args.period:
        from meters.config import period_ns

        step = period_ns(args.period)
        periods = ledger_periods(book, readings, hits, transfers, ledger.as_of, step)
    write_ledger(ledger, out, periods)
    errors = sum(f["severity"] == "error" for f in ledger.findings)
    when = ledger.rows[0]["as_of"] if ledger.rows else "-"
    print(
        f"{len(ledger.rows)} pools, captive total {_q(ledger.total)} at {when} "
        f"(sub-cent remainder carried {ledger.remainder}); "
        f"findings: {errors} error, {len(ledger.findings) - errors} other -> {out}"
    )
    return EXIT_FAIL if errors else EXIT_OK


def cmd_transfer(args: argparse.Namespace) -> int:
    """Run ``jackpots transfer``: refuse (exit 2) or write the record and balances."""
    book, (readings, _, _), hits, _, transfers, at = _inputs(args)
    before = compute_ledger(book, readings, hits, transfers, at)
    target = resolve_target(book, args.pool, args.to)
    amount = before.captive(args.pool)
    if amount <= 0:
        raise InputError(
            f"transfer refused: pool {args.pool} holds {_q(amount)}, nothing to transfer"
        )
    record = Transfer(transfer_id(args.pool, before.as_of), before.as_of, args.pool, target, amount)
    after = compute_ledger(book, readings, hits, transfers + [record], before.as_of)
    if after.total != before.total:  # pragma: no cover - an invariant, not an input error
        raise InputError(f"transfer {record.id}: balances {before.total} != {after.total}")
    paths = write_transfer(record, book, before, after, args.reason, Path(args.out))
    print(
        f"transferred {_q(amount)} from {args.pool} to {target} at "
        f"{before.rows[0]['as_of']}; total captive {_q(before.total)} before and after "
        f"-> {paths[0]}"
    )
    return EXIT_OK


def cmd_simulate(args: argparse.Namespace) -> int:
    """Run ``jackpots simulate``: print the summary of a pool run as JSON."""
    from certify.model import load_machine, schema_of
    from certify.model.links import load_link
    from certify.pools import simulate_pool
    from certify.pools.specs import link_pool, machine_pool
    from certify.pools.summary import summarize

    if schema_of(args.model) == "slotcert/link@1":
        spec = link_pool(load_link(args.model), None, args.spins_per_day)
    else:
        machine = load_machine(args.model)
        if not machine.jackpots:
            raise InputError(f"{args.model}: model {machine.id} has no [[jackpots]]")
        pool = args.pool or machine.jackpots[0].id
        level = args.level or machine.bet_levels[-1]
        jp = next((j for j in machine.jackpots if j.id == pool), None)
        exact = None
        if jp is not None and jp.mystery is None:  # a combo, a full window or hold and spin
            from certify.exact import compute_exact

            result = compute_exact(machine)
            exact = result.levels if result else None
        spec = machine_pool(machine, pool, level, args.spins_per_day, exact)
    run = simulate_pool(spec, args.days, args.paths, args.seed)
    print(json.dumps(summarize(run), indent=2, sort_keys=True))
    return EXIT_OK


def cmd_returns(args: argparse.Namespace) -> int:
    """Run ``jackpots returns``: one JSON row per member (exact figures per model)."""
    from certify.exact import compute_exact
    from certify.jackpot_return import group_returns
    from certify.model.links import load_link

    link = load_link(args.link)
    exacts = {}
    for m in link.members:
        if m.machine.id not in exacts:
            result = compute_exact(m.machine)
            exacts[m.machine.id] = result.levels if result else None
    rows = [
        {
            "machine_id": r.machine_id,
            "model": r.model,
            "bet_level": r.bet_level,
            "base_rtp": r.base_rtp,
            "group_rtp": r.group.rtp,
            "own_jackpot_rtp": r.own_jackpot_rtp,
            "jackpot_rtp": r.jackpot_rtp,
            "rtp": r.rtp,
            "hit_probability": r.group.hit_probability,
            "mean_amount": r.group.mean_amount,
        }
        for r in group_returns(link, exacts)
    ]
    print(json.dumps({"link": link.id, "members": rows}, indent=2, sort_keys=True))
    return EXIT_OK


def resolve_target(book: Book, source: str, to: str) -> str:
    """The target pool key; refuse one of another model or stake (InputError)."""
    if source not in book.pools:
        raise InputError(
            f"--pool {source!r}: no such pool (pools: {', '.join(sorted(book.pools))})"
        )
    key = to if to in book.pools else None
    if key is None and to in book.machines:
        suffix = source.split(":", 1)[-1]
        mine = [k for k in book.machines[to].pools if k.split(":", 1)[-1] == suffix]
        key = mine[0] if len(mine) == 1 else None
        if key is None:
            raise InputError(
                f"transfer refused: machine {to} has no pool like {source} "
                f"(its pools: {', '.join(book.machines[to].pools) or 'none'})"
            )
    if key is None:
        raise InputError(
            f"transfer refused: --to {to!r} is neither a pool nor a machine on the floor"
        )
    if key == source:
        raise InputError(f"transfer refused: {source} cannot be transferred to itself")
    src, dst = book.pools[source], book.pools[key]
    if not src.signature or src.signature != dst.signature or src.currency != dst.currency:
        raise InputError(
            f"transfer refused: {source} is {_sig(src.signature, src.currency)} "
            f"but {key} is {_sig(dst.signature, dst.currency)}; captive values go "
            f"only to a machine or group of the same model and stakes ({RULE})"
        )
    return key


def _sig(signature: set[tuple[str, str]], currency: str) -> str:
    if not signature:
        return "of unknown model and stake"
    return " + ".join(f"model {m} at stake {s} {currency}" for m, s in sorted(signature))


def transfer_id(source: str, at: int) -> str:
    """A file-safe transfer id: ``TR-<UTC time>-<source>``."""
    stamp = pd.Timestamp(at, tz="UTC").strftime("%Y%m%dT%H%M%SZ")
    return f"TR-{stamp}-{re.sub(r'[^A-Za-z0-9_.-]+', '_', source)}"


def read_transfers(paths: list[str]) -> list[Transfer]:
    """Transfer records (``slotcert/jackpot-transfer@1`` JSON) from files or folders."""
    files: list[Path] = []
    for raw in paths:
        p = Path(raw)
        files.extend(sorted(p.glob("TR-*.json")) if p.is_dir() else [p])
    out = []
    for f in files:
        try:
            doc = read_json(f, "transfer record", CONFIG_BYTES)
            if doc.get("schema") != TRANSFER_SCHEMA:
                raise ValueError(f"schema must be {TRANSFER_SCHEMA!r}")
            out.append(
                Transfer(
                    doc["id"],
                    as_time(doc["at"]) or 0,
                    doc["from"],
                    doc["to"],
                    Decimal(doc["amount"]),
                )
            )
        except InputError:
            raise
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise InputError(f"{f}: not a transfer record: {exc}") from None
    return out


def _q(value: Decimal) -> str:
    return str(value.quantize(Decimal("0.01")))


def _text(value: object) -> object:
    return str(value) if isinstance(value, Decimal) else value


def write_ledger(ledger: Ledger, out: Path, periods: list[dict] | None = None) -> None:
    """Write ``ledger.csv``, ``findings.csv`` and ``summary.json`` into ``out``.

    ``ledger.csv`` shows money to the cent with each pool's sub-cent
    remainder in ``remainder_carried`` (:func:`meters.ledger.shown_row`);
    ``summary.json`` gives the exact total and the total remainder carried;
    ``periods`` (:func:`meters.ledger.ledger_periods`) go to ``ledger-periods.csv``.
    """
    out.mkdir(parents=True, exist_ok=True)
    _csv(
        out / "ledger.csv",
        LEDGER_COLUMNS,
        [{k: _text(v) for k, v in shown_row(r).items()} for r in ledger.rows],
    )
    _csv(out / "findings.csv", FINDING_COLUMNS, ledger.findings)
    if periods is not None:
        _csv(
            out / "ledger-periods.csv",
            PERIOD_COLUMNS,
            [{k: _text(v) for k, v in r.items()} for r in periods],
        )
    codes: dict[str, int] = {}
    for f in ledger.findings:
        codes[str(f["code"])] = codes.get(str(f["code"]), 0) + 1
    summary = {
        "schema": "slotcert/jackpot-ledger@1",
        "as_of": ledger.rows[0]["as_of"] if ledger.rows else None,
        "rows_in": ledger.rows_in,
        "rows_unusable": ledger.rows_unusable,
        "pools": len(ledger.rows),
        "captive_total": str(ledger.total),
        "captive_total_cents": str(ledger.total_cents),
        "remainder_carried": str(ledger.remainder),
        "findings": codes,
    }
    write_text(out / "summary.json", json.dumps(summary, indent=2, sort_keys=True) + "\n")


def write_transfer(
    record: Transfer, book: Book, before: Ledger, after: Ledger, reason: str, out: Path
) -> list[Path]:
    """Write the transfer record (JSON + CSV) and the balances before and after."""
    out.mkdir(parents=True, exist_ok=True)
    src, dst = book.pools[record.source], book.pools[record.target]
    iso = before.rows[0]["as_of"]
    doc = {
        "schema": TRANSFER_SCHEMA,
        "id": record.id,
        "at": iso,
        "from": record.source,
        "to": record.target,
        "amount": str(record.amount),
        "currency": src.currency,
        "reason": reason,
        "rule": RULE,
        "model_and_stakes": sorted([m, s] for m, s in src.signature),
        "target_model_and_stakes": sorted([m, s] for m, s in dst.signature),
        "balances_before": {r["pool"]: str(r["captive"]) for r in before.rows},
        "balances_after": {r["pool"]: str(r["captive"]) for r in after.rows},
        "total_before": str(before.total),
        "total_after": str(after.total),
    }
    json_path = out / f"{record.id}.json"
    write_text(json_path, json.dumps(doc, indent=2, sort_keys=True) + "\n")
    csv_path = out / f"{record.id}.csv"
    _csv(
        csv_path,
        ("id", "at", "from", "to", "amount", "currency", "reason"),
        [
            {
                "id": record.id,
                "at": iso,
                "from": record.source,
                "to": record.target,
                "amount": str(record.amount),
                "currency": src.currency,
                "reason": reason,
            }
        ],
    )
    rows = [
        {"pool": b["pool"], "before": str(b["captive"]), "after": str(a["captive"])}
        for b, a in zip(before.rows, after.rows, strict=True)
    ]
    rows.append({"pool": "TOTAL", "before": str(before.total), "after": str(after.total)})
    _csv(out / f"{record.id}.balances.csv", ("pool", "before", "after"), rows)
    return [json_path, csv_path]


def _csv(path: Path, columns: tuple[str, ...], rows: list[dict[str, object]]) -> None:
    """Write rows as CSV, atomically, text cells neutralised (:mod:`certify.outputs`)."""
    with atomic_path(path) as tmp, open(tmp, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(columns), extrasaction="ignore")
        writer.writeheader()
        writer.writerows({k: neutral_cell(v) for k, v in r.items()} for r in rows)
