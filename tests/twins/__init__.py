"""The pure-Python twins of the engine: slow, obviously-correct test oracles.

Each is written from the SPEC text, never from ``certify.engine`` or
``certify.exact``:

* :mod:`twins.lines` -- lines and ways games with the rules of SPEC 3.1a, free
  spins and bonus; brute force over the full cycle in exact fractions;
* :mod:`twins.features` -- the window features on top of it (expanding and
  sticky wilds, wild-scatters, ``wild_in_free_spins``, Book of Ra, full-window
  pays, variable heights), full cycle in exact fractions;
* :mod:`twins.hold` -- the hold-and-spin feature, screen by screen;
* :mod:`twins.screens` -- cascades and cluster games, screen by screen;
* :mod:`twins.pools` -- the jackpot pool, spin by spin.

The twins of the meter reconciler (``meters/twins.py``) and of the table
games (``certify/tables/_twins.py``) live beside their code.
"""
