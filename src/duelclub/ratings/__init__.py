"""Ratings: the Glicko-2 algorithm (``glicko2.py``) and the club's rules on top of it (``rules.py``).

Like ``games/``, this package is pure: no I/O, no clock, no settings, no imports from the layers above.
"""
