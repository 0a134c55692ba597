"""The issuing laboratory of a certification (``--lab NAME``, ``--lab-config FILE``).

A certificate names the laboratory that issues it. Without one (neither
``--lab`` nor ``--lab-config``) it is a draft: :func:`is_draft` is true, and
the certificate, its number, the report and ``batch.json`` say DRAFT.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from certify.errors import InputError
from certify.inputs import CONFIG_BYTES, UnreadableInput, read_text

LAB_KEYS = ("name", "id", "accreditation", "address", "contact")
DRAFT_CODE = "DRAFT"  # the lab code of a draft's certificate number


def load_lab(name: str | None, config: str | Path | None) -> dict[str, Any]:
    """The issuing lab from ``--lab NAME`` and/or a ``--lab-config`` TOML file.

    The file (``schema = "slotcert/lab@1"`` optional) may set ``name``, ``id``
    (a short code used in certificate numbers), ``accreditation``,
    ``address``, ``contact``; ``--lab`` overrides its name.

    Parameters
    ----------
    name : str or None
        ``--lab``.
    config : path or None
        ``--lab-config``.

    Returns
    -------
    dict
        The lab's fields as strings; empty when neither was given (a draft).

    Raises
    ------
    InputError
        When the file cannot be read, is not TOML, has an unknown key or no name.

    """
    lab: dict[str, Any] = {}
    if config:
        try:  # a regular file, size-bounded
            text = read_text(config, "lab config", CONFIG_BYTES)
        except UnreadableInput as exc:
            if exc.missing:
                raise InputError(f"{config}: no such lab config file") from None
            raise
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise InputError(f"{config}: cannot read lab config: {exc}") from None
        except RecursionError:
            raise InputError(f"{config}: cannot read lab config: nested too deeply") from None
        allowed = {"schema", *LAB_KEYS}
        unknown = sorted(set(data) - allowed)
        if unknown:
            raise InputError(f"{config}: {unknown[0]}: unknown key (allowed: {sorted(allowed)})")
        lab = {k: str(v) for k, v in data.items() if k != "schema"}
        if not lab.get("name") and not name:
            raise InputError(f"{config}: name: missing (the laboratory's name, or give --lab)")
    if name:
        lab["name"] = name
    return lab


def is_draft(lab: dict[str, Any] | None) -> bool:
    """Whether certificates issued under ``lab`` are drafts (no laboratory named)."""
    return not (lab or {}).get("name")
