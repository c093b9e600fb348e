"""The rules-system interface, the generic option reader and the registry.

A rules system is one module or package under ``engine/rules/`` that
subclasses :class:`RulesSystem` and decorates the class with
:func:`register`.  It says:

* its ``name`` (the key of its options in ``ruleset.options`` and of its
  golden file ``tests/golden/<name>.json``), a ``title`` and the
  ``map_kinds`` it plays on (``"square"``, ``"hex"``, ``"territory"``);
* its ``Options``: a frozen dataclass whose fields are the option keys, read
  from the ruleset by :func:`read_options` (the field annotations are the
  checks: no hand-written reader);
* its ``Order``: a frozen dataclass whose fields are the order keys it
  understands, read the same way (:meth:`RulesSystem.read_order`);
* :meth:`RulesSystem.check`: the verdict on an order, a value with ``ok``,
  ``reasons`` (every "no" one sentence a game master can read aloud) and
  ``to_data()``;
* :meth:`RulesSystem.apply`: check, refuse with the reasons, or change the
  scenario and return a :class:`Record` whose ``undo`` puts it back — the
  push/pop of python-chess, so previews and replays need no copy.

The registry (:mod:`engine.rules.registry`, re-exported here) finds systems
by name or map kind.  The built-in systems are imported only when the
registry is first asked (:data:`BUILTIN_MODULES`), so importing this module
(and ``adjutant --help``) stays cheap.  The recipe for a
new system is in ``docs/developing.md`` ("How to add a rules system").
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import sys
import types
import typing
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar, Generic, Literal, Protocol, TypeVar, runtime_checkable

from ..model import ModelError
from .registry import BUILTIN_MODULES, MAP_KINDS, for_map_kind, get, names, register, systems, unregister

T = TypeVar("T")
ScenarioT = TypeVar("ScenarioT")
OptionsT = TypeVar("OptionsT")


class OptionError(ModelError):
    """A bad option or order value: an unknown key, a wrong type, a value out
    of range.  The message names the key, the value and what is allowed."""


class RefusedOrder(ModelError):
    """:meth:`RulesSystem.apply` was given an order its check refuses; the
    message carries the verdict's reasons."""


# ---------------------------------------------------------------------------
# constraints a field annotation may carry: Annotated[int, AtLeast(1)]

@dataclass(frozen=True)
class AtLeast:
    """The value (a number) must be ``low`` or more."""

    low: int | Fraction


@dataclass(frozen=True)
class AtMost:
    """The value (a number) must be ``high`` or less."""

    high: int | Fraction


@dataclass(frozen=True)
class NonEmpty:
    """The value (a text or a list) must not be empty."""


@dataclass(frozen=True)
class Reader:
    """A reader of its own for one field, for shapes no annotation describes
    (a table of rows, a named reading or a pair of numbers): ``read(value,
    label)`` returns the field's value or raises :class:`OptionError` (any
    :class:`ModelError` it raises is passed on as is).  ``Annotated[T,
    Reader(f)]`` replaces the reading of ``T``; other constraints still
    apply after it.  ``what`` says in words what it accepts (for
    :func:`option_help`)."""

    read: Callable[[Any, str], Any]
    what: str = "a value of its own shape"


def _or_list(items: Iterable[str]) -> str:
    xs = list(items)
    return xs[0] if len(xs) == 1 else ", ".join(xs[:-1]) + " or " + xs[-1]


def _show(v: Any) -> str:
    """How an allowed value is written in a message: as it is written in a
    scenario file (``'flanks'``, ``3``, ``true``)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if v is None:
        return "null"
    if isinstance(v, enum.Enum):
        return _show(v.value)
    return repr(v)


def _number_text(n: int | Fraction) -> str:
    return str(n)


class _Reading:
    """One reading: the annotation to check and the error class to raise."""

    def __init__(self, error: type[ModelError]) -> None:
        self.error = error

    def fail(self, label: str, what: str, value: Any) -> ModelError:
        return self.error(f"{label} must be {what}, got {value!r}")

    def what(self, tp: Any) -> str:
        """What ``tp`` accepts, in words."""
        origin = typing.get_origin(tp)
        if origin is typing.Annotated:
            base, *meta = typing.get_args(tp)
            custom = [m for m in meta if isinstance(m, Reader)]
            text = custom[0].what if custom else self.what(base)
            joint = " of" if base is int else ","
            for m in meta:
                if isinstance(m, AtLeast):
                    text += f"{joint} {_number_text(m.low)} or more"
                elif isinstance(m, AtMost):
                    text += f"{joint} {_number_text(m.high)} or less"
                elif isinstance(m, NonEmpty):
                    text = "a non-empty " + text.removeprefix("a ").removeprefix("an ")
            return text
        if tp is Any:
            return "any value"
        if tp is bool:
            return "true or false"
        if tp is int:
            return "a whole number"
        if tp is float:
            return "a number"
        if tp is Fraction:
            return 'a number like 2 or "3/2"'
        if tp is str:
            return "a text"
        if origin is Literal:
            return _or_list(_show(a) for a in typing.get_args(tp))
        if isinstance(tp, type) and issubclass(tp, enum.Enum):
            return _or_list(_show(m.value) for m in tp)
        if origin in (typing.Union, types.UnionType):
            return _or_list(self.what(a) for a in typing.get_args(tp))
        if tp is type(None):
            return "null"
        if origin is tuple:
            args = typing.get_args(tp)
            if len(args) == 2 and args[1] is Ellipsis:
                return f"a list of {self.plural(args[0])}"
            return f"a list of {len(args)}: " + ", ".join(self.what(a) for a in args)
        if origin is frozenset:
            return f"a list of {self.plural(typing.get_args(tp)[0])}"
        if origin in (dict, Mapping):
            return f"an object of {self.plural(typing.get_args(tp)[1])}"
        if dataclasses.is_dataclass(tp):
            return "an object with " + ", ".join(f.name for f in dataclasses.fields(tp))
        raise TypeError(f"read_options cannot read a field annotated {tp!r}")

    def plural(self, tp: Any) -> str:
        w = self.what(tp)
        for one, many in (("a whole number", "whole numbers"), ("a number", "numbers"), ("a text", "texts"),
                          ("true or false", "true/false values")):
            if w.startswith(one):
                return many + w[len(one):]
        return f"values each {w}"

    def read(self, tp: Any, value: Any, label: str) -> Any:
        """``value`` checked and converted to ``tp``; raises naming ``label``."""
        origin = typing.get_origin(tp)
        if origin is typing.Annotated:
            base, *meta = typing.get_args(tp)
            custom = [m for m in meta if isinstance(m, Reader)]
            try:
                out = custom[0].read(value, label) if custom else self.read(base, value, label)
            except ModelError as e:
                if str(e).startswith(f"{label} must be ") and not custom:
                    raise self.fail(label, self.what(tp), value) from None
                raise
            for m in meta:
                if isinstance(m, AtLeast) and out < m.low:
                    raise self.fail(label, self.what(tp), value)
                if isinstance(m, AtMost) and out > m.high:
                    raise self.fail(label, self.what(tp), value)
                if isinstance(m, NonEmpty) and len(out) == 0:
                    raise self.fail(label, self.what(tp), value)
            return out
        if tp is Any:
            return value
        if tp is bool:
            if not isinstance(value, bool):
                raise self.fail(label, "true or false", value)
            return value
        if tp is int:
            if isinstance(value, bool) or not isinstance(value, int):
                raise self.fail(label, "a whole number", value)
            return value
        if tp is float:
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise self.fail(label, "a number", value)
            return float(value)
        if tp is Fraction:
            return self._fraction(value, label)
        if tp is str:
            if not isinstance(value, str):
                raise self.fail(label, "a text", value)
            return value
        if origin is Literal:
            for a in typing.get_args(tp):
                if type(a) is type(value) and a == value:
                    return a
            raise self.fail(label, self.what(tp), value)
        if isinstance(tp, type) and issubclass(tp, enum.Enum):
            for m in tp:
                if type(m.value) is type(value) and m.value == value:
                    return m
            raise self.fail(label, self.what(tp), value)
        if tp is type(None):
            if value is not None:
                raise self.fail(label, "null", value)
            return None
        if origin in (typing.Union, types.UnionType):
            args = typing.get_args(tp)
            if value is None and type(None) in args:
                return None
            for a in args:
                if a is type(None):
                    continue
                try:
                    return self.read(a, value, label)
                except ModelError:
                    if len([x for x in args if x is not type(None)]) == 1:
                        raise
            raise self.fail(label, self.what(tp), value)
        if origin in (tuple, frozenset):
            if not isinstance(value, (list, tuple)):
                raise self.fail(label, self.what(tp), value)
            args = typing.get_args(tp)
            if origin is frozenset:
                return frozenset(self.read(args[0], v, f"{label}[{i}]") for i, v in enumerate(value))
            if len(args) == 2 and args[1] is Ellipsis:
                return tuple(self.read(args[0], v, f"{label}[{i}]") for i, v in enumerate(value))
            if len(value) != len(args):
                raise self.fail(label, self.what(tp), value)
            return tuple(self.read(a, v, f"{label}[{i}]") for i, (a, v) in enumerate(zip(args, value, strict=True)))
        if origin in (dict, Mapping):
            if not isinstance(value, Mapping) or not all(isinstance(k, str) for k in value):
                raise self.fail(label, self.what(tp), value)
            vt = typing.get_args(tp)[1]
            return {k: self.read(vt, v, f"{label}.{k}") for k, v in value.items()}
        if isinstance(tp, type) and dataclasses.is_dataclass(tp):
            return _read_dataclass(tp, value, label, None, self.error)
        raise TypeError(f"read_options cannot read a field annotated {tp!r} ({label})")

    def _fraction(self, value: Any, label: str) -> Fraction:
        what = 'a number like 2 or "3/2"'
        if isinstance(value, bool) or not isinstance(value, (int, float, str)):
            raise self.fail(label, what, value)
        try:
            return Fraction(str(value)) if isinstance(value, float) else Fraction(value)
        except (ValueError, ZeroDivisionError):
            raise self.fail(label, what, value) from None


@functools.cache
def _hints(cls: type) -> dict[str, Any]:
    """The resolved field annotations of ``cls`` (computed once per class:
    options are read on every adjudication, some on every mouse move)."""
    module = sys.modules.get(cls.__module__)
    return typing.get_type_hints(cls, globalns=vars(module) if module else None, include_extras=True)


@functools.cache
def _fields(cls: type) -> dict[str, dataclasses.Field[Any]]:
    """The fields read from a mapping, by key (computed once per class)."""
    return {_key(f): f for f in dataclasses.fields(cls) if f.init and not f.name.startswith("_")}


def _read_dataclass(cls: type[T], raw: Mapping[str, Any] | None, where: str, key_style: str | None,
                    error: type[ModelError]) -> T:
    def label(key: str) -> str:
        return key_style.replace("{key}", key) if key_style is not None else f"{where}.{key}"

    if raw is None:
        raw = {}
    if not isinstance(raw, Mapping):
        raise error(f"{where} must be an object of option names and values, got {raw!r}")
    kind: type = cls  # a class is hashable: the caches key on it
    fields = _fields(kind)
    for key in raw:
        if key not in fields:
            known = ", ".join(sorted(fields))
            name = label(str(key)) if key_style is not None else f"option {where}.{key}"
            raise error(f"unknown {name} (known: {known})")
    hints = _hints(kind)
    reading = _Reading(error)
    values: dict[str, Any] = {}
    for key, f in fields.items():
        if key in raw:
            values[f.name] = reading.read(hints[f.name], raw[key], label(key))
        elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            raise error(f"{label(key)} is missing ({reading.what(hints[f.name])})")
    return cls(**values)


def _key(f: dataclasses.Field[Any]) -> str:
    """The key a field is read from: its name, or ``metadata["key"]`` for
    keys that cannot be Python names (``field(metadata={"key": "from"})``)."""
    return str(f.metadata.get("key", f.name))


SELECTS_RULES = "selects_rules"
"""The field metadata key marking an order key that selects rules (see
:func:`selects_rules`)."""


def selects_rules(default: Any = None) -> Any:
    """A dataclass field for an order key that would select rules (an
    option number, a reading): ``option: int | None = selects_rules()``.
    :meth:`RulesSystem.order_key_refusals` refuses it unless the system's
    :meth:`RulesSystem.player_choices` leaves it to the player."""
    return dataclasses.field(default=default, metadata={SELECTS_RULES: True})


def read_options(cls: type[T], raw: Mapping[str, Any] | None, where: str, *, key_style: str | None = None,
                 error: type[ModelError] = OptionError) -> T:
    """An instance of the frozen dataclass ``cls`` from the mapping ``raw``.

    Each field's annotation is the check: ``bool`` (true or false, never a
    number), ``int`` (never a boolean), ``float``, ``Fraction`` (``2``,
    ``1.5`` or ``"3/2"``), ``str``, ``Literal[...]``, an ``Enum`` (by value),
    ``tuple[X, ...]`` and ``tuple[X, Y]`` (from a list), ``frozenset[X]``,
    ``dict[str, X]``, ``X | None``, nested dataclasses (from an object), and
    ``Annotated[X, AtLeast(n), AtMost(n), NonEmpty(), Reader(f)]`` for ranges
    and shapes of their own.  A missing key keeps the field's default (a
    field without one is required); ``raw`` ``None`` means all defaults.  A
    field is read from the key of its name, or from ``metadata["key"]``.

    ``where`` names the mapping (``"ruleset.options.gitm"``); a bad value
    raises ``error`` (default :class:`OptionError`) saying ``<where>.<key>
    must be <what is allowed>, got <value>``, an unknown key ``unknown
    option <where>.<key> (known: ...)``.  ``key_style`` (e.g. ``"acw option
    '{key}'"``) names a key instead of ``<where>.<key>``, for messages a
    system has always given.  Checks that involve two fields belong in the
    dataclass's ``__post_init__`` (raising :class:`OptionError`).
    """
    if not (isinstance(cls, type) and dataclasses.is_dataclass(cls)):
        raise TypeError(f"read_options needs a dataclass, got {cls!r}")
    return _read_dataclass(cls, raw, where, key_style, error)


def option_help(cls: type) -> dict[str, str]:
    """Each option key of the dataclass ``cls`` with what it accepts in words
    (the same words the error messages use)."""
    hints = _hints(cls)
    reading = _Reading(OptionError)
    return {_key(f): reading.what(hints[f.name]) for f in dataclasses.fields(cls)
            if f.init and not f.name.startswith("_")}


# ---------------------------------------------------------------------------
# results

@runtime_checkable
class Verdict(Protocol):
    """The answer to "may this order be carried out?".  ``ok`` is the
    answer; ``reasons`` says why, one sentence each (every "no" names what
    stops it); ``to_data()`` is the JSON form (plain dicts, lists, strings,
    numbers) the CLI prints and journals keep."""

    @property
    def ok(self) -> bool: ...

    @property
    def reasons(self) -> tuple[str, ...]: ...

    def to_data(self) -> dict[str, Any]: ...


@runtime_checkable
class Record(Protocol):
    """The reversible effect of an applied order: ``undo(scenario)`` puts
    the scenario back as it was before :meth:`RulesSystem.apply`, provided
    nothing applied after it is still in place (undo in reverse order, as
    python-chess pops moves)."""

    def undo(self, scenario: Any) -> None: ...

    def to_data(self) -> dict[str, Any]: ...


@dataclass(frozen=True)
class PlainVerdict:
    """A verdict that is nothing but its answer and reasons (for checks that
    have no more to report, and for tests)."""

    ok: bool
    reasons: tuple[str, ...] = ()

    def to_data(self) -> dict[str, Any]:
        return {"ok": self.ok, "reasons": list(self.reasons)}


@dataclass(frozen=True)
class UnitMove:
    """One unit moved by an applied order: from ``before`` to ``after``
    (cells or territory ids), with the map's labels of both."""

    unit: str
    before: Any
    after: Any
    before_label: str
    after_label: str

    def to_data(self) -> dict[str, Any]:
        return {"unit": self.unit, "from": self.before_label, "to": self.after_label}


@dataclass(frozen=True)
class UnitsMoved:
    """The record of an order that moved units (the usual effect of a move
    order on either kind of map).  :meth:`undo` puts each unit back, last
    moved first, and refuses (:class:`ModelError`) when a unit is no longer
    where the order left it — something applied later was not undone."""

    system: str
    moves: tuple[UnitMove, ...]

    @staticmethod
    def move(scenario: Any, system: str, moves: Iterable[tuple[str, Any]]) -> UnitsMoved:
        """Move each unit id of ``moves`` to its new place in ``scenario``
        and return the record (``scenario.map.label`` names the places)."""
        done: list[UnitMove] = []
        label = scenario.map.label
        for unit_id, to in moves:
            u = scenario.unit(unit_id)
            done.append(UnitMove(u.id, u.at, to, label(u.at), label(to)))
            u.at = to
        return UnitsMoved(system, tuple(done))

    def undo(self, scenario: Any) -> None:
        for m in reversed(self.moves):
            u = scenario.unit(m.unit)
            if u.at != m.after:
                raise ModelError(f"cannot undo the {self.system} move of {m.unit}: it is at "
                                 f"{scenario.map.label(u.at)}, not {m.after_label}; undo the later orders first")
        for m in reversed(self.moves):
            scenario.unit(m.unit).at = m.before

    def to_data(self) -> dict[str, Any]:
        return {"system": self.system, "moved": [m.to_data() for m in self.moves]}


# ---------------------------------------------------------------------------
# the interface

MapKind = Literal["square", "hex", "territory"]

DEFAULT_ONCE: frozenset[str] = frozenset({"moved", "railed", "marched"})
"""The actions a unit takes at most once a turn unless a system says otherwise."""


class TurnView(Protocol):
    """What a system's turn hooks see of the turn: its number, the phase and
    the side to move (``None`` on a map without sides).  The turn engine's
    :class:`engine.turns.state.TurnState` is one."""

    @property
    def turn(self) -> int: ...

    @property
    def phase(self) -> str: ...

    @property
    def side(self) -> str | None: ...


EffectTuple = tuple[str, Record] | tuple[str, Record, tuple[str, ...]]
"""An end-of-phase effect as a system returns it: what it says, the record
that undoes it and (optionally) the sentences that explain it."""

_OPTIONS_KEPT = 32
"""How many distinct option values :func:`cached_options` keeps read, per owner."""
_OPTIONS_CACHE: dict[type[Any], dict[str, Any]] = {}


def cached_options(owner: type[Any], raw: Any, read: Callable[[Any], T]) -> T:
    """``read(raw)``, computed once per distinct ``raw`` (compared by its
    text, so ``1`` and ``true`` differ) and ``owner`` (the class whose
    options they are): the editor may change a ruleset's options at any
    time, and they are asked on every adjudication.  Options are frozen
    values, so one answer serves every caller."""
    key = repr(raw)
    kept = _OPTIONS_CACHE.setdefault(owner, {})
    found = kept.get(key)
    if found is None:
        found = read(raw)
        if len(kept) >= _OPTIONS_KEPT:
            kept.clear()
        kept[key] = found
    return typing.cast(T, found)


class RulesSystem(ABC, Generic[ScenarioT, OptionsT]):
    """One rules system.  Subclasses set the class attributes and implement
    :meth:`check` and :meth:`effect`; :func:`register` makes them findable.

    ``ScenarioT`` is the scenario type it plays on (:class:`engine.model.Scenario`
    or :class:`engine.territory.model.TerritoryScenario`), ``OptionsT`` its
    ``Options`` dataclass.
    """

    name: ClassVar[str]
    """Key of the options in ``ruleset.options``, of the golden file and of
    the registry."""
    title: ClassVar[str]
    """The system's name for people."""
    map_kinds: ClassVar[frozenset[str]]
    """The map kinds it plays on: a subset of :data:`MAP_KINDS`."""
    Options: ClassVar[type[Any]]
    """A frozen dataclass: the option keys, their types and defaults."""
    Order: ClassVar[type[Any]]
    """A frozen dataclass: the keys of an order, their types and defaults."""
    doc: ClassVar[str] = ""
    """The rule page, e.g. ``"docs/rules/gitm.md"``."""

    # -- turn hooks: what :class:`engine.turns.game.Game` and the app ask --
    phases: ClassVar[tuple[str, ...]] = ("orders",)
    """A side's phases in turn order."""
    once_per_turn: ClassVar[frozenset[str]] = DEFAULT_ONCE
    """The actions (:meth:`action_of`) a unit takes at most once a turn."""

    order_forms: ClassVar[tuple[type[Any], ...]] = ()
    """Further order dataclasses beside :attr:`Order`, for a system with
    several kinds of order (ACW's attack and retreat, Rail Options' economy
    orders).  :attr:`Order` and these are the one declaration of the keys an
    order may carry (:meth:`order_key_refusals`)."""

    @property
    def order_keys(self) -> tuple[str, ...]:
        """The order keys this system understands: the fields of
        :attr:`Order` and of :attr:`order_forms`, each once, in order."""
        keys: dict[str, None] = {}
        for form in (self.Order, *self.order_forms):
            keys.update((_key(f), None) for f in dataclasses.fields(form))
        return tuple(keys)

    @property
    def rule_keys(self) -> tuple[str, ...]:
        """The order keys that would select rules (an option, a reading):
        fields declared with :func:`selects_rules`.  An order may carry one
        only when :meth:`player_choices` leaves it to the player."""
        keys: dict[str, None] = {}
        for form in (self.Order, *self.order_forms):
            keys.update((_key(f), None) for f in dataclasses.fields(form) if f.metadata.get(SELECTS_RULES))
        return tuple(keys)

    def player_choices(self, scenario: ScenarioT) -> frozenset[str]:
        """The :attr:`rule_keys` the scenario leaves to the player giving
        the order (none by default: the scenario's ruleset decides the rules)."""
        return frozenset()

    def order_key_refusals(self, scenario: ScenarioT, order: Mapping[str, Any]) -> list[str]:
        """A sentence for each key of ``order`` this system's orders may not
        carry: a key no order form declares, or a key that selects rules the
        scenario does not leave to the player.  The turn engine refuses such
        an order with these reasons before the rules are asked."""
        known = self.order_keys
        rules = set(self.rule_keys) - set(self.player_choices(scenario))
        out = []
        for key in order:
            if key not in known:
                out.append(f"the order key {str(key)!r} is not a key of a {self.name} order "
                           f"(its keys: {', '.join(known)})")
            elif key in rules:
                out.append(f"the order key {key!r} selects rules; the scenario's ruleset decides them")
        return out

    @property
    def option_keys(self) -> tuple[str, ...]:
        return tuple(f.name for f in dataclasses.fields(self.Options))

    def read_options(self, raw: Mapping[str, Any] | None) -> OptionsT:
        """The options a mapping sets, defaults for the rest."""
        return typing.cast(OptionsT, read_options(self.Options, raw, f"ruleset.options.{self.name}"))

    def options(self, scenario: ScenarioT) -> OptionsT:
        """The options of ``scenario``'s ruleset (``ruleset.options[name]``)."""
        ruleset = getattr(scenario, "ruleset", None)
        return self.ruleset_options(ruleset.options if ruleset is not None else {})

    @typing.final
    def ruleset_options(self, options: Mapping[str, Any]) -> OptionsT:
        """The options a ruleset's ``options`` mapping sets for this system,
        read by :meth:`read_options` once per distinct value and kept per
        system class (:func:`cached_options`)."""
        return cached_options(type(self), options.get(self.name), self.read_options)

    def read_order(self, order: Mapping[str, Any]) -> Any:
        """``order`` read into an :attr:`Order`; raises :class:`OptionError`
        naming an unknown key, a missing one or a bad value."""
        return read_options(self.Order, order, f"{self.name} order")

    @abstractmethod
    def check(self, scenario: ScenarioT, order: Mapping[str, Any]) -> Verdict:
        """The verdict on ``order`` (a mapping of :attr:`order_keys`) in
        ``scenario``; never changes the scenario.  Malformed orders (an
        unknown unit, a bad key) raise :class:`ModelError`; an order the
        rules refuse is a verdict with ``ok`` false."""

    @abstractmethod
    def effect(self, scenario: ScenarioT, order: Mapping[str, Any], verdict: Verdict) -> Record:
        """Carry out an order whose ``verdict`` is ok: change ``scenario``
        and return the record that undoes the change."""

    def apply(self, scenario: ScenarioT, order: Mapping[str, Any]) -> Record:
        """Check ``order``; refuse it with :class:`RefusedOrder` naming the
        reasons, or carry it out and return its :class:`Record`."""
        verdict = self.check(scenario, order)
        if not verdict.ok:
            raise RefusedOrder(f"{self.name} refuses the order: " + " ".join(verdict.reasons))
        return self.effect(scenario, order, verdict)

    # -- turn hooks (defaults: one phase, no effects, nothing refused) --

    def side_order(self, scenario: ScenarioT) -> list[str]:
        """The sides in the order they move (default: the scenario's sides in file order)."""
        return [s.id for s in typing.cast(Any, scenario).sides]

    def action_of(self, order: Mapping[str, Any]) -> str:
        """The action ``order`` takes (``moved``, ``railed``...), counted by
        :attr:`once_per_turn`."""
        return "moved"

    def order_phases(self, order: Mapping[str, Any]) -> tuple[str, ...] | None:
        """The phases ``order`` may be given in; ``None``: any phase."""
        return None

    def turn_use(self, scenario: ScenarioT, order: Mapping[str, Any], verdict: Verdict) -> Mapping[str, int]:
        """What a carried-out order spent this turn, by key (added to the turn
        state's ``used``, which the system's check may read)."""
        return {}

    def round_use(self, key: str) -> bool:
        """Whether the ``turn.used`` key ``key`` is kept when the move passes
        to the next side of the round (a capacity pool shared across the
        round); every key is cleared when the round ends."""
        return False

    def end_phase_refusal(self, scenario: ScenarioT, turn: TurnView) -> str | None:
        """Why the phase may not end now (one sentence), or ``None``."""
        return None

    def end_phase_effects(self, scenario: ScenarioT, turn: TurnView) -> Sequence[EffectTuple]:
        """Carry out what happens at the end of ``turn``'s phase; each
        effect's record undoes it."""
        return ()

    def outcome(self, scenario: ScenarioT) -> str | None:
        """How the game ended (a side's victory, one sentence), or ``None`` while it goes on."""
        return None

    def uses_post_time(self, order: Mapping[str, Any]) -> bool:
        """Whether ``order``'s ``time`` is an input of the rules (kept in the
        order), not only the journal entry's stamp."""
        return False

    def setup_problems(self, scenario: ScenarioT) -> list[str]:
        """What is wrong with the scenario's set-up before play, one sentence each."""
        return []

    def roll_dice(self, scenario: ScenarioT, order: Mapping[str, Any],
                  roll: Callable[..., int] | None) -> tuple[str, Mapping[str, Any]] | None:
        """The dice ``order`` needs: ``("typed", order)`` when it carries
        the dice the game master typed, ``("rolled", filled)`` when the rules
        rolled them through ``roll(sides, purpose, key, index)`` (the
        verifiable dice of ``engine/turns/dice.py``; ``None``: no seed is
        committed) and ``filled`` is the order carrying them; ``None`` when
        it needs no dice (or they cannot be rolled)."""
        return None

    def order_author(self, scenario: ScenarioT, order: Mapping[str, Any]) -> str | None:
        """The side whose choice ``order`` is when the rules give it to a side
        that may not be the one to move (a defender's retreat); ``None``: the
        side to move gives it."""
        return None

    def pending_choices(self, scenario: ScenarioT) -> Sequence[tuple[str, str, Mapping[str, Any]]]:
        """The choices waiting for a side's answer, each ``(side, what, the
        rules' default order)``."""
        return ()

    def order_text(self, scenario: ScenarioT, order: Mapping[str, Any]) -> str | None:
        """``order`` in words, as the journal names it ("US-13 buys 1
        factor"); ``None``: the turn engine's plain words for its keys."""
        return None

    def result_text(self, scenario: ScenarioT, order: Mapping[str, Any], verdict: Mapping[str, Any],
                    record: Mapping[str, Any]) -> str:
        """What a carried-out ``order`` did, in words, from its verdict's and
        record's data as the journal keeps them (damage, losses, path and
        cost, points); empty when the verdict's reasons say it already."""
        return ""

    def to_data(self) -> dict[str, Any]:
        """What the system is, as data (for ``adjutant info`` and tests)."""
        return {"name": self.name, "title": self.title, "map_kinds": sorted(self.map_kinds),
                "options": option_help(self.Options), "order_keys": list(self.order_keys), "doc": self.doc}

    def __repr__(self) -> str:
        return f"<rules system {self.name}>"


__all__ = [
    "BUILTIN_MODULES", "DEFAULT_ONCE", "MAP_KINDS", "SELECTS_RULES", "AtLeast", "AtMost", "EffectTuple", "MapKind",
    "NonEmpty", "OptionError", "PlainVerdict", "Reader", "Record", "RefusedOrder", "RulesSystem", "TurnView",
    "UnitMove", "UnitsMoved", "Verdict", "cached_options", "for_map_kind", "get", "names", "option_help",
    "read_options", "register", "selects_rules", "systems", "unregister",
]
