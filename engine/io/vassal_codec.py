"""The text codings a VASSAL module's files use, shared by the exporter
(:mod:`engine.io.vassal`) and its checker (:mod:`engine.io.vassal_check`):
VASSAL's ``SequenceEncoder`` (piece definitions) and the build file's
name by version."""

from __future__ import annotations

import re
from collections.abc import Iterable

# -- SequenceEncoder (VASSAL/tools/SequenceEncoder.java) ---------------------------

def sequence_encode(tokens: Iterable[str], delim: str) -> str:
    """Tokens joined by ``delim`` as VASSAL's ``SequenceEncoder`` writes them:
    each ``delim`` inside a token preceded by a backslash, a token starting
    with a backslash (or quoted in single quotes) wrapped in single quotes."""
    out: list[str] = []
    for s in tokens:
        if s and (s[0] == "\\" or (s[0] == "'" and s[-1] == "'")):
            out.append("'" + s.replace(delim, "\\" + delim) + "'")
        else:
            out.append(s.replace(delim, "\\" + delim))
    return delim.join(out)


def sequence_decode(value: str, delim: str) -> list[str]:
    """The tokens of ``value`` as VASSAL's ``SequenceEncoder.Decoder`` reads
    them (a backslash before ``delim`` escapes it; one pair of enclosing
    single quotes is stripped)."""
    tokens: list[str] = []
    start, n = 0, len(value)
    while True:
        buf: list[str] = []
        i = start
        tok: str | None = None
        while i < n:
            if value[i] == delim:
                if i > 0 and value[i - 1] == "\\":
                    buf.append(value[start:i - 1])
                    start = i
                else:
                    tok = "".join(buf) + value[start:i] if buf else value[start:i]
                    start = i + 1
                    break
            i += 1
        if tok is None:
            tok = "".join(buf) + value[start:n]
            tokens.append(_unquote(tok))
            return tokens
        tokens.append(_unquote(tok))
        if start == n:  # a trailing delimiter: one empty token
            tokens.append("")
            return tokens


def _unquote(s: str) -> str:
    return s[1:-1] if len(s) > 1 and s[0] == "'" and s[-1] == "'" else s



def build_file_name(vassal_version: str) -> str:
    """``buildFile.xml`` from VASSAL 3.5 on, ``buildFile`` before
    (``GameModule.build`` picks the entry by the moduledata's version)."""
    parts = [int(p) for p in re.findall(r"\d+", vassal_version)[:2]] + [0, 0]
    return "buildFile" if (parts[0], parts[1]) < (3, 5) else "buildFile.xml"


__all__ = ["build_file_name", "sequence_decode", "sequence_encode"]
