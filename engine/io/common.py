"""What every Adjutant file format shares: problems and the error that
carries them, the size limits, decoding JSON text into problems instead of
tracebacks, the JSON Schema check (``resources/scenario.schema.json``), the
header every scenario file has (format, version, name, ruleset, sides) both
ways, and the diff-friendly JSON layout.

The grid format (:mod:`engine.io.grid`) and the territory format
(:mod:`engine.io.territory`) build on these public names only; neither
imports the other (see ``docs/file-format.md`` and
``docs/file-format-territory.md``).
"""

from __future__ import annotations

import json
import math
import os
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from ..model import NO_SIDE_SYMBOL, Faction, Ruleset, TerrainType, UnitType
from ..paths import resource_path
from .inputs import read_regular
from .journal_file import JournalLines, document, recover, split_entries

FORMAT = "adjutant-scenario"
VERSION = 1

MAX_SIDE = 4096
"""Largest width or height a file may declare."""
MAX_CELLS = 4096 * 4096
"""Largest number of cells a file may declare (16,777,216)."""
MAX_FILE_BYTES = 512 * 1024 * 1024
"""Largest scenario file read (512 MiB)."""
MAX_PROBLEMS = 50
"""Problems reported per file before the rest are summarised."""


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an input: where (file, JSON path) and what."""

    source: str
    path: str
    message: str

    def __str__(self) -> str:
        where = f"{self.source}: " if self.source else ""
        return f"{where}{self.path}: {self.message}" if self.path else f"{where}{self.message}"


class ScenarioError(ValueError):
    """A scenario that cannot be loaded; :attr:`problems` lists every reason."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


def capped(problems: list[Problem], source: str) -> list[Problem]:
    """The first :data:`MAX_PROBLEMS` problems, and a line counting the rest."""
    if len(problems) <= MAX_PROBLEMS:
        return problems
    return problems[:MAX_PROBLEMS] + [Problem(source, "", f"… and {len(problems) - MAX_PROBLEMS} more problems")]


# ---------------------------------------------------------------------------
# reading text and JSON

def read_text(path: str | os.PathLike[str]) -> str:
    """The UTF-8 text of a scenario file (a leading byte order mark is
    dropped), or :class:`ScenarioError` saying why not (missing, a folder,
    a FIFO or device, too large, unreadable, not UTF-8); read through
    :func:`engine.io.inputs.read_regular`."""
    return decode_text(read_bytes(path), str(path))


def read_bytes(path: str | os.PathLike[str]) -> bytes:
    """The bytes of a scenario file (at most :data:`MAX_FILE_BYTES`), or
    :class:`ScenarioError` as :func:`read_text` says."""
    src = str(path)
    whole = recover(path)  # an append in place a crash cut short, or one under way: read it whole
    if whole is not None:
        return whole
    return read_regular(path, MAX_FILE_BYTES, lambda message: ScenarioError([Problem(src, "", message)]),
                        "file", "scenario file")


def decode_text(raw: bytes, source: str) -> str:
    """``raw`` as UTF-8 text without a leading byte order mark, or
    :class:`ScenarioError` naming the first byte that is not UTF-8."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ScenarioError([Problem(source, "", f"not UTF-8 text (byte {e.start})")]) from None
    return text[1:] if text.startswith("\ufeff") else text


def non_finite_problems(data: Any, source: str) -> list[Problem]:
    """A problem naming the JSON path (``$.units[1].strength``) of the first
    ``NaN``, ``Infinity`` or number beyond a float's range (``1e999``) in
    decoded ``data``: JSON allows none of them, and ``info --json`` could not
    print them.  Checked at C speed (``json.dumps(allow_nan=False)``); the
    path is looked for only when there is one."""
    try:
        json.dumps(data, allow_nan=False, default=_lines_as_nothing)
        return []
    except ValueError:
        pass
    stack: list[tuple[Any, str]] = [(data, "$")]
    while stack:
        value, path = stack.pop()
        if isinstance(value, float) and not math.isfinite(value):
            return [Problem(source, path, f"{value} is not a finite number (JSON allows none)")]
        if isinstance(value, dict):
            stack.extend((v, f"{path}.{k}") for k, v in reversed(list(value.items())))
        elif isinstance(value, list):
            stack.extend((v, f"{path}[{i}]") for i, v in reversed(list(enumerate(value))))
    return []


def _lines_as_nothing(value: Any) -> None:
    """A journal's entries kept as text (:class:`JournalLines`) hold no
    number a reader decodes: their own reader checks them."""
    if isinstance(value, JournalLines):
        return None
    raise TypeError(f"{type(value).__name__} is not JSON data")


def parse_json(text: str, source: str) -> Any:
    """Decoded JSON, or :class:`ScenarioError` with where the text is not
    JSON (also for nesting too deep and integers too long to convert; a
    leading byte order mark is dropped; ``NaN`` and infinities are refused
    after the readers' own checks, by :func:`non_finite_problems`)."""
    if text.startswith("\ufeff"):  # a UTF-8 byte order mark, as some editors write
        text = text[1:]
    split = split_entries(text)
    if split is not None:  # a game's journal one entry per line: its entries stay text until asked for
        prefix, tail, lines, nonce = split
        doc = document(prefix, tail, nonce)
        data = _with_lines(doc, lines, nonce)
        if data is not None:
            lines.origin.set("", None, prefix, tail, lines)  # the file is named by load_any
            if "\\u" in doc:
                problems = text_problems(data, source, _XML_FORBIDDEN)
                if problems:
                    raise ScenarioError(capped(problems, source))
            return data
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise ScenarioError([Problem(source, "", f"not valid JSON: {e.msg} at line {e.lineno} column {e.colno}")]) from None
    except RecursionError:
        raise ScenarioError([Problem(source, "", "not a scenario: JSON nested too deeply")]) from None
    except ValueError as e:  # e.g. an integer of more than 4300 digits
        raise ScenarioError([Problem(source, "", f"not a scenario: {str(e).split(';')[0]}")]) from None
    if has_long_digits(text):
        problems = huge_number_problems(data, source)
        if problems:
            raise ScenarioError(capped(problems, source))
    if "\\u" in text:  # XML-forbidden characters can only arrive as \u escapes (JSON refuses them raw)
        problems = text_problems(data, source, _XML_FORBIDDEN)
        if problems:
            raise ScenarioError(capped(problems, source))
    return data


def _with_lines(doc: str, lines: JournalLines, nonce: str) -> Any:
    """The document ``doc`` (a file's text with its journal's entries
    replaced by the text ``nonce``) with ``lines`` in
    ``state.game.journal.entries``; ``None`` when it does not decode, or
    when the entries taken out were not there (another key's, or one a
    later key of the same name overrides), so that the file is read whole
    and means what its JSON says."""
    try:
        data = json.loads(doc)
    except (ValueError, RecursionError):
        return None
    node = data
    for key in ("state", "game", "journal"):
        node = node.get(key) if isinstance(node, dict) else None
    if not isinstance(node, dict) or node.get("entries") != nonce:
        return None
    node["entries"] = lines
    return data


MAX_NUMBER_DIGITS = 300
"""Most digits an integer in a JSON input may have: more is beyond a
float's range (about 1.8e308), so no coordinate or count can use it."""


def has_long_digits(text: str) -> bool:
    """Whether ``text`` holds more than :data:`MAX_NUMBER_DIGITS` ASCII
    digits in a row (what ``re.search("[0-9]{301,}", text)`` finds), read
    as one array: a regular expression tries a match at every digit of a
    file's thousands of labels."""
    if len(text) <= MAX_NUMBER_DIGITS:
        return False
    b = np.frombuffer(text.encode("utf-8", "surrogatepass"), np.uint8)
    digit = ((b >= 48) & (b <= 57)).view(np.int8)
    bounds = np.flatnonzero(np.diff(digit, prepend=np.int8(0), append=np.int8(0)))  # run starts, ends
    return bool(len(bounds)) and int((bounds[1::2] - bounds[0::2]).max()) > MAX_NUMBER_DIGITS


def huge_number_problems(data: Any, source: str) -> list[Problem]:
    """A problem naming the JSON path of each integer in ``data`` with more
    than :data:`MAX_NUMBER_DIGITS` digits (beyond a float's range)."""
    problems: list[Problem] = []
    limit = 10 ** MAX_NUMBER_DIGITS
    stack: list[tuple[Any, str]] = [(data, "$")]
    while stack:
        value, path = stack.pop()
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= limit:
            problems.append(Problem(source, path, f"a number of {len(str(abs(value)))} digits, beyond any "
                                                  f"float's range (at most {MAX_NUMBER_DIGITS} digits)"))
        elif isinstance(value, dict):
            stack.extend((v, f"{path}.{k}") for k, v in value.items())
        elif isinstance(value, list):
            stack.extend((v, f"{path}[{i}]") for i, v in enumerate(value))
    return sorted(problems, key=lambda p: p.path)


_XML_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
"""Characters XML 1.0 cannot hold at all: a name or property with one could
be saved but never exported to SVG or TMX."""
SURROGATES = re.compile("[\ud800-\udfff]")
"""Lone surrogates: half of a UTF-16 pair, which no UTF-8 file can hold."""


def text_problems(data: Any, source: str, pattern: re.Pattern[str] | None = None) -> list[Problem]:
    """A problem for each string (key or value) of ``data`` holding a
    character of ``pattern`` — by default XML-forbidden characters and lone
    surrogates (which no UTF-8 file can hold) — named by its JSON path."""
    bad = pattern or re.compile(f"{_XML_FORBIDDEN.pattern[:-1]}\ud800-\udfff]")
    problems: list[Problem] = []
    stack: list[tuple[Any, str]] = [(data, "")]
    while stack:
        value, path = stack.pop()
        if isinstance(value, str):
            found = bad.search(value)
            if found:
                problems.append(Problem(source, path or "(top level)",
                                        f"holds the character U+{ord(found.group()):04X}, which "
                                        + ("is half of a UTF-16 pair (a lone surrogate) and cannot be written "
                                           "as UTF-8" if SURROGATES.match(found.group()) else
                                           "XML cannot hold (SVG and Tiled exports could not be written)")))
        elif isinstance(value, dict):
            for k, v in reversed(list(value.items())):
                where = f"{path}.{k}" if path else str(k)
                if bad.search(k):
                    stack.append((k, where + " (key)"))
                stack.append((v, where))
        elif isinstance(value, list):
            stack.extend((v, f"{path}[{i}]") for i, v in reversed(list(enumerate(value))))
        elif isinstance(value, JournalLines):  # a journal's entries kept as text: each decoded to be looked at
            stack.extend((v, f"{path}[{i}]") for i, v in reversed(list(enumerate(value))))
    return problems


def grid_kind(data: Any) -> str | None:
    """``map.grid.kind`` of decoded scenario JSON, when it is a string."""
    m = data.get("map") if isinstance(data, dict) else None
    g = m.get("grid") if isinstance(m, dict) else None
    kind = g.get("kind") if isinstance(g, dict) else None
    return kind if isinstance(kind, str) else None


# ---------------------------------------------------------------------------
# the schema

class _Validator:
    """The scenario schema (``schema``) and its jsonschema validator, made
    (and jsonschema imported) only when a check needs it: a document
    :func:`_conforms` accepts needs none."""

    def __init__(self, schema: dict[str, Any]) -> None:
        self.schema = schema
        self._made: Any = None

    def __getattr__(self, name: str) -> Any:  # iter_errors, evolve, is_valid: the validator's own
        if self._made is None:
            self._made = _jsonschema_validator(self.schema)
        return getattr(self._made, name)

    def conforms(self, value: Any, schema: Any = None) -> bool:
        """Whether ``value`` surely conforms to ``schema`` (the whole schema
        when ``None``): :func:`_conforms`, False where it cannot decide."""
        try:
            return _conforms(value, self.schema if schema is None else schema, self.schema)
        except (_Unknown, RecursionError, TypeError, re.error):
            return False


def _jsonschema_validator(schema: dict[str, Any]) -> Any:
    """jsonschema's validator of the scenario schema.  An ``integer`` is a
    JSON integer: JSON Schema also counts ``40.0`` as one, which would reach
    the loader as a float (a grid 40.0 cells wide cannot shape an array),
    and the plain-Python checks of the bulk records already read it so."""
    import jsonschema

    base = jsonschema.Draft202012Validator
    strict = base.TYPE_CHECKER.redefine(
        "integer", lambda _checker, v: isinstance(v, int) and not isinstance(v, bool))
    return jsonschema.validators.extend(base, type_checker=strict)(schema)


@lru_cache(maxsize=1)
def _validator() -> Any:
    """The scenario schema's validator (:class:`_Validator`)."""
    return _Validator(json.loads(resource_path("scenario.schema.json").read_text(encoding="utf-8")))


class _Unknown(Exception):
    """A schema keyword or value :func:`_conforms` does not decide."""


_TYPES: dict[str, Any] = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}
"""JSON Schema's types of decoded JSON (``integer`` as :func:`_validator` has it)."""

_ANNOTATIONS = frozenset({"$schema", "$id", "$defs", "title", "description"})


def _same(a: Any, b: Any) -> bool:
    """JSON Schema's equality where one side is a scalar (``true`` is not
    ``1``; an array or object is no scalar)."""
    containers = isinstance(a, (list, dict)) + isinstance(b, (list, dict))
    if containers == 2:
        raise _Unknown
    if containers == 1:
        return False
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    return bool(a == b)


def _conforms(value: Any, schema: Any, root: dict[str, Any]) -> bool:
    """Whether decoded JSON ``value`` conforms to ``schema`` (Draft 2020-12,
    local ``$ref`` into ``root``), decided exactly for the keywords the
    scenario schema uses; :class:`_Unknown` for any other.  What lets a
    valid file skip importing and running jsonschema: only a file this
    accepts skips it, and any other is validated by jsonschema, whose
    problems are reported."""
    if schema is True:
        return True
    if schema is False:
        return False
    if not isinstance(schema, dict):
        raise _Unknown
    for key, want in schema.items():
        if key in _ANNOTATIONS:
            continue
        if key == "$ref":
            if not (isinstance(want, str) and want.startswith("#/$defs/")):
                raise _Unknown
            sub = root.get("$defs", {}).get(want[len("#/$defs/"):])
            if sub is None:
                raise _Unknown
            if not _conforms(value, sub, root):
                return False
        elif key == "type":
            names = want if isinstance(want, list) else [want]
            if any(n not in _TYPES for n in names):
                raise _Unknown
            if not any(_TYPES[n](value) for n in names):
                return False
        elif key == "enum":
            if not any(_same(value, x) for x in want):
                return False
        elif key == "const":
            if not _same(value, want):
                return False
        elif key in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
            if _TYPES["number"](value) and not (
                    value >= want if key == "minimum" else value <= want if key == "maximum"
                    else value > want if key == "exclusiveMinimum" else value < want):
                return False
        elif key in ("minLength", "maxLength"):
            if isinstance(value, str) and not (len(value) >= want if key == "minLength" else len(value) <= want):
                return False
        elif key == "pattern":
            if isinstance(value, str) and not re.search(want, value):
                return False
        elif key in ("minItems", "maxItems"):
            if isinstance(value, list) and not (len(value) >= want if key == "minItems" else len(value) <= want):
                return False
        elif key == "items":
            if "prefixItems" in schema:
                raise _Unknown
            if isinstance(value, list) and not all(_conforms(v, want, root) for v in value):
                return False
        elif key == "required":
            if isinstance(value, dict) and any(k not in value for k in want):
                return False
        elif key == "properties":
            if isinstance(value, dict) and not all(_conforms(value[k], sub, root)
                                                   for k, sub in want.items() if k in value):
                return False
        elif key == "additionalProperties":
            if "patternProperties" in schema:
                raise _Unknown
            if isinstance(value, dict):
                known = schema.get("properties", {})
                if not all(_conforms(v, want, root) for k, v in value.items() if k not in known):
                    return False
        elif key == "propertyNames":
            if isinstance(value, dict) and not all(_conforms(k, want, root) for k in value):
                return False
        elif key == "oneOf":
            if sum(_conforms(value, sub, root) for sub in want) != 1:
                return False
        elif key == "anyOf":
            if not any(_conforms(value, sub, root) for sub in want):
                return False
        elif key == "if":
            branch = schema.get("then" if _conforms(value, want, root) else "else", True)
            if not _conforms(value, branch, root):
                return False
        elif key in ("then", "else"):
            if "if" not in schema:
                continue  # without "if", ignored
        else:
            raise _Unknown
    return True


def _json_path(parts: Any) -> str:
    out = "$"
    for p in parts:
        out += f"[{p}]" if isinstance(p, int) else f".{p}"
    return out


# Bulk lists of a grid map whose items the schema describes simply (a row is
# a string; a river a pair of strings; a link chain two or more strings).
# They are checked here in plain Python, item by item, with the schema's own
# wording, and the schema validates the rest of the document: jsonschema
# spends ~1 s descending into the rows and chains of a 1000x1000 map.
_BULK_ROWS = ("terrain", "control")
_BULK_PAIRS = ("rivers",)


def _shown(v: Any) -> str:
    return json.dumps(v)[:60] if not isinstance(v, (dict, list)) else type(v).__name__


def _bulk_problems(m: dict[str, Any], source: str) -> tuple[dict[str, Any], list[Problem]]:
    """Check the bulk lists of ``m`` (a grid map object) and return the map
    with them emptied for the schema, and the problems found."""
    out: list[Problem] = []
    skeleton = dict(m)
    for key in _BULK_ROWS:
        rows = m.get(key)
        if isinstance(rows, list):
            skeleton[key] = []
            out += [Problem(source, f"$.map.{key}[{i}]", f"expected string, got {_shown(r)}")
                    for i, r in enumerate(rows) if not isinstance(r, str)]

    def strings(items: Any, path: str, lo: int, hi: int | None) -> None:
        for i, it in enumerate(items):
            if not isinstance(it, list):
                out.append(Problem(source, f"{path}[{i}]", f"expected array, got {_shown(it)}"))
            elif len(it) < lo or (hi is not None and len(it) > hi):
                want = f"exactly {lo}" if hi == lo else f"at least {lo}"
                out.append(Problem(source, f"{path}[{i}]", f"expected {want} labels, got {len(it)}"))
            else:
                for x in it:  # a plain loop: no generator made for a good item (nearly all of them)
                    if not isinstance(x, str):
                        out.extend(Problem(source, f"{path}[{i}][{j}]", f"expected string, got {_shown(y)}")
                                   for j, y in enumerate(it) if not isinstance(y, str))
                        break

    for key in _BULK_PAIRS:
        items = m.get(key)
        if isinstance(items, list):
            skeleton[key] = []
            strings(items, f"$.map.{key}", 2, 2)
    links = m.get("links")
    if isinstance(links, dict):
        skeleton["links"] = {k: ([] if isinstance(v, list) else v) for k, v in links.items()}
        for k, v in links.items():
            if isinstance(v, list):
                strings(v, f"$.map.links.{k}", 2, None)
    return skeleton, out


# Records checked in plain Python for the same reason: key -> (JSON type,
# required, non-empty).  Must say exactly what the schema's $defs say.
_UNIT_KEYS = {"id": ("string", True, True), "side": ("string", True, False), "type": ("string", True, False),
              "at": ("string", True, False), "strength": ("integer", False, False), "name": ("string", False, False),
              "props": ("object", False, False)}
_PLACE_KEYS = {"at": ("string", True, False), "name": ("string", True, True), "code": ("string", False, True)}
_JSON_TYPES: dict[str, Any] = {"string": str, "object": dict}


def _record_problems(items: list[Any], path: str, keys: dict[str, tuple[str, bool, bool]],
                     source: str) -> list[Problem]:
    out = []
    for i, it in enumerate(items):
        p = f"{path}[{i}]"
        if not isinstance(it, dict):
            out.append(Problem(source, p, f"expected object, got {_shown(it)}"))
            continue
        missing = [k for k, (_, req, _) in keys.items() if req and k not in it]
        if missing:
            out.append(Problem(source, p, f"missing required key {', '.join(repr(m) for m in missing)}"))
        extra = sorted(k for k in it if k not in keys)
        if extra:
            out.append(Problem(source, p, f"unknown key {', '.join(repr(e) for e in extra)}"))
        for k, v in it.items():
            if k not in keys:
                continue
            kind, _, nonempty = keys[k]
            if kind == "integer":
                ok = isinstance(v, int) and not isinstance(v, bool)
                if ok and v < 0:
                    out.append(Problem(source, f"{p}.{k}", f"{v} is less than the minimum of 0"))
            else:
                ok = isinstance(v, _JSON_TYPES[kind])
            if not ok:
                out.append(Problem(source, f"{p}.{k}", f"expected {kind}, got {_shown(v)}"))
            elif nonempty and v == "":
                out.append(Problem(source, f"{p}.{k}", "should be non-empty"))
    return out


def _bridge_problems(bridges: list[Any], validator: Any, source: str) -> list[Problem] | None:
    """The bridges of a grid map, checked here: a bridge the schema surely
    accepts (an object of exactly ``between``, two strings, and ``kind``, a
    string the schema's ``ident`` accepts) is taken as it is; any other is
    validated against the schema's bridge definition alone, so its problems
    read exactly as the schema's.  ``None`` when the schema's definition is
    not the one this was written for (the schema then checks them all)."""
    defs = validator.schema.get("$defs", {})
    try:
        item = defs["grid_map"]["properties"]["bridges"]["items"]
        defs["ident"]  # noqa: B018  (present, or the schema checks them all)

        def ident() -> Any:
            return validator.evolve(schema=defs["ident"])
    except (KeyError, TypeError):
        return None
    kinds: dict[str, bool] = {}
    """Whether the schema's ``ident`` accepts each kind seen (a map has a few)."""
    if item != {"type": "object", "required": ["between", "kind"], "additionalProperties": False,
                "properties": {"between": {"$ref": "#/$defs/pair"}, "kind": {"$ref": "#/$defs/ident"}}} \
            or defs.get("pair") != {"type": "array", "items": {"type": "string"}, "minItems": 2, "maxItems": 2} \
            or set(defs["ident"]) != {"type", "pattern"} or defs["ident"]["type"] != "string":
        return None
    sub = None
    out: list[Problem] = []
    for i, b in enumerate(bridges):
        if type(b) is dict and len(b) == 2:
            pair, kind = b.get("between"), b.get("kind")
            if type(pair) is list and len(pair) == 2 and type(pair[0]) is str and type(pair[1]) is str \
                    and type(kind) is str:
                ok = kinds.get(kind)
                if ok is None:
                    ok = kinds[kind] = validator.conforms(kind, defs["ident"]) or bool(ident().is_valid(kind))
                if ok:
                    continue
        if sub is None:
            sub = validator.evolve(schema={"$defs": defs, **item})
        out += [Problem(source, _json_path(["map", "bridges", i, *e.absolute_path]), _schema_message(e))
                for e in sub.iter_errors(b)]
    return out


_RING_KEYS = ("polygons", "holes")


def _ring_problems(m: dict[str, Any], validator: Any, source: str) -> tuple[dict[str, Any], list[Problem]]:
    """The rings of a territory map's territories, checked here: a ring the
    schema's ``ring`` definition surely accepts (an array of three items or
    more, all that definition asks: its points are the loader's) is taken
    as it is; any other is validated against that definition alone, so its
    problems read exactly as the schema's.  Returns the map with the ring
    lists emptied for the schema, and the problems found (jsonschema spent
    about a second resolving the definition for each of 13,000 rings)."""
    ring = validator.schema.get("$defs", {}).get("ring", {})
    territories = m.get("territories")
    if set(ring) - {"type", "minItems", "description"} or ring.get("type") != "array" \
            or not isinstance(territories, list):
        return m, []  # not the definition this was written for: the schema does it all
    least = int(ring.get("minItems", 0))
    sub = None
    out: list[Problem] = []
    shallow = []
    for i, terr in enumerate(territories):
        if not isinstance(terr, dict):
            shallow.append(terr)
            continue
        copy = dict(terr)
        for key in _RING_KEYS:
            rings = terr.get(key)
            if not isinstance(rings, list):
                continue
            copy[key] = []
            for j, r in enumerate(rings):
                if isinstance(r, list) and len(r) >= least:
                    continue
                if sub is None:
                    sub = validator.evolve(schema={"$defs": validator.schema["$defs"], "$ref": "#/$defs/ring"})
                base = ["map", "territories", i, key, j]
                out += [Problem(source, _json_path(base + list(e.absolute_path)), _schema_message(e))
                        for e in sub.iter_errors(r)]
        shallow.append(copy)
    return {**m, "territories": shallow}, out


_TILED_INT = 2147483647
_TILED_GID = 4294967295
_GID_KEY = re.compile("[0-9]{1,10}")


def _tiled_int_problem(v: Any, top: int = _TILED_INT) -> str | None:
    if not isinstance(v, int) or isinstance(v, bool):
        return f"expected integer, got {_shown(v)}"
    if not 0 <= v <= top:
        return f"{v} is out of range (0 to {top})"
    return None


def _tiled_properties(props: Any, path: str, source: str, out: list[Problem]) -> None:
    if not isinstance(props, list):
        out.append(Problem(source, path, f"expected array, got {_shown(props)}"))
        return
    for i, pr in enumerate(props):
        p = f"{path}[{i}]"
        if not isinstance(pr, dict):
            out.append(Problem(source, p, f"expected object, got {_shown(pr)}"))
            continue
        missing = [k for k in ("name", "type", "value") if k not in pr]
        if missing:
            out.append(Problem(source, p, f"missing required key {', '.join(repr(m) for m in missing)}"))
        for k in ("name", "type"):
            if k in pr and not isinstance(pr[k], str):
                out.append(Problem(source, f"{p}.{k}", f"expected string, got {_shown(pr[k])}"))
        if "value" in pr and not isinstance(pr["value"], (str, int, float)):
            out.append(Problem(source, f"{p}.value", f"expected string, number or boolean, got {_shown(pr['value'])}"))


def _tiled_problems(record: dict[str, Any], path: str, source: str) -> tuple[dict[str, Any], list[Problem]]:
    """The bulk of a Tiled record (``state.tiled``: every tileset's tiles,
    the gid-to-terrain tables) checked in one pass of plain Python, as the
    schema would (``resources/scenario.schema.json``, ``tiled_record``),
    and the record without them for the schema to check the rest: the
    schema validator's cost per tile made a large record slow to load."""
    out: list[Problem] = []
    skeleton = dict(record)
    tilesets = record.get("tilesets")
    if isinstance(tilesets, list):
        shallow = []
        for i, ts in enumerate(tilesets):
            tiles = ts.get("tiles") if isinstance(ts, dict) else None
            if not isinstance(tiles, list):
                shallow.append(ts)
                continue
            shallow.append({**ts, "tiles": []})
            for j, t in enumerate(tiles):
                p = f"{path}.tilesets[{i}].tiles[{j}]"
                if not isinstance(t, dict):
                    out.append(Problem(source, p, f"expected object, got {_shown(t)}"))
                    continue
                if "id" not in t:
                    out.append(Problem(source, p, "missing required key 'id'"))
                for k in ("id", "imagewidth", "imageheight"):
                    why = _tiled_int_problem(t[k]) if k in t else None
                    if why:
                        out.append(Problem(source, f"{p}.{k}", why))
                if "image" in t and t["image"] is not None and not isinstance(t["image"], str):
                    out.append(Problem(source, f"{p}.image", f"expected string or null, got {_shown(t['image'])}"))
                if "properties" in t:
                    _tiled_properties(t["properties"], f"{p}.properties", source, out)
                if len(out) > MAX_PROBLEMS:
                    break
        skeleton["tilesets"] = shallow
    gid_terrain = record.get("gid_terrain")
    if isinstance(gid_terrain, dict):
        for k, v in gid_terrain.items():
            if not _GID_KEY.fullmatch(k):
                out.append(Problem(source, f"{path}.gid_terrain", f"key {_shown(k)} is not a tile id (1 to 10 digits)"))
            if not isinstance(v, str):
                out.append(Problem(source, f"{path}.gid_terrain.{k}", f"expected string, got {_shown(v)}"))
        skeleton["gid_terrain"] = {}
    terrain_gid = record.get("terrain_gid")
    if isinstance(terrain_gid, dict):
        for k, v in terrain_gid.items():
            why = _tiled_int_problem(v, _TILED_GID)
            if why:
                out.append(Problem(source, f"{path}.terrain_gid.{k}", why))
        skeleton["terrain_gid"] = {}
    return skeleton, out


def schema_problems(data: Any, source: str) -> list[Problem]:
    """Every place decoded scenario JSON (of any map kind) breaks the JSON
    Schema, sorted by JSON path, at most :data:`MAX_PROBLEMS`."""
    validator = _validator()
    problems: list[Problem] = []
    m = data.get("map") if isinstance(data, dict) else None
    grid = m.get("grid") if isinstance(m, dict) else None
    if isinstance(m, dict) and isinstance(grid, dict) and grid.get("kind") in ("square", "hex"):
        skeleton, problems = _bulk_problems(m, source)
        if isinstance(m.get("bridges"), list):
            checked = _bridge_problems(m["bridges"], validator, source)
            if checked is not None:
                problems += checked
                skeleton["bridges"] = []
        if isinstance(m.get("places"), list):
            problems += _record_problems(m["places"], "$.map.places", _PLACE_KEYS, source)
            skeleton["places"] = []
        data = {**data, "map": skeleton}
        if isinstance(data.get("units"), list):
            problems += _record_problems(data["units"], "$.units", _UNIT_KEYS, source)
            data["units"] = []
    elif isinstance(m, dict) and isinstance(grid, dict) and grid.get("kind") == "territory":
        skeleton, problems = _ring_problems(m, validator, source)
        data = {**data, "map": skeleton}
    state = data.get("state") if isinstance(data, dict) else None
    if isinstance(state, dict) and isinstance(state.get("tiled"), dict):
        tiled, more = _tiled_problems(state["tiled"], "$.state.tiled", source)
        problems += more
        data = {**data, "state": {**state, "tiled": tiled}}
    errors: list[Any] = []
    if not validator.conforms(data):
        try:
            errors = sorted(validator.iter_errors(data), key=lambda e: list(map(str, e.absolute_path)))
        except RecursionError:
            return [Problem(source, "", "not a scenario: JSON nested too deeply")]
    for err in errors:
        problems.append(Problem(source, _json_path(err.absolute_path), _schema_message(err)))
    problems.sort(key=lambda p: p.path)
    once = list({(p.path, p.message): p for p in problems}.values())  # a place broken once is said once
    return once[:MAX_PROBLEMS]


def _schema_message(err: Any) -> str:
    v = err.validator
    inst = err.instance
    shown = json.dumps(inst)[:60] if not isinstance(inst, (dict, list)) else type(inst).__name__
    if v == "required":
        missing = [r for r in err.validator_value if not isinstance(inst, dict) or r not in inst]
        return f"missing required key {', '.join(repr(m) for m in missing)}"
    if v == "type":
        return f"expected {err.validator_value}, got {shown}"
    if v == "additionalProperties":
        extra = sorted(set(inst) - set(err.schema.get("properties", {}))) if isinstance(inst, dict) else []
        return f"unknown key {', '.join(repr(e) for e in extra)}"
    if v == "const":
        return f"expected {json.dumps(err.validator_value)}, got {shown}"
    if v == "enum":
        return f"expected one of {', '.join(json.dumps(x) for x in err.validator_value)}, got {shown}"
    if v == "oneOf" and isinstance(inst, dict) and "kind" not in inst and set(inst) & {"width", "height"}:
        return "missing required key 'kind' (square, hex or territory)"
    if v == "oneOf" and isinstance(inst, dict) and "kind" in inst:
        said = _kind_branch_problems(err)
        if said:
            return said
        return f"grid kind {json.dumps(inst.get('kind'))}: needs width, height" + (
            ", orientation ('flat'|'pointy') and parity ('odd'|'even')" if inst.get("kind") == "hex" else
            " and optionally neighbours (4|8)" if inst.get("kind") == "square" else
            " and optionally wrap_x (true|false) and backdrop_cell" if inst.get("kind") == "territory" else
            "; kind must be 'square', 'hex' or 'territory'")
    if v == "pattern":
        return f"{shown} is not allowed here (expected to match {err.validator_value})"
    return str(err.message)[:200]


def _kind_branch_problems(err: Any) -> str:
    """For a ``oneOf`` of map kinds: the problems of the branch whose
    ``kind`` the value names (a bad value named as a bad value, not as a
    missing key), each with its key; empty when no branch names the kind."""
    branches: dict[Any, list[Any]] = {}
    for e in err.context or ():
        branches.setdefault(e.relative_schema_path[0] if e.relative_schema_path else None, []).append(e)
    for errors in branches.values():
        if any(list(e.relative_path)[:1] == ["kind"] for e in errors):
            continue  # another kind's branch
        parts = []
        for e in errors:
            where = ".".join(str(p) for p in e.relative_path)
            parts.append(f"{where}: {_schema_message(e)}" if where else _schema_message(e))
        return f"grid kind {json.dumps(err.instance.get('kind'))}: " + "; ".join(dict.fromkeys(parts))
    return ""


# ---------------------------------------------------------------------------
# the header every scenario file has

class HeaderBuilder:
    """Semantic checks and construction of what every scenario file shares
    (ruleset, sides), collecting problems; each map kind's builder
    subclasses it and adds its map and units."""

    def __init__(self, data: dict[str, Any], source: str) -> None:
        self.data = data
        self.source = source
        self.problems: list[Problem] = []

    def bad(self, path: str, message: str) -> None:
        self.problems.append(Problem(self.source, path, message))

    def ruleset(self, r: dict[str, Any]) -> Ruleset:
        terrain = []
        seen_ids: set[str] = set()
        seen_syms: set[str] = set()
        for i, t in enumerate(r["terrain"]):
            p = f"$.ruleset.terrain[{i}]"
            if t["id"] in seen_ids:
                self.bad(p + ".id", f"terrain id '{t['id']}' is used twice")
            if t["symbol"] in seen_syms:
                self.bad(p + ".symbol", f"terrain symbol '{t['symbol']}' is used twice")
            seen_ids.add(t["id"])
            seen_syms.add(t["symbol"])
            terrain.append(TerrainType(**t))
        unit_types = []
        seen_ids = set()
        for i, u in enumerate(r.get("unit_types", [])):
            if u["id"] in seen_ids:
                self.bad(f"$.ruleset.unit_types[{i}].id", f"unit type id '{u['id']}' is used twice")
            seen_ids.add(u["id"])
            unit_types.append(UnitType(**u))
        return Ruleset(r["name"], terrain, unit_types, dict(r.get("options", {})))

    def sides(self, sides: list[dict[str, Any]]) -> list[Faction]:
        out = []
        ids: set[str] = set()
        syms: set[str] = set()
        for i, s in enumerate(sides):
            p = f"$.sides[{i}]"
            if s["id"] in ids:
                self.bad(p + ".id", f"side id '{s['id']}' is used twice")
            if s["symbol"] in syms:
                self.bad(p + ".symbol", f"side symbol '{s['symbol']}' is used twice")
            if s["symbol"] == NO_SIDE_SYMBOL:
                self.bad(p + ".symbol", f"'{NO_SIDE_SYMBOL}' means 'nobody' in control rows; pick another symbol")
            ids.add(s["id"])
            syms.add(s["symbol"])
            out.append(Faction(**s))
        return out


def header_data(s: Any) -> dict[str, Any]:
    """The keys every scenario file shares, grid or territory: format,
    version, name, description, turn, ruleset and sides."""
    data: dict[str, Any] = {"format": FORMAT, "version": VERSION, "name": s.name}
    if s.description:
        data["description"] = s.description
    data["turn"] = s.turn
    data["ruleset"] = {
        "name": s.ruleset.name,
        "terrain": [_terrain_data(t) for t in s.ruleset.terrain],
        "unit_types": [drop_defaults({"id": u.id, "name": u.name, "movement": u.movement,
                                      "properties": u.properties}, {"properties": {}}) for u in s.ruleset.unit_types],
        "options": s.ruleset.options,
    }
    data["sides"] = [drop_defaults({"id": f.id, "name": f.name, "color": f.color, "symbol": f.symbol,
                                    "alliance": f.alliance}, {"alliance": ""}) for f in s.sides]
    return data


def _terrain_data(t: TerrainType) -> dict[str, Any]:
    return drop_defaults({"id": t.id, "name": t.name, "symbol": t.symbol, "color": t.color,
                          "move_cost": t.move_cost, "impassable": t.impassable, "linear": t.linear,
                          "elevation": t.elevation, "properties": t.properties},
                         {"move_cost": 1, "impassable": False, "linear": False, "elevation": 0, "properties": {}})


def drop_defaults(d: dict[str, Any], defaults: dict[str, Any]) -> dict[str, Any]:
    """``d`` without the keys whose value is their default (files stay short)."""
    return {k: v for k, v in d.items() if not (k in defaults and v == defaults[k])}


# ---------------------------------------------------------------------------
# layout

ROW_KEYS = frozenset({"terrain", "control"})
"""Keys whose lists of strings are map rows: always one row per line."""


_ENCODE = json.JSONEncoder(ensure_ascii=False).encode
"""``json.dumps(value, ensure_ascii=False)``, without making an encoder at each call."""


def _short_json(value: Any, limit: int) -> str | None:
    """``json.dumps(value, ensure_ascii=False)`` when it is at most ``limit``
    characters long, else ``None``, without writing out a long value: a
    value of N nodes (scalars and containers) writes at least 2N - 1
    characters, so one of more than (limit + 1) // 2 nodes is long unseen."""
    most = (limit + 1) // 2
    stack = [value]
    n = 0
    while stack:
        v = stack.pop()
        n += 1
        if n > most:
            return None
        if isinstance(v, dict):
            stack.extend(v.values())
        elif isinstance(v, (list, tuple)):
            stack.extend(v)
    text = _ENCODE(value)
    return text if len(text) <= limit else None


def dumps_compact(value: Any, indent: int = 0, rows: bool = False) -> str:
    """JSON with records (a unit, a chain of labels, a terrain type) kept on
    one line and everything else broken over lines, indented by two spaces;
    map rows (``rows=True``) get a line each."""
    def scalar(v: Any) -> bool:
        return not isinstance(v, (list, dict))

    def record(v: Any) -> bool:  # a row, a chain, a unit, a terrain type: one line each
        if isinstance(v, list):
            return all(scalar(x) for x in v)
        if isinstance(v, dict):
            return all(scalar(x) or (isinstance(x, list) and all(scalar(y) for y in x)) for x in v.values())
        return True

    has_rows = rows or (isinstance(value, dict) and any(k in ROW_KEYS for k in value))
    if not value or (not has_rows and record(value)):
        return _ENCODE(value)
    if not has_rows and not any(isinstance(x, list) and len(x) > 2
                                for x in (value.values() if isinstance(value, dict) else value)):
        short = _short_json(value, 100)  # not the whole subtree at every level: a journal is deep
        if short is not None:
            return short
    pad = "  " * (indent + 1)
    end = "  " * indent
    if isinstance(value, list):
        items = [pad + dumps_compact(v, indent + 1) for v in value]
        return "[\n" + ",\n".join(items) + "\n" + end + "]"
    items = [pad + _ENCODE(k) + ": "
             + dumps_compact(v, indent + 1, rows=k in ROW_KEYS and isinstance(v, list) and all(isinstance(x, str) for x in v))
             for k, v in value.items()]
    return "{\n" + ",\n".join(items) + "\n" + end + "}"


__all__ = ["FORMAT", "MAX_CELLS", "MAX_FILE_BYTES", "MAX_PROBLEMS", "MAX_SIDE", "ROW_KEYS", "SURROGATES", "VERSION", "HeaderBuilder",
           "Problem", "ScenarioError", "capped", "decode_text", "drop_defaults", "dumps_compact", "grid_kind", "header_data",
           "non_finite_problems", "parse_json", "read_bytes", "read_text", "schema_problems", "text_problems"]
