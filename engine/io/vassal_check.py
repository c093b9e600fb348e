"""A check of a VASSAL module (``.vmod``) against the rules VASSAL's loader
and editor apply, for a machine with no VASSAL to open it.

:func:`module_problems` reads the archive and returns each problem as a
sentence (an empty list: the module passes).  It checks:

* the archive: a ZIP whose entries' CRCs hold; ``moduledata`` parses, has a
  ``VassalVersion``, and the build file is the one that version reads
  (``buildFile.xml`` from 3.5 on, ``buildFile`` before:
  ``GameModule.build`` in ``VASSAL/build/GameModule.java``), its root a
  ``VASSAL.build.GameModule`` whose ``VassalVersion`` and ``name`` agree
  with ``moduledata``;
* every element's class is one allowed where it stands (:data:`ALLOWED`:
  each class's ``getAllowableConfigureComponents`` and the components its
  ``build`` adds itself), and classes a version lacks
  (``ObliqueHexGridNumbering`` before 3.8.0) are not used;
* each map has the components that make pieces movable (:data:`MOVABLE`);
* piece slots: a whole-number ``gpid`` each, no two alike, below
  ``nextPieceSlotId``;
* piece definitions (``PieceSlot`` and ``PrototypeDefinition`` text): an
  ``AddPiece`` command ``+/id/type/state`` whose every level of traits
  decodes and encodes back to the same text (``SequenceEncoder``
  escaping), ending in a ``BasicPiece`` of five fields; each prototype a
  piece names exists;
* images: the board's and every piece's image are in ``images/`` and are
  PNG files; at-start stacks lie on their board's image;
* grids: ``dx``/``dy`` positive numbers, ``x0``/``y0`` whole numbers, zone
  paths lists of whole-number points.

:func:`check_module_file` raises when there is a problem (the safe writer's
check before a module replaces a file).
"""

from __future__ import annotations

import re
import struct
import zipfile
from collections.abc import Iterator
from pathlib import Path
from xml.etree.ElementTree import Element

import defusedxml.ElementTree as SafeET

from .vassal_codec import build_file_name, sequence_decode, sequence_encode

B = "VASSAL.build."
M = B + "module."
MAP = M + "map."
BOARD = MAP + "boardPicker."
GRID = BOARD + "board."
NUM = GRID + "mapgrid."
W = B + "widget."

_WIDGET_CHILDREN = frozenset({W + "TabWidget", W + "PanelWidget", W + "BoxWidget", W + "ListWidget",
                              W + "PieceSlot"})

ALLOWED: dict[str, frozenset[str]] = {
    # GameModule.getAllowableConfigureComponents, and the components
    # GameModule.build(Element) ensures (VASSAL/build/GameModule.java)
    B + "GameModule": frozenset({
        M + "ModuleSubFolder", M + "Map", M + "PieceWindow", M + "ToolbarMenu", M + "MultiActionButton",
        M + "DoActionButton", M + "DiceButton", M + "GlobalKeyCommand", M + "StartupGlobalKeyCommand",
        M + "Inventory", M + "RandomTextButton", M + "SpecialDiceButton", M + "PredefinedSetup",
        M + "ChartWindow", M + "PrivateMap", M + "PlayerHand", M + "NotesWindow", M + "TurnTracker",
        M + "ChessClockControl", M + "properties.GlobalProperties", M + "properties.GlobalTranslatableMessages",
        "VASSAL.i18n.Language", M + "BasicCommandEncoder", M + "Documentation", M + "PlayerRoster",
        M + "GlobalOptions", M + "PrototypesContainer", M + "Chatter", M + "KeyNamer"}),
    # Map.getAllowableConfigureComponents, and what Map.build adds
    # (VASSAL/build/module/Map.java)
    M + "Map": frozenset({MAP + c for c in (
        "MapSubFolder", "GlobalMap", "LOS_Thread", "HidePiecesButton", "Zoomer", "CounterDetailViewer",
        "HighlightLastMoved", "LayeredPieceCollection", "ImageSaver", "TextSaver", "DrawPile", "SetupStack",
        "MassKeyCommand", "MapShader", "PieceRecenterer", "Flare", "MoveCameraButton", "BoardPicker",
        "StackMetrics", "ForwardToKeyBuffer", "Scroller", "ForwardToChatter", "MenuDisplayer", "MapCenterer",
        "StackExpander", "PieceMover", "KeyBufferer", "SelectionHighlighters")}
        | {M + "ToolbarMenu", M + "MultiActionButton", M + "DoActionButton", M + "properties.GlobalProperties"}),
    MAP + "BoardPicker": frozenset({BOARD + "Board", "setup"}),  # BoardPicker.java (build reads <setup>)
    BOARD + "Board": frozenset({GRID + "HexGrid", GRID + "SquareGrid", GRID + "RegionGrid",
                                GRID + "ZonedGrid"}),  # boardPicker/Board.java
    GRID + "HexGrid": frozenset({NUM + "HexGridNumbering", NUM + "ObliqueHexGridNumbering"}),  # HexGrid.java
    GRID + "SquareGrid": frozenset({NUM + "SquareGridNumbering"}),  # SquareGrid.java
    GRID + "ZonedGrid": frozenset({NUM + "Zone", GRID + "HexGrid", GRID + "SquareGrid", GRID + "RegionGrid",
                                   NUM + "ZonedGridHighlighter"}),  # ZonedGrid.java
    NUM + "Zone": frozenset({GRID + "HexGrid", GRID + "SquareGrid", GRID + "RegionGrid",
                             M + "properties.ZoneProperty"}),  # mapgrid/Zone.java
    MAP + "SetupStack": frozenset({W + "PieceSlot"}),  # map/SetupStack.java
    M + "PieceWindow": _WIDGET_CHILDREN,  # PieceWindow.getChildAllowableConfigureComponents
    W + "TabWidget": _WIDGET_CHILDREN,  # Widget.getAllowableConfigureComponents: the window's
    W + "ListWidget": _WIDGET_CHILDREN,
    W + "PanelWidget": _WIDGET_CHILDREN,
    W + "BoxWidget": _WIDGET_CHILDREN,
    M + "PrototypesContainer": frozenset({M + "PrototypeFolder", M + "PrototypeDefinition"}),
    M + "PlayerRoster": frozenset({"entry"}),  # PlayerRoster.build reads <entry> elements
}
"""Which element classes may stand directly inside which."""

LEAVES = frozenset({W + "PieceSlot", M + "PrototypeDefinition", NUM + "HexGridNumbering",
                    NUM + "ObliqueHexGridNumbering", NUM + "SquareGridNumbering", "entry", "setup"}
                   | {MAP + c for c in ("StackMetrics", "ForwardToKeyBuffer", "Scroller", "ForwardToChatter",
                                        "MenuDisplayer", "MapCenterer", "StackExpander", "PieceMover",
                                        "KeyBufferer", "ImageSaver", "CounterDetailViewer", "Flare", "Zoomer",
                                        "SelectionHighlighters", "HighlightLastMoved")}
                   | {M + c for c in ("BasicCommandEncoder", "Documentation", "GlobalOptions", "Chatter",
                                      "KeyNamer", "properties.GlobalProperties",
                                      "properties.GlobalTranslatableMessages")})
"""Classes this check knows to stand with no children in a module Adjutant writes."""

MOVABLE = tuple(MAP + c for c in ("PieceMover", "KeyBufferer", "StackMetrics", "SelectionHighlighters",
                                  "MenuDisplayer", "StackExpander"))
"""A map's components without which its pieces cannot be moved, selected,
stacked or given commands (``Map.build(null)`` adds them to a new map)."""

SINCE = {NUM + "ObliqueHexGridNumbering": (3, 8, 0)}
"""Classes new in a version: (major, minor, patch) it appeared in."""

TRAITS = ("prototype;", "mark;", "piece;")
"""The piece traits a module Adjutant writes uses (``UsePrototype``, ``Marker``, ``BasicPiece``)."""

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


class ModuleCheckError(ValueError):
    """A module that breaks VASSAL's rules; the message lists the problems."""


def _version(text: str) -> tuple[int, int, int] | None:
    m = re.fullmatch(r"(\d+)\.(\d+)(?:\.(\d+))?(?:[-.].*)?", text.strip())
    if not m:
        return None
    return int(m.group(1)), int(m.group(2)), int(m.group(3) or 0)


def _walk(e: Element, path: str) -> Iterator[tuple[Element, Element, str]]:
    for child in e:
        p = f"{path}/{_short(child.tag)}"
        yield e, child, p
        yield from _walk(child, p)


def _short(tag: str) -> str:
    return tag.rsplit(".", 1)[-1]


def piece_problems(text: str, where: str) -> tuple[list[str], list[str], list[str]]:
    """Problems of one piece definition, the images it names and the
    prototypes it uses."""
    problems: list[str] = []
    images: list[str] = []
    protos: list[str] = []
    if not text.startswith("+/"):
        return [f"{where}: a piece definition starts '+/' (an AddPiece command), this one {text[:12]!r}"], [], []
    body = text[2:]
    parts = sequence_decode(body, "/")
    if len(parts) != 3:
        return [f"{where}: a piece definition has 3 '/'-separated parts (id, type, state), this one {len(parts)}"], \
            [], []
    if sequence_encode(parts, "/") != body:
        problems.append(f"{where}: the definition does not encode back to itself (an unescaped '/')")
    _pid, typ, state = parts
    levels = 0
    while True:
        layer = sequence_decode(typ, "\t")
        slayer = sequence_decode(state, "\t")
        if len(layer) > 2 or sequence_encode(layer, "\t") != typ:
            problems.append(f"{where}: trait {levels + 1} is not escaped as VASSAL writes it (a tab unescaped)")
            break
        head = layer[0]
        if not head.startswith(TRAITS):
            problems.append(f"{where}: trait {levels + 1} {head[:20]!r} is not one of {', '.join(TRAITS)}")
            break
        if head.startswith("prototype;"):
            protos.append(sequence_decode(head[len("prototype;"):], ";")[0])
        if len(layer) == 1:
            if not head.startswith("piece;"):
                problems.append(f"{where}: the innermost trait must be the basic piece ('piece;'), not {head[:20]!r}")
                break
            fields = sequence_decode(head[len("piece;"):], ";")
            if len(fields) != 4:
                problems.append(f"{where}: the basic piece has {len(fields) + 1} fields, expected 5 "
                                "(piece, clone key, delete key, image, name)")
            elif fields[2]:
                images.append(fields[2])
            if len(slayer) != 1 or len(sequence_decode(slayer[0], ";")) < 5:
                problems.append(f"{where}: the basic piece's state is not 'map;x;y;id;count'")
            break
        if head.startswith("piece;"):
            problems.append(f"{where}: the basic piece must be the innermost trait")
            break
        if len(slayer) != 2:
            problems.append(f"{where}: the state has fewer levels than the type (trait {levels + 1})")
            break
        typ, state = layer[1], slayer[1]
        levels += 1
    return problems, images, protos


def _png_size(data: bytes) -> tuple[int, int] | None:
    if not data.startswith(PNG_SIGNATURE) or len(data) < 24 or data[12:16] != b"IHDR":
        return None
    w, h = struct.unpack(">II", data[16:24])
    return w, h


def module_problems(path: str | Path) -> list[str]:
    """Every problem of the module at ``path`` (empty: it passes)."""
    try:
        z = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError) as e:
        return [f"not a ZIP archive VASSAL can open ({e})"]
    with z:
        try:
            bad = z.testzip()
        except (zipfile.BadZipFile, OSError, RuntimeError) as e:
            return [f"the archive cannot be read ({e})"]
        if bad is not None:
            return [f"entry {bad} is damaged (CRC)"]
        names = set(z.namelist())
        return _problems(z, names)


def _problems(z: zipfile.ZipFile, names: set[str]) -> list[str]:
    out: list[str] = []
    if "moduledata" not in names:
        return ["no 'moduledata' entry: VASSAL does not recognise the file as a module"]
    try:
        meta = SafeET.fromstring(z.read("moduledata"))
    except Exception as e:  # defusedxml raises ParseError and its own refusals
        return [f"moduledata does not parse as XML ({e})"]
    if meta.tag != "data":
        out.append(f"moduledata's root is <{meta.tag}>, expected <data>")
    vv = (meta.findtext("VassalVersion") or "").strip()
    version = _version(vv)
    if version is None:
        return out + [f"moduledata's VassalVersion {vv!r} is not a version like 3.7.0"]
    build_name = build_file_name(vv)
    other = "buildFile" if build_name == "buildFile.xml" else "buildFile.xml"
    if build_name not in names:
        return out + [f"VassalVersion {vv} reads the build file '{build_name}', which is missing"
                      + (f" (the archive has '{other}')" if other in names else "")]
    try:
        root = SafeET.fromstring(z.read(build_name))
    except Exception as e:
        return out + [f"{build_name} does not parse as XML ({e})"]
    if root.tag != B + "GameModule":
        return out + [f"{build_name}'s root is <{root.tag}>, expected <{B}GameModule>"]
    if root.get("VassalVersion") != vv:
        out.append(f"{build_name} says VassalVersion {root.get('VassalVersion')!r}, moduledata {vv!r}")
    if (meta.findtext("name") or "").strip() != (root.get("name") or "").strip():
        out.append(f"the module's name differs: {root.get('name')!r} in {build_name}, "
                   f"{meta.findtext('name')!r} in moduledata")
    images = {n[len("images/"):] for n in names if n.startswith("images/")}
    gpids: dict[str, str] = {}
    protos_defined: set[str] = set()
    protos_used: list[tuple[str, str]] = []
    wanted_images: list[tuple[str, str]] = []
    boards: dict[str, tuple[int, int] | None] = {}
    stacks: list[tuple[Element, str]] = []
    for parent, child, where in _walk(root, "GameModule"):
        allowed = ALLOWED.get(parent.tag)
        if allowed is None:
            if parent.tag in LEAVES:
                out.append(f"{where}: <{_short(parent.tag)}> takes no child elements")
            else:
                out.append(f"{where}: <{parent.tag}> is not a class this check knows")
            continue
        if child.tag not in allowed:
            out.append(f"{where}: <{child.tag}> may not stand inside <{_short(parent.tag)}>")
        since = SINCE.get(child.tag)
        if since is not None and version < since:
            out.append(f"{where}: {_short(child.tag)} is new in VASSAL {'.'.join(map(str, since))}; "
                       f"this module says {vv}")
        tag = child.tag
        if tag == W + "PieceSlot":
            gp = child.get("gpid", "")
            if not gp.isdigit():
                out.append(f"{where}: gpid {gp!r} is not a whole number")
            elif gp in gpids:
                out.append(f"{where}: gpid {gp} is also {gpids[gp]}'s")
            else:
                gpids[gp] = where
        if tag in (W + "PieceSlot", M + "PrototypeDefinition"):
            probs, imgs, protos = piece_problems(child.text or "", where)
            out += probs
            wanted_images += [(i, where) for i in imgs]
            protos_used += [(p, where) for p in protos]
            if tag == M + "PrototypeDefinition":
                name = child.get("name", "")
                if name in protos_defined:
                    out.append(f"{where}: a second prototype named {name!r}")
                protos_defined.add(name)
        if tag == BOARD + "Board":
            img = child.get("image", "")
            wanted_images.append((img, where))
            boards[child.get("name", "")] = _png_size(z.read("images/" + img)) if img in images else None
        if tag in (GRID + "HexGrid", GRID + "SquareGrid"):
            for a in ("dx", "dy"):
                try:
                    if not float(child.get(a, "")) > 0:
                        raise ValueError
                except ValueError:
                    out.append(f"{where}: {a} {child.get(a)!r} is not a positive number")
            for a in ("x0", "y0"):
                if not re.fullmatch(r"-?\d+", child.get(a, "")):
                    out.append(f"{where}: {a} {child.get(a)!r} is not a whole number (VASSAL reads an Integer)")
        if tag in (NUM + "HexGridNumbering", NUM + "ObliqueHexGridNumbering", NUM + "SquareGridNumbering"):
            out += _numbering_problems(child, where)
        if tag == NUM + "Zone" and not re.fullmatch(r"-?\d+,-?\d+(;-?\d+,-?\d+){2,}", child.get("path", "")):
            out.append(f"{where}: path {child.get('path')!r} is not a polygon 'x,y;x,y;...'")
        if tag == MAP + "SetupStack":
            stacks.append((child, where))
        if tag == M + "Map":
            have = {c.tag for c in child}
            lacking = [_short(c) for c in MOVABLE if c not in have]
            if lacking:
                out.append(f"{where}: lacks {', '.join(lacking)}: VASSAL adds them only to a map made in its "
                           "editor, and without them pieces cannot be dragged, selected or stacked")
    nxt = root.get("nextPieceSlotId", "")
    if not nxt.isdigit():
        out.append(f"nextPieceSlotId {nxt!r} is not a whole number")
    elif gpids and int(nxt) <= max(int(g) for g in gpids):
        out.append(f"nextPieceSlotId {nxt} is not above the highest gpid {max(int(g) for g in gpids)}: "
                   "a new piece slot would reuse an id")
    for name, where in protos_used:
        if name not in protos_defined:
            out.append(f"{where}: uses prototype {name!r}, which is not defined")
    for img, where in wanted_images:
        if img not in images:
            out.append(f"{where}: image {img!r} is not in the archive's images/")
        elif _png_size(z.read("images/" + img)) is None:
            out.append(f"{where}: images/{img} is not a PNG file")
    for st, where in stacks:
        board = st.get("owningBoard", "")
        if board not in boards:
            out.append(f"{where}: owningBoard {board!r} is no board of the module")
            continue
        try:
            x, y = int(st.get("x", "")), int(st.get("y", ""))
        except ValueError:
            out.append(f"{where}: x, y {st.get('x')!r}, {st.get('y')!r} are not whole numbers")
            continue
        size = boards[board]
        if size is not None and not (0 <= x < size[0] and 0 <= y < size[1]):
            out.append(f"{where}: {x}, {y} is off the board's {size[0]} x {size[1]} image")
    return out


def _numbering_problems(e: Element, where: str) -> list[str]:
    """The attribute values ``RegularGridNumbering.setAttribute`` reads:
    ``first`` H or V, types N or A (their first letter), whole numbers for
    leading zeros and offsets, true or false for the flags."""
    out = []
    if e.get("first", "H")[:1] not in ("H", "V"):
        out.append(f"{where}: first {e.get('first')!r} is not H or V")
    for a in ("hType", "vType"):
        if e.get(a, "N")[:1] not in ("N", "A"):
            out.append(f"{where}: {a} {e.get(a)!r} is not N (numbers) or A (letters)")
    for a in ("hLeading", "vLeading", "hOff", "vOff", "fontSize", "hDrawOff", "vDrawOff"):
        if a in e.attrib and not re.fullmatch(r"-?\d+", e.get(a, "")):
            out.append(f"{where}: {a} {e.get(a)!r} is not a whole number (VASSAL reads an Integer)")
    for a in ("hDescend", "vDescend", "stagger", "visible"):
        if a in e.attrib and e.get(a) not in ("true", "false"):
            out.append(f"{where}: {a} {e.get(a)!r} is not true or false")
    return out


def check_module_file(path: Path) -> None:
    """Raise :class:`ModuleCheckError` listing the module's problems, if any."""
    problems = module_problems(path)
    if problems:
        more = f" (and {len(problems) - 5} more)" if len(problems) > 5 else ""
        raise ModuleCheckError("the module breaks VASSAL's rules: " + "; ".join(problems[:5]) + more)


__all__ = ["ALLOWED", "ModuleCheckError", "check_module_file", "module_problems", "piece_problems"]
