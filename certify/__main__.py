"""``python -m certify`` runs the slotcert command line."""

from certify.cli import console

console()
