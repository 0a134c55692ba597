"""The file kinds slotcert reads and writes: one registry of their names and schema strings.

Every file carries its kind and format version in a ``schema`` key
(``slotcert/machine@1``). This module is the one place those strings are
written; the loaders, the wrong-kind check, the folder walk of ``certify``,
the JSON Schemas and the writers take them from here. It imports nothing of
the package, so any module may use it. Dispatch on a model file's kind
(which loader reads it) lives in :mod:`certify.model.files`.
"""

from __future__ import annotations

from dataclasses import dataclass

MODEL, CONFIG, OUTPUT = "model", "config", "output"


@dataclass(frozen=True)
class FileKind:
    """One kind of file.

    Parameters
    ----------
    name : str
        The kind's name (``machine``; ``slotcert schema NAME`` for model kinds).
    schema : str
        The ``schema`` value files of this kind carry.
    role : str
        ``model`` (a model file, validated), ``config`` (a settings file read
        by a command) or ``output`` (a file slotcert writes).
    meaning : str
        One line: what the file holds.

    """

    name: str
    schema: str
    role: str
    meaning: str


MACHINE = FileKind("machine", "slotcert/machine@1", MODEL, "a slot machine (SPEC 3.1)")
JURISDICTION = FileKind(
    "jurisdiction", "slotcert/jurisdiction@1", MODEL, "a jurisdiction's rules (SPEC 3.2)"
)
LINK = FileKind("link", "slotcert/link@1", MODEL, "a linked jackpot group (JACKPOTS.md)")
TABLE = FileKind("table", "slotcert/table@1", MODEL, "a banked table game (TABLES.md)")
LAB = FileKind("lab", "slotcert/lab@1", CONFIG, "the issuing laboratory (--lab-config)")
CERTIFICATE = FileKind(
    "certificate", "slotcert/certificate@1", OUTPUT, "a machine's certificate (SPEC 6)"
)
BATCH = FileKind("batch", "slotcert/batch@1", OUTPUT, "batch.json of `slotcert certify`")
CHECKPOINT = FileKind(
    "checkpoint", "slotcert/checkpoint@1", OUTPUT, "a run's record of finished chunks"
)
METERS_SUMMARY = FileKind(
    "meters-summary", "slotcert/meters-summary@1", OUTPUT, "summary.json of `slotcert meters`"
)
JACKPOT_LEDGER = FileKind(
    "jackpot-ledger", "slotcert/jackpot-ledger@1", OUTPUT, "a jackpot pool's ledger"
)
JACKPOT_TRANSFER = FileKind(
    "jackpot-transfer", "slotcert/jackpot-transfer@1", OUTPUT, "a pool transfer record"
)
OUTCOMES = FileKind(
    "outcomes", "slotcert/outcomes@1", OUTPUT, "outcomes.json of `slotcert outcomes verify`"
)

MODEL_KINDS: tuple[FileKind, ...] = (MACHINE, JURISDICTION, LINK, TABLE)
ALL_KINDS: tuple[FileKind, ...] = (
    *MODEL_KINDS,
    LAB,
    CERTIFICATE,
    BATCH,
    CHECKPOINT,
    METERS_SUMMARY,
    JACKPOT_LEDGER,
    JACKPOT_TRANSFER,
    OUTCOMES,
)
MODEL_KIND_NAMES: tuple[str, ...] = tuple(k.name for k in MODEL_KINDS)
KIND_OF_SCHEMA: dict[str, str] = {k.schema: k.name for k in MODEL_KINDS}
_BY_NAME = {k.name: k for k in ALL_KINDS}


def model_kind(schema: str) -> str:
    """The model kind a ``schema`` value names (``slotcert/link@1`` -> ``link``), else ``''``."""
    return KIND_OF_SCHEMA.get(schema, "")


def schema_of_kind(name: str) -> str:
    """The ``schema`` value of the kind called ``name`` (``table`` -> ``slotcert/table@1``).

    Raises
    ------
    KeyError
        For a name that is no kind.

    """
    return _BY_NAME[name].schema
