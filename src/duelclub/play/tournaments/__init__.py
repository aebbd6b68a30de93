"""Club tournaments, the pure core (issue 26): pairings, scoring and standings as plain functions.

Like ``games/`` and ``ratings/``, this package is pure: no I/O, no clock, no asyncio, no database, no web, no
imports from the layers above. The store, the driver and the pages build on it:

- :mod:`.model` — player ids (member ids, ``int``), :class:`~.model.Pairing` (what a pairer returns) and
  :class:`~.model.Game` (a stored result: round, seats, the first seat's score, forfeit, end time);
- :mod:`.roundrobin` — the FIDE Berger tables, double round robin, byes for an odd count, the forfeits a
  withdrawal leaves;
- :mod:`.swiss` — a Swiss round as a maximum-weight matching (networkx), the round count allowed;
- :mod:`.arena` — the arena's pool pairer and its streak scoring;
- :mod:`.standings` — points and tie-breaks, the crosstable and its CSV.
"""
