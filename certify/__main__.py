"""``python -m certify`` runs the slotcert command line."""

import sys

from certify.cli import main

sys.exit(main())
