"""Small helpers that put names and numbers into sentences a game master
reads aloud: a side's name with or without "the", its possessive, a count
with its noun in the right number."""

from __future__ import annotations

ARTICLE_WORDS = frozenset({"union", "kingdom", "states", "republic", "empire", "confederacy", "federation",
                           "commonwealth", "alliance", "entente", "coalition", "reich", "netherlands", "emirates"})
"""Last words of a side's name that make it take "the" even where the name
reads like a country's ("the Soviet Union", "the United Kingdom")."""

COUNTRY_ENDINGS = ("y", "ia", "ce", "land", "an", "al", "il", "na", "da", "co", "ru", "pt", "el", "ey", "ain", "en",
                   "rk", "ca", "ar", "um", "ra", "ta", "ba", "ma", "ga", "ya", "sh", "ng", "nd", "a")
"""Endings of countries' names, which take no article ("Germany", "Italy",
"France", "Japan", "Egypt", "Sweden")."""


def takes_article(name: str) -> bool:
    """Whether ``name`` reads with "the" before it.  A side is "the Union",
    "the Rebels", "the North", "the Confederate", "the USSR", "the Soviet
    Union"; a country's name takes none ("Germany", "Italy", "France").  A
    name that starts with "the" takes no other."""
    words = name.split()
    if not words or words[0].lower() == "the":
        return False
    last = words[-1]
    low = last.lower()
    if low in ARTICLE_WORDS or last.isupper() or (low.endswith("s") and not low.endswith("ss")):
        return True
    return not low.endswith(COUNTRY_ENDINGS)


def side_phrase(name: str, capital: bool = False) -> str:
    """``name`` as a sentence says it: "the Union", "the Rebels",
    "Germany"; ``capital`` starts a sentence ("The Union")."""
    if not takes_article(name):
        return name
    return ("The " if capital else "the ") + name


def possessive(name: str) -> str:
    """``Germany's``, ``the Union's``, ``the Rebels'``."""
    phrase = side_phrase(name)
    return phrase + ("'" if phrase.endswith("s") else "'s")


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and the noun in the right number: "1 unit", "2 units",
    "1 entry" / "3 entries" (with ``plural``)."""
    return f"{n} {noun if n == 1 else (plural or noun + 's')}"


def verb(name: str, singular: str, plural: str) -> str:
    """The verb that agrees with a side's name: "the Union fortifies",
    "the Rebels fortify"."""
    words = name.split()
    last = words[-1].lower() if words else ""
    many = last.endswith("s") and not last.endswith("ss") and last not in {"states", "netherlands"}
    return plural if many else singular


def joined(parts: list[str] | tuple[str, ...]) -> str:
    """Sentences and clauses run together as one text: after a sentence's
    full stop a space, after a clause without one a semicolon, so two
    never run into each other ("…the enemy; casualties: …")."""
    out = ""
    for p in (x.strip() for x in parts):
        if not p:
            continue
        if out:
            out += " " if out.endswith((".", "!", "?")) else "; "
        out += p
    return out


__all__ = ["joined", "counted", "possessive", "side_phrase", "takes_article", "verb"]
