"""duelclub: a club web platform for two-player duels, live or against bots (see shared DESIGN.md)."""

__version__ = "0.1.0"
