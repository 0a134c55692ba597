"""slotcert certification core: models, engine, exact calculator, verdicts."""

__version__ = "0.1.0"
