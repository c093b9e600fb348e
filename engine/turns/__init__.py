"""Turns and the game journal: the hash-chained record of what was ordered,
what the rules said and why (:mod:`engine.turns.journal`)."""

from .journal import BranchOrigin, Entry, Journal, JournalError

__all__ = ["BranchOrigin", "Entry", "Journal", "JournalError"]
