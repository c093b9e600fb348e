"""Import of TripleA maps: a game XML (territories, water flags, connections,
production values, initial owners, canals, impassable territories, players
and alliances, unit types with their movement and domain, and the starting
unit placements) and the map's ``polygons.txt`` and ``centers.txt``.

The XML is untrusted input and is parsed with :mod:`defusedxml`: entity
declarations (billion laughs) and external entities (XXE) are refused, and no
DTD is fetched.  Comments are dropped by the parser, so a commented-out
``<territory>`` or ``<connection>`` is not imported.

``polygons.txt`` has one line per territory, ``Name  <  (x,y) (x,y) … >``,
possibly several ``< … >`` polygons on a line; rings are not closed and may
repeat their first point; coordinates are integer pixels, y down.
``centers.txt`` has ``Name  (x,y)`` per line.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar
from xml.etree.ElementTree import Element, ParseError

import defusedxml.ElementTree as SafeET
from defusedxml.common import DefusedXmlException, EntitiesForbidden

from ..model import Faction, Ruleset, TerrainType, UnitType
from ..territory.geometry import GeometryBudget, GeometryError, shape_from_rings
from ..territory.model import BorderKind, Territory, TerritoryMap, TerritoryScenario, TerritoryUnit
from .inputs import xml_markup_problem

_T = TypeVar("_T")

MAX_XML_BYTES = 64 * 1024 * 1024
"""Largest game XML read (64 MiB)."""

MAX_UNITS = 100_000
"""Most units the placements of one game may add up to (Global 1940 places
589); a file asking for more is refused before any unit is made."""
MAX_PRODUCTION = 1_000_000
"""Largest production value of a territory read (TripleA games use under 100)."""
MAX_COORDINATE = 10_000_000
"""Largest polygon or centre coordinate read, in map pixels (TripleA maps are a few thousand wide);
coordinates are 0 or more, as Adjutant's territory maps have them."""
MAX_SIDES = 60
"""Most sides a scenario may have (``resources/scenario.schema.json``): players, owners that are
not players and the neutral side together."""

NEUTRAL = "Neutral"
"""The side that receives placements without an ``owner`` (TripleA's null
player)."""

A_AND_A_RAIL_CROSSINGS: tuple[tuple[str, str, str], ...] = (
    ("Egypt", "Trans-Jordan", "Jordan–Egypt"),
    ("Southern Italy", "Sicily", "Italy–Sicily"),
    ("Italy", "Sicily", "Italy–Sicily"),
    ("Central America", "Colombia", "Panama Canal"),
    ("Panama", "Colombia", "Panama Canal"),
)
"""Water crossings Module I lets rail use, by TripleA territory names; the
importer marks them (adding the border when the game has none) when both
territories exist."""

PALETTE = ("#6b6b6b", "#a52a2a", "#e0a030", "#4f7f3f", "#5f8f7f", "#c8a060", "#b89050", "#8b6f47", "#3f6fa0",
           "#4060c0", "#e07040", "#909090", "#707070", "#a0a0a0", "#c0c0c0")


class TripleAError(ValueError):
    """A TripleA file that cannot be imported; the message names the file,
    the line and what is wrong."""


@dataclass(frozen=True)
class TripleAUnitType:
    """A unit type declared in ``<unitList>`` with what its
    ``unitAttachment`` says: ``movement`` (0 when not given), ``domain``
    (``"land"``, ``"air"`` for ``isAir``, ``"sea"`` for ``isSea``),
    ``infrastructure`` (``isInfrastructure`` or ``isFactory``: a structure
    that never moves by itself), and ``attack``, ``defense``, ``hit_points``
    when given."""

    name: str
    movement: int = 0
    domain: str = "land"
    infrastructure: bool = False
    attack: int | None = None
    defense: int | None = None
    hit_points: int | None = None

    def properties(self) -> dict[str, Any]:
        """The ruleset ``UnitType.properties``: ``domain`` always;
        ``infrastructure: true`` and ``ground: false`` for structures (so
        rail refuses them); the combat values given."""
        out: dict[str, Any] = {"domain": self.domain}
        if self.infrastructure:
            out["infrastructure"] = True
            out["ground"] = False
        for key in ("attack", "defense", "hit_points"):
            v = getattr(self, key)
            if v is not None:
                out[key] = v
        return out


@dataclass(frozen=True)
class TripleAPlacement:
    """One ``<unitPlacement>``: ``quantity`` units of ``unit_type`` for
    ``owner`` (``None``: TripleA's null player) in ``territory`` (names as in
    the file); ``hits_taken`` and ``unit_damage`` when the file gives them."""

    unit_type: str
    territory: str
    quantity: int
    owner: str | None
    hits_taken: int | None = None
    unit_damage: int | None = None


@dataclass
class TripleAGame:
    """What a TripleA game XML declares (names as in the file)."""

    name: str
    territories: list[tuple[str, bool]]  # (name, is water)
    connections: list[tuple[str, str]]
    players: list[tuple[str, str]]  # (name, alliance)
    production: dict[str, int] = field(default_factory=dict)
    owners: dict[str, str] = field(default_factory=dict)
    impassable: set[str] = field(default_factory=set)
    canals: list[tuple[str, str, tuple[str, ...]]] = field(default_factory=list)  # (sea zone, canal, land)
    attachments: dict[str, dict[str, str]] = field(default_factory=dict)  # other territory options kept
    unit_types: list[str] = field(default_factory=list)
    unit_specs: dict[str, TripleAUnitType] = field(default_factory=dict)  # by unit type name
    placements: list[TripleAPlacement] = field(default_factory=list)


# ---------------------------------------------------------------------------
# XML


def parse_game_xml(data: bytes | str, source: str = "<xml>") -> TripleAGame:
    """Parse a TripleA game XML safely; raises :class:`TripleAError`."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    if len(raw) > MAX_XML_BYTES:
        raise TripleAError(f"{source}: {len(raw)} bytes; the limit is {MAX_XML_BYTES}")
    too_many = xml_markup_problem(raw)
    if too_many:
        raise TripleAError(f"{source}: {too_many}")
    try:
        root = SafeET.fromstring(raw, forbid_dtd=False, forbid_entities=True, forbid_external=True)
    except EntitiesForbidden as e:
        raise TripleAError(f"{source}: declares the XML entity '{e.name}'; entity declarations are refused "
                           f"(they can expand without limit or read other files)") from None
    except DefusedXmlException as e:
        raise TripleAError(f"{source}: refused unsafe XML ({type(e).__name__})") from None
    except LookupError as e:  # an XML declaration naming an unknown encoding
        raise TripleAError(f"{source}: the XML declaration names an {e}; TripleA games are UTF-8") from None
    except ParseError as e:
        line, col = e.position
        raise TripleAError(f"{source}: not well-formed XML at line {line}, column {col + 1} "
                           f"({str(e).split(':')[0]})") from None
    if root.tag != "game":
        raise TripleAError(f"{source}: not a TripleA game (the root element is <{root.tag}>, expected <game>)")
    info = root.find("info")
    game_map = root.find("map")
    if game_map is None:
        raise TripleAError(f"{source}: no <map> element, so no territories")
    territories: list[tuple[str, bool]] = []
    seen: set[str] = set()
    for i, t in enumerate(game_map.findall("territory")):
        name = _attr(t, "name", source, f"<territory> number {i + 1}")
        if name in seen:
            raise TripleAError(f"{source}: territory '{name}' is declared twice")
        seen.add(name)
        territories.append((name, t.get("water", "false").strip().lower() == "true"))
    connections: list[tuple[str, str]] = []
    for i, c in enumerate(game_map.findall("connection")):
        a = _attr(c, "t1", source, f"<connection> number {i + 1}")
        b = _attr(c, "t2", source, f"<connection> number {i + 1}")
        for x in (a, b):
            if x not in seen:
                raise TripleAError(f"{source}: <connection> number {i + 1} names '{x}', which is no territory")
        if a == b:
            raise TripleAError(f"{source}: <connection> number {i + 1} connects '{a}' with itself; a border needs "
                               "two different territories")
        connections.append((a, b))
    players: list[tuple[str, str]] = []
    pl = root.find("playerList")
    alliances: dict[str, str] = {}
    if pl is not None:
        for a in pl.findall("alliance"):
            alliances.setdefault(a.get("player", ""), a.get("alliance", ""))
        for i, p in enumerate(pl.findall("player")):
            name = _attr(p, "name", source, "<player>")
            if any(name == known for known, _ in players):
                raise TripleAError(f"{source}: <player> number {i + 1} repeats the player name '{name}'")
            players.append((name, alliances.get(name, "")))
    game = TripleAGame(info.get("name", "TripleA game") if info is not None else "TripleA game",
                       territories, connections, players)
    ul = root.find("unitList")
    if ul is not None:
        game.unit_types = [u.get("name", "") for u in ul.findall("unit") if u.get("name")]
    unit_opts: dict[str, dict[str, str]] = {u: {} for u in game.unit_types}
    for att in root.iter("attachment"):
        java = att.get("javaClass", "")
        target = att.get("attachTo", "")
        opts = {o.get("name", ""): o.get("value", "") for o in att.findall("option")}
        if java.endswith("TerritoryAttachment") and target in seen:
            if "production" in opts:
                try:
                    value = int(opts["production"][:40])
                except ValueError:
                    raise TripleAError(f"{source}: territory '{target}' has production "
                                       f"'{opts['production'][:40]}', not a whole number") from None
                if not 0 <= value <= MAX_PRODUCTION:
                    raise TripleAError(f"{source}: the <attachment> of territory '{target}' gives production "
                                       f"{value}; 0 to {MAX_PRODUCTION:,} are accepted")
                game.production[target] = value
            if opts.get("isImpassable", "").lower() == "true":
                game.impassable.add(target)
            kept = {k: v for k, v in opts.items() if k in ("capital", "victoryCity", "originalFactory", "isIsland")}
            if kept:
                game.attachments.setdefault(target, {}).update(kept)
        elif java.endswith("CanalAttachment") and target in seen:
            land = tuple(x for x in opts.get("landTerritories", "").split(":") if x)
            game.canals.append((target, opts.get("canalName", "canal"), land))
        elif (java.endswith(".UnitAttachment") or att.get("name") == "unitAttachment") and target in unit_opts:
            unit_opts[target].update(opts)
    game.unit_specs = {u: _unit_spec(u, o, source) for u, o in unit_opts.items()}
    init = root.find("initialize")
    if init is not None:
        for o in init.iter("territoryOwner"):
            t, owner = o.get("territory", ""), o.get("owner", "")
            if t in seen and owner:
                game.owners[t] = owner
        owners = {p for p, _ in players} | set(game.owners.values())
        total = 0
        for i, u in enumerate(init.iter("unitPlacement")):
            p = _placement(u, i + 1, source, seen, unit_opts, owners)
            total += p.quantity
            if total > MAX_UNITS:
                raise TripleAError(f"{source}: the unit placements add up to more than {MAX_UNITS:,} units "
                                   f"(passed at <unitPlacement> number {i + 1}); refused as too many to import")
            game.placements.append(p)
    return game


_TRUE = "true"


def _whole(value: str, source: str, what: str, limit: int = MAX_UNITS) -> int:
    """``value`` as a whole number 0…``limit``; raises :class:`TripleAError`
    saying ``what`` is wrong.  Only ASCII digits count (``int`` would take
    "１２", "+3" or "1_000")."""
    v = value.strip()
    if re.fullmatch(r"-\s*[0-9]+", v):
        raise TripleAError(f"{source}: {what} is '{value[:30]}', a negative number")
    if not re.fullmatch(r"[0-9]+", v):
        raise TripleAError(f"{source}: {what} is '{value[:30]}', not a whole number")
    n = int(v) if len(v) <= 18 else limit + 1
    if n > limit:
        raise TripleAError(f"{source}: {what} is {v[:30]}; at most {limit:,} is accepted")
    return n


def _unit_spec(name: str, opts: dict[str, str], source: str) -> TripleAUnitType:
    """What a unit type's ``unitAttachment`` options say, checked."""
    def flag(key: str) -> bool:
        return opts.get(key, "").strip().lower() == _TRUE

    def number(key: str) -> int | None:
        if key not in opts:
            return None
        return _whole(opts[key], source, f"unit type '{name}': option '{key}'", 1_000_000)

    air, sea = flag("isAir"), flag("isSea")
    if air and sea:
        raise TripleAError(f"{source}: unit type '{name}' is both isAir and isSea; a unit has one domain")
    return TripleAUnitType(name, number("movement") or 0, "air" if air else "sea" if sea else "land",
                           flag("isInfrastructure") or flag("isFactory"), number("attack"), number("defense"),
                           number("hitPoints"))


def _placement(u: Element, n: int, source: str, territories: set[str], unit_types: dict[str, Any],
               owners: set[str]) -> TripleAPlacement:
    """One ``<unitPlacement>`` (number ``n`` in the file), checked against
    the game's territories, unit types and owners."""
    what = f"<unitPlacement> number {n}"
    utype = _attr(u, "unitType", source, what)
    terr = _attr(u, "territory", source, what)
    what = f"<unitPlacement> number {n} ({utype} in {terr})"
    if terr not in territories:
        raise TripleAError(f"{source}: {what} names the territory '{terr}', which the game does not declare")
    if utype not in unit_types:
        known = ", ".join(sorted(unit_types)[:20]) or "none"
        raise TripleAError(f"{source}: {what} names the unit type '{utype}', which is not in the <unitList> "
                           f"(it has: {known})")
    owner = u.get("owner")
    if owner is not None and owner not in owners:
        known = ", ".join(sorted(owners)[:20]) or "none"
        raise TripleAError(f"{source}: {what} names the owner '{owner}', who is no player of the game "
                           f"(players: {known})")
    quantity = _whole(u.get("quantity", "1"), source, f"{what}: the quantity")
    extra = {k: _whole(v, source, f"{what}: {k}") for k in ("hitsTaken", "unitDamage")
             if (v := u.get(k)) is not None}
    return TripleAPlacement(utype, terr, quantity, owner, extra.get("hitsTaken"), extra.get("unitDamage"))


def _attr(e: Element, key: str, source: str, what: str) -> str:
    v = e.get(key)
    if v is None or not v.strip():
        raise TripleAError(f"{source}: {what} has no '{key}' attribute")
    return v


# ---------------------------------------------------------------------------
# polygons.txt and centers.txt

_POINT = re.compile(r"\(\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*\)")


def parse_polygons(text: str, source: str = "polygons.txt") -> dict[str, list[list[tuple[float, float]]]]:
    """Territory name → its polygons (each a ring of points), from a
    TripleA ``polygons.txt``; raises :class:`TripleAError` naming the line."""
    out: dict[str, list[list[tuple[float, float]]]] = {}
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        if "<" not in line:
            raise TripleAError(f"{source}: line {n}: expected 'Name  <  (x,y) (x,y) … >', found no '<'")
        name = line[:line.index("<")].strip()
        if not name:
            raise TripleAError(f"{source}: line {n}: a polygon without a territory name")
        rest = line[line.index("<"):]
        if rest.count("<") != rest.count(">"):
            raise TripleAError(f"{source}: line {n} ({name}): unbalanced '<' and '>'")
        rings = re.findall(r"<([^<>]*)>", rest)
        leftover = re.sub(r"<[^<>]*>", "", rest).strip()
        if leftover:
            raise TripleAError(f"{source}: line {n} ({name}): unexpected text '{leftover[:30]}' between polygons")
        for k, body in enumerate(rings, 1):
            pts = [(float(x), float(y)) for x, y in _POINT.findall(body)]
            junk = _POINT.sub("", body).strip()
            if junk:
                raise TripleAError(f"{source}: line {n} ({name}), polygon {k}: '{junk[:30]}' is not a point (x,y)")
            if not all(math.isfinite(x) and math.isfinite(y) for x, y in pts):
                raise TripleAError(f"{source}: line {n} ({name}), polygon {k}: a coordinate is too large")
            if len(set(pts)) < 3:
                raise TripleAError(f"{source}: line {n} ({name}), polygon {k}: {len(set(pts))} distinct points; "
                                   f"a polygon needs at least 3")
            out.setdefault(name, []).append(pts)
    return out


def parse_centers(text: str, source: str = "centers.txt") -> dict[str, tuple[float, float]]:
    """Territory name → its centre point, from a TripleA ``centers.txt``."""
    out: dict[str, tuple[float, float]] = {}
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        m = re.fullmatch(r"\s*(.+?)\s*\(\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*\)\s*", line)
        if m is None:
            raise TripleAError(f"{source}: line {n}: expected 'Name  (x,y)'")
        x, y = float(m.group(2)), float(m.group(3))
        if not (math.isfinite(x) and math.isfinite(y)):
            raise TripleAError(f"{source}: line {n}: a coordinate is too large")
        out[m.group(1)] = (x, y)
    return out


# ---------------------------------------------------------------------------
# building the scenario


def slug(name: str) -> str:
    s = re.sub(r"[^0-9a-z]+", "_", name.casefold()).strip("_")
    return s or "territory"


_IDENT = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]*")
"""What ``resources/scenario.schema.json`` accepts as a side or unit type id."""


def _unique_id(name: str, used: set[str], fallback: str, keep: bool = False) -> str:
    """An id for ``name`` that no id in ``used`` has (compared ignoring case),
    added to ``used``: the name itself when ``keep`` and it is already a
    valid id, else its :func:`slug` (``fallback`` when nothing is left of
    it; accented letters lose their accents first), with ``_2``, ``_3``…
    appended until unique."""
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")  # Ü -> U
    base = name if keep and _IDENT.fullmatch(name) else (re.sub(r"[^0-9a-z]+", "_", ascii_name.casefold()).strip("_")
                                                          or fallback)
    tid, k = base, 2
    while tid.casefold() in used:
        tid, k = f"{base}_{k}", k + 1
    used.add(tid.casefold())
    return tid


def _unique_name(name: str, used: set[str]) -> str:
    """``name``, or ``name (2)``, ``name (3)``… when a name equal to it
    ignoring case is in ``used`` (Adjutant's territory names are unique that
    way); added to ``used``."""
    out, k = name, 2
    while out.casefold() in used:
        out, k = f"{name} ({k})", k + 1
    used.add(out.casefold())
    return out


def _check_points(name: str, rings: Sequence[Sequence[tuple[float, float]]] | None = None,
                  point: tuple[float, float] | None = None, what: str = "polygons") -> None:
    """Refuse a coordinate outside 0..:data:`MAX_COORDINATE` (also NaN and infinities)."""
    pts = [p for r in rings or [] for p in r] + ([point] if point is not None else [])
    for x, y in pts:
        if not (0 <= x <= MAX_COORDINATE and 0 <= y <= MAX_COORDINATE):
            raise TripleAError(f"{what} of '{name}': the point ({x:g}, {y:g}) lies outside 0 to "
                               f"{MAX_COORDINATE:,} (Adjutant's maps start at 0, 0)")


@dataclass
class ImportResult:
    """The imported scenario and what the importer noticed (territories
    without a polygon, polygons of unknown territories, …)."""

    scenario: TerritoryScenario
    warnings: list[str]


RAIL_SHARING = ("document", "alliances", "none")
"""How the importer sets Module I's rail-sharing groups (``docs/rules/railroads.md``)."""

DOCUMENT_NATIONS: dict[str, tuple[str, ...]] = {
    "germany": ("germany", "germans", "german"),
    "italy": ("italy", "italians", "italian"),
    "uk": ("uk", "united kingdom", "british", "britain", "great britain", "uk pacific", "uk europe"),
    "france": ("france", "french"),
    "usa": ("usa", "us", "u s a", "united states", "americans", "american"),
    "china": ("china", "chinese"),
    "japan": ("japan", "japanese"),
    "ussr": ("ussr", "u s s r", "soviet union", "russia", "russians", "soviets"),
}
"""The nations Module I names, by the player names TripleA games give them
(compared lower-case with ``_`` and ``.`` read as spaces)."""

DOCUMENT_GROUPS = (("germany", "italy"), ("uk", "france", "usa", "china"))
"""Module I: "On the Axis, only Italy and Germany may share railroads. On
the Allies, only United Kingdom, France, U.S.A. and China may share
railroads. Japan and the U.S.S.R. are isolated in their railroad usage."
Every other nation rails alone."""


def _document_nation(name: str) -> str | None:
    key = " ".join(re.sub(r"[_.\-]", " ", name).casefold().split())
    return next((n for n, names in DOCUMENT_NATIONS.items() if key in names), None)


def rail_sharing_groups(sides: Sequence[Faction], reading: str = "document") -> list[list[str]]:
    """Module I's rail-sharing groups (lists of side ids, groups of two or
    more) for an imported game's sides.

    * ``"document"`` (default): the document's own groups, recognised by
      the players' names (Germans with Italians; British — UK_Pacific too —,
      French, Americans and Chinese together); every other nation rails
      alone, as the document isolates Japan and the USSR and names no
      other sharer, and sides of different alliances never share;
    * ``"alliances"``: every TripleA alliance shares its railroads (the
      game's own notion of friendly rail use);
    * ``"none"``: every nation rails alone."""
    if reading not in RAIL_SHARING:
        raise ValueError(f"rail sharing '{reading}' is not one of {', '.join(RAIL_SHARING)}")
    groups: dict[str, list[str]] = {}
    for f in sides:
        if reading == "alliances" and f.alliance:
            groups.setdefault(f"alliance:{f.alliance}", []).append(f.id)
        elif reading == "document":
            nation = _document_nation(f.name)
            group = next((i for i, g in enumerate(DOCUMENT_GROUPS) if nation in g), None)
            if group is not None:
                groups.setdefault(f"group:{group}:{f.alliance}", []).append(f.id)
    return [ids for ids in groups.values() if len(ids) > 1]


def to_scenario(game: TripleAGame, polygons: dict[str, list[list[tuple[float, float]]]] | None = None,
                centers: dict[str, tuple[float, float]] | None = None, wrap_x: bool = False,
                strait_gap: float = 6.0, rail_crossings: Iterable[tuple[str, str, str]] = A_AND_A_RAIL_CROSSINGS,
                rail_sharing: str = "document") -> ImportResult:
    """A territory scenario from a parsed game (and optionally its polygons
    and centres).  Land–land connections whose polygons lie more than
    ``strait_gap`` pixels apart cross water and become ``strait`` borders;
    the named ``rail_crossings`` become ``rail_crossing`` borders; Module
    I's rail-sharing groups are set by :func:`rail_sharing_groups`
    (``rail_sharing``: ``"document"``, ``"alliances"`` or ``"none"``)."""
    if rail_sharing not in RAIL_SHARING:
        raise TripleAError(f"rail sharing '{rail_sharing}' is not one of {', '.join(RAIL_SHARING)}")
    warnings: list[str] = []
    ids: dict[str, str] = {}
    used: set[str] = set()
    for name, _ in game.territories:
        tid, k = slug(name), 2
        base = tid
        while tid.casefold() in used:
            tid, k = f"{base}_{k}", k + 1
        used.add(tid.casefold())
        ids[name] = tid
    extra_owners = sorted(set(game.owners.values()) - {p for p, _ in game.players})
    unowned = sum(p.quantity for p in game.placements if p.owner is None)
    n_sides = len(game.players) + len(extra_owners) + (1 if unowned else 0)
    if n_sides > MAX_SIDES:
        raise TripleAError(f"<playerList>: {len(game.players)} players, {len(extra_owners)} owners that are no "
                           f"player{' and the neutral side' if unowned else ''} make {n_sides} sides; an Adjutant "
                           f"scenario holds at most {MAX_SIDES}")
    side_ids: dict[str, str] = {}
    sides: list[Faction] = []
    symbols = iter("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
    side_used: set[str] = set()
    for i, (pname, alliance) in enumerate(game.players):
        sid = _unique_id(pname, side_used, "side")
        side_ids[pname] = sid
        sides.append(Faction(sid, pname, PALETTE[i % len(PALETTE)], next(symbols), alliance))
    for owner in extra_owners:
        sid = _unique_id(owner, side_used, "side")
        side_ids[owner] = sid
        sides.append(Faction(sid, owner, "#808080", next(symbols), ""))
        warnings.append(f"owner '{owner}' is not in the player list; added as a side")
    neutral = None
    if unowned:
        neutral = _unique_id("neutral", side_used, "neutral")
        sides.append(Faction(neutral, NEUTRAL, "#b0b0b0", next(symbols, "?"), ""))
        warnings.append(f"{unowned} placed units have no owner; they belong to the added side '{NEUTRAL}'")
    polygons = _match_names(polygons or {}, ids)
    geometry = GeometryBudget()  # the whole game's geometry work
    centers = _match_names(centers or {}, ids)
    for name, rings in polygons.items():
        _check_points(name, rings)
    for name, point in centers.items():
        _check_points(name, point=point, what="the centre")
    names_used: set[str] = set()
    xs = [p[0] for rings in polygons.values() for r in rings for p in r] or [1.0]
    ys = [p[1] for rings in polygons.values() for r in rings for p in r] or [1.0]
    tm = TerritoryMap(math.floor(max(xs)) + 1, math.floor(max(ys)) + 1, wrap_x)
    for name, water in game.territories:
        own = game.owners.get(name)
        features: dict[str, Any] = {}
        att = game.attachments.get(name, {})
        if "capital" in att:
            features["capital"] = att["capital"]
        if "victoryCity" in att:
            features["victory_city"] = att["victoryCity"]
        shown = _unique_name(name, names_used)
        if shown != name:
            warnings.append(f"territory '{name}' is named '{shown}': Adjutant's territory names differ in more "
                            f"than case")
        t = Territory(ids[name], shown, sea=water, value=game.production.get(name, 0),
                      owner=side_ids.get(own) if own else None, controller=side_ids.get(own) if own else None,
                      impassable=name in game.impassable, label_at=centers.get(name), features=features)
        if name in polygons:
            try:
                t.shape = shape_from_rings(polygons[name], budget=geometry)
            except GeometryError as e:
                raise TripleAError(f"polygons of '{name}': {e}") from None
        elif polygons:
            warnings.append(f"'{name}' has no polygon")
        tm.add(t)
    for name in sorted(set(polygons) - set(ids)):
        warnings.append(f"polygons.txt has '{name}', which the game does not declare (ignored)")
    for name in sorted(set(centers) - set(ids)):
        warnings.append(f"centers.txt has '{name}', which the game does not declare (ignored)")
    for sea, canal, land in game.canals:
        t = tm.territories[ids[sea]]
        t.features["canal"] = {"name": canal, "land": [ids[x] for x in land if x in ids]}
    for a, b in game.connections:
        ta, tb = tm.territories[ids[a]], tm.territories[ids[b]]
        kind = BorderKind.ORDINARY
        if (ta.land and tb.land and not ta.shape.is_empty and not tb.shape.is_empty
                and ta.shape.distance(tb.shape) > strait_gap
                and (not wrap_x or _wrapped_distance(ta, tb, tm.width) > strait_gap)):
            kind = BorderKind.STRAIT
        if tm.graph.has_edge(ta.id, tb.id):
            continue
        tm.add_border(ta.id, tb.id, kind)
    for a, b, label in rail_crossings:
        if a in ids and b in ids:
            tm.add_border(ids[a], ids[b], BorderKind.RAIL_CROSSING, label)
    specs = game.unit_specs
    unit_used: set[str] = set()
    unit_ids = {u: _unique_id(u, unit_used, "unit", keep=True) for u in dict.fromkeys(game.unit_types)}
    rs = Ruleset(game.name, [TerrainType("land", "Land", "L", "#d8c89a"), TerrainType("sea", "Sea", "S", "#9cc3e0")],
                 [UnitType(uid, u.replace("_", " ").title(), specs[u].movement, specs[u].properties())
                  if u in specs else UnitType(uid, u.replace("_", " ").title()) for u, uid in unit_ids.items()])
    sharing = rail_sharing_groups(sides, rail_sharing)
    if sharing:
        rs.options["railroads"] = {"sharing": sharing}
    s = TerritoryScenario(game.name, rs, sides, tm, _units(game, ids, side_ids, neutral, unit_ids), turn=1,
                          description=f"Imported from the TripleA game '{game.name}'.")
    return ImportResult(s, warnings)


def _units(game: TripleAGame, ids: dict[str, str], side_ids: dict[str, str],
           neutral: str | None, unit_ids: dict[str, str] | None = None) -> list[TerritoryUnit]:
    """One :class:`TerritoryUnit` per placed piece (a stack of 12 infantry is
    12 units), in file order, with ids ``<side>_<type>_<n>`` numbered per
    side and type (``germans_infantry_1``…)."""
    total = sum(p.quantity for p in game.placements)
    if total > MAX_UNITS or any(p.quantity < 0 for p in game.placements):
        raise TripleAError(f"the placements ask for {total:,} units; 0 to {MAX_UNITS:,} are accepted")
    out: list[TerritoryUnit] = []
    counters: dict[str, int] = {}
    for p in game.placements:
        side = side_ids.get(p.owner) if p.owner is not None else neutral
        if side is None:
            raise TripleAError(f"a placement of {p.unit_type} in '{p.territory}' names the owner '{p.owner}', "
                               f"who is no player of the game")
        if p.territory not in ids:
            raise TripleAError(f"a placement of {p.unit_type} names the territory '{p.territory}', "
                               f"which the game does not declare")
        props: dict[str, Any] = {}
        if p.hits_taken is not None:
            props["hits_taken"] = p.hits_taken
        if p.unit_damage is not None:
            props["unit_damage"] = p.unit_damage
        prefix = f"{side}_{slug(p.unit_type)}"
        for _ in range(p.quantity):
            counters[prefix] = n = counters.get(prefix, 0) + 1
            out.append(TerritoryUnit(f"{prefix}_{n}", side, (unit_ids or {}).get(p.unit_type, p.unit_type),
                                     ids[p.territory], props=dict(props)))
    return out


def _match_names(d: dict[str, _T], names: dict[str, str]) -> dict[str, _T]:
    """``d`` with keys that differ from a game name only in spacing (TripleA
    maps have "British  Columbia") renamed to that name."""
    collapsed = {" ".join(n.split()): n for n in names}
    out: dict[str, _T] = {}
    for k, v in d.items():
        if k in names:
            out[k] = v
        else:
            out[collapsed.get(" ".join(k.split()), k)] = v
    return out


def _wrapped_distance(a: Territory, b: Territory, width: float) -> float:
    from shapely import affinity

    return float(min(a.shape.distance(affinity.translate(b.shape, xoff=width)),
                     a.shape.distance(affinity.translate(b.shape, xoff=-width))))


__all__ = ["A_AND_A_RAIL_CROSSINGS", "MAX_UNITS", "ImportResult", "TripleAError", "TripleAGame", "TripleAPlacement",
           "TripleAUnitType", "parse_centers", "parse_game_xml", "parse_polygons", "to_scenario"]
