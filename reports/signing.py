"""Certificate identity and Ed25519 signatures (``slotcert keygen``, ``certify --sign-key``).

What is signed
--------------
The certificate without its ``signature`` member, serialised canonically
(``json.dumps(sort_keys=True, separators=(",", ":"), ensure_ascii=True)``),
so whitespace and key order do not matter but every value does. The
``signature`` member holds:

* ``algorithm``: ``"Ed25519"``;
* ``public_key``: ``"sha256:<hex>"`` of the raw 32-byte public key (which key
  signed; the key itself is never written into a certificate);
* ``payload_sha256``: SHA-256 of the canonical payload;
* ``digests``: a short digest (first 16 hex digits of SHA-256) of every
  value down to :data:`DIGEST_DEPTH` levels (``bet_levels[0].exact.rtp``):
  they let ``slotcert verify`` *name* what changed in an edited certificate;
* ``value``: base64 Ed25519 signature over the canonical JSON of the other
  members of ``signature`` (so the digests are signed too, and through
  ``payload_sha256`` the whole certificate).

A private key is read from the ``--sign-key`` file and used in memory only:
it is never printed, logged or written anywhere but by ``slotcert keygen``.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import os
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from certify.errors import InputError, UsageError
from certify.inputs import KEY_BYTES, read_bytes
from certify.lab import DRAFT_CODE, is_draft
from certify.lab import load_lab as load_lab  # where it was; certify.api reads labs too
from certify.outputs import create_new

DRAFT_LAB = "none (DRAFT: no --lab or --lab-config given)"

ALGORITHM = "Ed25519"
DIGEST_DEPTH = 4
PRIVATE_NAME, PUBLIC_NAME = "slotcert-signing.key", "slotcert-signing.pub"
PASSPHRASE_ENV = "SLOTCERT_SIGN_KEY_PASSPHRASE"


def canonical_bytes(value: Any) -> bytes:
    """The canonical JSON encoding signatures and digests are computed over."""
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False
    ).encode("ascii")


def _short(value: Any) -> str:
    return hashlib.sha256(canonical_bytes(value)).hexdigest()[:16]


def path_digests(value: Any, depth: int = DIGEST_DEPTH) -> dict[str, str]:
    """Digest of every value by its key path, down to ``depth`` segments."""
    out: dict[str, str] = {}

    def walk(node: Any, path: str, level: int) -> None:
        if level >= depth or not isinstance(node, dict | list) or not node:
            out[path] = _short(node)
            return
        items = node.items() if isinstance(node, dict) else enumerate(node)
        for key, child in items:
            if isinstance(node, list):
                sub = f"{path}[{key}]"
            else:
                sub = f"{path}.{key}" if path else str(key)
            walk(child, sub, level + 1)

    walk(value, "", 0)
    return out


# --- identity --------------------------------------------------------------------------


def _lab_code(lab: dict[str, Any]) -> str:
    if is_draft(lab):
        return DRAFT_CODE
    raw = lab.get("id") or "".join(w[0] for w in str(lab["name"]).split() if w[:1].isalnum())
    code = "".join(ch for ch in str(raw).upper() if ch.isalnum())[:12]
    return code or "LAB"


def identity(
    certificate: dict[str, Any], lab: dict[str, Any], issued: datetime | None = None
) -> dict[str, Any]:
    """The certificate's ``certificate`` member: number, issue date, lab, what it certifies.

    The number is ``<lab code>-<jurisdiction>-<UTC issue time>-<fingerprint>``:
    unique per lab, model, jurisdiction and second. Without a laboratory
    (:func:`certify.lab.is_draft`) the certificate is a draft: ``draft`` is
    true, its number starts ``DRAFT-`` and its ``title`` says so.
    """
    when = (issued or datetime.now(UTC)).astimezone(UTC).replace(microsecond=0)
    fp = str(certificate["machine"]["fingerprint"])
    jur = certificate.get("jurisdiction") or {}
    number = "-".join(
        (
            _lab_code(lab),
            str(jur.get("id", "X")).upper(),
            when.strftime("%Y%m%dT%H%M%SZ"),
            fp.removeprefix("sha256:")[:12].upper(),
        )
    )
    draft = is_draft(lab)
    model = certificate["machine"]["id"]
    return {
        "title": (
            f"DRAFT certificate of {model}: no issuing laboratory (--lab), not valid for approval"
            if draft
            else f"Certificate of {model}"
        ),
        "draft": draft,
        "number": number,
        "issued_utc": when.isoformat().replace("+00:00", "Z"),
        "lab": lab if not draft else {"name": DRAFT_LAB},
        "tool_version": (certificate.get("tool") or {}).get("version"),
        "model_id": certificate["machine"]["id"],
        "model_fingerprint": fp,
        "jurisdiction": jur.get("id"),
        "jurisdiction_name": jur.get("name"),
    }


# --- keys ------------------------------------------------------------------------------


def _crypto() -> Any:
    """``cryptography``'s serialization and Ed25519 modules (declared; loaded on first use)."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ed25519

    return serialization, ed25519


def public_key_id(public_key: Any) -> str:
    """``sha256:<hex>`` of a public key's raw 32 bytes."""
    serialization, _ = _crypto()
    raw = public_key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return "sha256:" + hashlib.sha256(raw).hexdigest()


def generate_keys(directory: str | Path) -> tuple[Path, Path, str]:
    """Write a new key pair into ``directory``; refuse to overwrite. Returns paths and key id."""
    serialization, ed25519 = _crypto()
    folder = Path(directory)
    folder.mkdir(parents=True, exist_ok=True)
    private, public = folder / PRIVATE_NAME, folder / PUBLIC_NAME
    for path in (private, public):
        if os.path.lexists(path):  # a symlink, even dangling, is never written through
            raise UsageError(f"{path}: already exists; not overwriting a key")
    key = ed25519.Ed25519PrivateKey.generate()
    pem = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    pub = key.public_key()
    pub_pem = pub.public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    try:
        create_new(private, pem, 0o600)
        try:
            create_new(public, pub_pem, 0o644)
        except BaseException:
            private.unlink()
            raise
    except FileExistsError as exc:
        raise UsageError(f"{exc.filename}: already exists; not overwriting a key") from None
    return private, public, public_key_id(pub)


def load_private_key(path: str | Path) -> Any:
    """An Ed25519 private key from a PEM file (passphrase from the environment if set)."""
    serialization, ed25519 = _crypto()
    data = read_bytes(path, "signing key", KEY_BYTES)
    secret = os.environ.get(PASSPHRASE_ENV)
    try:
        key = serialization.load_pem_private_key(data, password=secret.encode() if secret else None)
    except (ValueError, TypeError):
        raise InputError(
            f"{path}: not a usable PEM private key (encrypted keys need {PASSPHRASE_ENV})"
        ) from None
    if not isinstance(key, ed25519.Ed25519PrivateKey):
        raise InputError(f"{path}: not an Ed25519 private key")
    return key


def load_public_key(path: str | Path) -> Any:
    """An Ed25519 public key from a PEM file."""
    serialization, ed25519 = _crypto()
    data = read_bytes(path, "public key", KEY_BYTES)
    try:
        key = serialization.load_pem_public_key(data)
    except ValueError:
        raise InputError(f"{path}: not a PEM public key") from None
    if not isinstance(key, ed25519.Ed25519PublicKey):
        raise InputError(f"{path}: not an Ed25519 public key")
    return key


# --- sign and check --------------------------------------------------------------------


def sign_certificate(certificate: dict[str, Any], key: Any) -> dict[str, Any]:
    """A copy of ``certificate`` with its ``signature`` member."""
    payload = {k: v for k, v in certificate.items() if k != "signature"}
    block: dict[str, Any] = {
        "algorithm": ALGORITHM,
        "public_key": public_key_id(key.public_key()),
        "payload_sha256": hashlib.sha256(canonical_bytes(payload)).hexdigest(),
        "digests": path_digests(payload),
    }
    block["value"] = base64.b64encode(key.sign(canonical_bytes(block))).decode("ascii")
    return {**payload, "signature": block}


def check_signature(certificate: dict[str, Any], public_key: Any | None) -> tuple[str, list[str]]:
    """Check a certificate's signature.

    Returns
    -------
    tuple
        ``(status, lines)``; status is ``"valid"``, ``"unsigned"``,
        ``"unchecked"`` (signed, no public key given), ``"wrong-key"`` (signed
        by another key), ``"invalid"`` (the signature block was altered) or
        ``"altered"`` (the certificate changed after signing; ``lines`` names
        each changed key path).

    """
    from cryptography.exceptions import InvalidSignature

    block = certificate.get("signature")
    if block is None:
        return "unsigned", ["certificate is UNSIGNED: nothing vouches for its content"]
    if not isinstance(block, dict) or block.get("algorithm") != ALGORITHM:
        return "invalid", ["signature: not an Ed25519 signature block"]
    signer = block.get("public_key")
    if public_key is None:
        return "unchecked", [f"signed by key {signer}; give --public-key to check it"]
    given = public_key_id(public_key)
    if signer != given:
        return "wrong-key", [f"signed by key {signer}, not by the given public key {given}"]
    signed = {k: v for k, v in block.items() if k != "value"}
    try:
        public_key.verify(
            base64.b64decode(str(block.get("value", "")), validate=True), canonical_bytes(signed)
        )
    except (InvalidSignature, ValueError):
        return "invalid", ["signature does not verify: the signature block was altered"]
    payload = {k: v for k, v in certificate.items() if k != "signature"}
    if hashlib.sha256(canonical_bytes(payload)).hexdigest() == block.get("payload_sha256"):
        return "valid", [f"signature valid (Ed25519, key {given})"]
    recorded = block.get("digests") or {}
    current = path_digests(payload)
    changed = [
        f"{p}: changed"
        if p in recorded and p in current
        else (f"{p}: removed" if p in recorded else f"{p}: added")
        for p in sorted(set(recorded) | set(current))
        if recorded.get(p) != current.get(p)
    ]
    return "altered", ["certificate ALTERED after signing:", *(f"  {c}" for c in changed)]


def register_keygen(sub: argparse._SubParsersAction) -> None:
    """Add ``slotcert keygen DIR``."""
    p = sub.add_parser(
        "keygen",
        help="make an Ed25519 key pair for signing certificates",
        description="Write DIR/slotcert-signing.key (mode 0600) and its public key; "
        "refuses to overwrite an existing key.",
        epilog="example:\n  slotcert keygen keys/\n  slotcert certify models/machines "
        "--jurisdiction models/jurisdictions/pt.toml --spins 1e7 --seed 1 --out out/ "
        "--sign-key keys/slotcert-signing.key\n",
    )
    p.add_argument("directory", metavar="DIR", help="folder for the key pair")
    p.set_defaults(func=cmd_keygen)


def cmd_keygen(args: argparse.Namespace) -> int:
    """Write the key pair and print where (never the key)."""
    private, public, key_id = generate_keys(args.directory)
    print(f"private key: {private} (mode 0600; keep it offline, never commit it)")
    print(f"public key:  {public} ({key_id})")
    print(f"sign with:   slotcert certify ... --sign-key {private}", file=sys.stderr)
    return 0
