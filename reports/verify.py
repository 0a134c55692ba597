"""``slotcert verify CERTIFICATE.json [MODEL] [--public-key KEY]``.

Checks the certificate's signature (see :mod:`reports.signing`) against
``--public-key`` — naming every key path changed since signing — and that a
model is unchanged since certification.

The certificate records the model's fingerprint and its canonical form
(``machine.fingerprint``, ``machine.canonical``). The model file is loaded
again, fingerprinted, and every characteristic that differs is printed by its
key path in the machine file (``reels.strips[2][17]: "K" -> "Q"``).

Exit codes: 0 unchanged (and, with ``--public-key``, validly signed by that
key), 1 changed, unsigned (unless ``--allow-unsigned``, and always when a key
was given), wrongly signed or altered, 2 unreadable certificate, key or model.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path
from typing import Any

from certify.errors import InputError

EXIT_UNCHANGED, EXIT_CHANGED = 0, 1
_FINGERPRINT = re.compile(r"^sha256:[0-9a-f]{64}$")


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``verify`` sub-command to ``sub``."""
    p = sub.add_parser(
        "verify",
        help="check a model is unchanged since its certificate; exit 1 naming each change",
        description="Fingerprint MODEL again and compare it with the certificate: exit 0 "
        "unchanged, 1 changed (each changed key path printed) or unsigned (unless "
        "--allow-unsigned), 2 unreadable input.",
        epilog="example:\n  slotcert verify out/REF-5X3-20.certificate.json "
        "models/machines/ref-5x3-20.toml\n",
    )
    p.add_argument(
        "certificate", metavar="CERTIFICATE.json", help="a certificate written by certify"
    )
    p.add_argument("model", metavar="MODEL", nargs="?", help="the model file to compare")
    p.add_argument(
        "--public-key",
        metavar="KEY.pub",
        help="check the certificate's Ed25519 signature against this PEM public key",
    )
    p.add_argument(
        "--allow-unsigned",
        action="store_true",
        help="accept an unsigned certificate (exit 0 when the model is unchanged); "
        "without it an unsigned certificate exits 1",
    )
    p.set_defaults(func=cmd_verify)


def cmd_verify(args: argparse.Namespace) -> int:
    """Run ``slotcert verify`` and return its exit code."""
    from certify.model.files import expect_kind
    from reports.signing import check_signature, load_public_key

    if args.model is not None:
        expect_kind(args.model, "machine")
    key = load_public_key(args.public_key) if args.public_key else None
    data = _read_json(Path(args.certificate))
    if not isinstance(data, dict):
        read_certificate(args.certificate)  # raises, saying what is missing
    status, lines = check_signature(data, key)
    refused = status == "unsigned" and (key is not None or not args.allow_unsigned)
    if refused and key is None:
        lines = [f"{lines[0]} (exit 1: --allow-unsigned accepts an unsigned certificate)"]
    if _is_draft(data):
        lines = [*lines, "certificate is a DRAFT: it names no issuing laboratory"]
    shown = [line if line.startswith("  ") else f"{args.certificate}: {line}" for line in lines]
    if status in ("wrong-key", "invalid", "altered") or (status == "unsigned" and key):
        print("\n".join(shown))
        return EXIT_CHANGED
    code = EXIT_UNCHANGED if args.model is None else _compare_model(args)
    print("\n".join(shown))  # the signature's status last: the changes come first
    return EXIT_CHANGED if refused else code


def _is_draft(data: dict[str, Any]) -> bool:
    ident = data.get("certificate")
    return isinstance(ident, dict) and ident.get("draft") is True


def _compare_model(args: argparse.Namespace) -> int:
    from certify.model import load_machine
    from certify.model.files import expect_kind
    from certify.model.fingerprint import canonical_form, diff_canonical, fingerprint

    expect_kind(args.model, "machine")
    recorded, canonical = read_certificate(args.certificate)
    machine = load_machine(args.model)
    current = fingerprint(machine)
    if current == recorded:
        print(f"{args.model}: unchanged since certification ({current})")
        return EXIT_UNCHANGED
    print(f"{args.model}: CHANGED since certification (certified {recorded}, now {current})")
    if canonical is None:
        print("  the certificate has no machine.canonical, so the changes cannot be named")
        return EXIT_CHANGED
    for line in diff_canonical(canonical, canonical_form(machine)) or ["(no named change)"]:
        print(f"  {line}")
    return EXIT_CHANGED


def read_certificate(path: str | Path) -> tuple[str, dict[str, Any] | None]:
    """Read a certificate's recorded fingerprint and canonical form.

    Parameters
    ----------
    path : str or Path
        A ``slotcert/certificate@1`` JSON file.

    Returns
    -------
    tuple
        ``(fingerprint, canonical)``; ``canonical`` is None in a certificate
        written without it.

    Raises
    ------
    InputError
        When the file cannot be read, is not JSON, lacks a well-formed
        ``machine.fingerprint``, or its ``machine.canonical`` does not hash to it.

    """
    from certify.model.fingerprint import fingerprint_of

    data = _read_json(Path(path))
    machine = data.get("machine") if isinstance(data, dict) else None
    if not isinstance(machine, dict):
        raise InputError(f"{path}: not a slotcert certificate: no `machine` table")
    recorded = machine.get("fingerprint")
    if not isinstance(recorded, str) or not _FINGERPRINT.match(recorded):
        raise InputError(
            f'{path}: machine.fingerprint must be "sha256:<64 hex digits>", got {recorded!r}'
        )
    canonical = machine.get("canonical")
    if canonical is None:
        return recorded, None
    if not isinstance(canonical, dict):
        raise InputError(f"{path}: machine.canonical must be an object, got {canonical!r:.40}")
    if fingerprint_of(canonical) != recorded:
        raise InputError(
            f"{path}: machine.canonical does not hash to machine.fingerprint "
            f"{recorded}: the certificate was altered"
        )
    return recorded, canonical


def _read_json(path: Path) -> Any:
    """The certificate, parsed strictly: a key twice, NaN or deep nesting is refused."""
    from certify.inputs import DOCUMENT_BYTES, read_json

    return read_json(path, "certificate", DOCUMENT_BYTES)
