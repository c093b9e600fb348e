"""The generic option reader and the registry (``engine/rules/base.py``,
``engine/rules/registry.py``): a table of annotations with good and bad
values, the messages, and the registry's rules."""

from __future__ import annotations

import enum
import subprocess
import sys
from dataclasses import dataclass, field, fields
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any, Literal

import pytest

from engine.model import ModelError
from engine.rules import registry
from engine.rules.base import (
    AtLeast,
    AtMost,
    NonEmpty,
    OptionError,
    PlainVerdict,
    Reader,
    RulesSystem,
    Verdict,
    option_help,
    read_options,
    register,
    unregister,
)


class Colour(enum.Enum):
    RED = "red"
    BLUE = "blue"


@dataclass(frozen=True)
class Inner:
    depth: int = 1
    name: str = "x"


def _even(value: Any, label: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value % 2:
        raise OptionError(f"{label} must be an even number, got {value!r}")
    return value


@dataclass(frozen=True)
class Everything:
    flag: bool = False
    count: int = 3
    ratio: float = 0.5
    share: Fraction = Fraction(1, 2)
    text: str = "t"
    mode: Literal["a", "b"] = "a"
    level: Literal[1, 2, 3] = 1
    colour: Colour = Colour.RED
    names: tuple[str, ...] = ()
    pair: tuple[int, str] = (0, "")
    tags: frozenset[str] = frozenset()
    weights: dict[str, int] = field(default_factory=dict)
    maybe: int | None = None
    inner: Inner = Inner()
    positive: Annotated[int, AtLeast(1)] = 1
    percent: Annotated[int, AtLeast(0), AtMost(100)] = 50
    label: Annotated[str, NonEmpty()] = "l"
    even: Annotated[int, Reader(_even, "an even number")] = 2
    start: str | None = field(default=None, metadata={"key": "from"})


W = "ruleset.options.t"

GOOD: list[tuple[str, Any, Any]] = [
    ("flag", True, True),
    ("count", 0, 0),
    ("count", -4, -4),
    ("ratio", 2, 2.0),
    ("ratio", 0.25, 0.25),
    ("share", "3/2", Fraction(3, 2)),
    ("share", 2, Fraction(2)),
    ("share", 1.5, Fraction(3, 2)),
    ("share", 0.1, Fraction(1, 10)),
    ("text", "", ""),
    ("mode", "b", "b"),
    ("level", 3, 3),
    ("colour", "blue", Colour.BLUE),
    ("names", ["a", "b"], ("a", "b")),
    ("names", [], ()),
    ("pair", [4, "x"], (4, "x")),
    ("tags", ["p", "q", "p"], frozenset({"p", "q"})),
    ("weights", {"a": 1}, {"a": 1}),
    ("maybe", None, None),
    ("maybe", 7, 7),
    ("inner", {"depth": 4}, Inner(4, "x")),
    ("positive", 9, 9),
    ("percent", 100, 100),
    ("label", "x", "x"),
    ("even", 4, 4),
]

BAD: list[tuple[str, Any, str]] = [
    ("flag", 1, f"{W}.flag must be true or false, got 1"),
    ("flag", "yes", f"{W}.flag must be true or false, got 'yes'"),
    ("count", True, f"{W}.count must be a whole number, got True"),
    ("count", 2.0, f"{W}.count must be a whole number, got 2.0"),
    ("count", "3", f"{W}.count must be a whole number, got '3'"),
    ("ratio", False, f"{W}.ratio must be a number, got False"),
    ("share", "x", f'{W}.share must be a number like 2 or "3/2", got \'x\''),
    ("share", "1/0", f'{W}.share must be a number like 2 or "3/2", got \'1/0\''),
    ("share", True, f'{W}.share must be a number like 2 or "3/2", got True'),
    ("text", 3, f"{W}.text must be a text, got 3"),
    ("mode", "c", f"{W}.mode must be 'a' or 'b', got 'c'"),
    ("level", 4, f"{W}.level must be 1, 2 or 3, got 4"),
    ("level", True, f"{W}.level must be 1, 2 or 3, got True"),
    ("level", "1", f"{W}.level must be 1, 2 or 3, got '1'"),
    ("colour", "green", f"{W}.colour must be 'red' or 'blue', got 'green'"),
    ("names", "ab", f"{W}.names must be a list of texts, got 'ab'"),
    ("names", ["a", 2], f"{W}.names[1] must be a text, got 2"),
    ("pair", [1], f"{W}.pair must be a list of 2: a whole number, a text, got [1]"),
    ("pair", ["1", "x"], f"{W}.pair[0] must be a whole number, got '1'"),
    ("tags", [1], f"{W}.tags[0] must be a text, got 1"),
    ("weights", {"a": "1"}, f"{W}.weights.a must be a whole number, got '1'"),
    ("weights", [1], f"{W}.weights must be an object of whole numbers, got [1]"),
    ("maybe", "7", f"{W}.maybe must be a whole number, got '7'"),
    ("inner", {"depth": "deep"}, f"{W}.inner.depth must be a whole number, got 'deep'"),
    ("inner", {"width": 1}, f"unknown option {W}.inner.width (known: depth, name)"),
    ("inner", 3, f"{W}.inner must be an object of option names and values, got 3"),
    ("positive", 0, f"{W}.positive must be a whole number of 1 or more, got 0"),
    ("positive", True, f"{W}.positive must be a whole number of 1 or more, got True"),
    ("percent", 101, f"{W}.percent must be a whole number of 0 or more of 100 or less, got 101"),
    ("percent", -1, f"{W}.percent must be a whole number of 0 or more of 100 or less, got -1"),
    ("label", "", f"{W}.label must be a non-empty text, got ''"),
    ("even", 3, f"{W}.even must be an even number, got 3"),
    ("from", 3, f"{W}.from must be a text, got 3"),
]


@pytest.mark.parametrize(("key", "raw", "want"), GOOD, ids=[f"{k}={r!r}" for k, r, _ in GOOD])
def test_each_annotation_reads_a_good_value(key: str, raw: Any, want: Any) -> None:
    got = read_options(Everything, {key: raw}, W)
    name = "start" if key == "from" else key
    assert getattr(got, name) == want and type(getattr(got, name)) is type(want)
    assert all(getattr(got, f.name) == getattr(Everything(), f.name) for f in fields(Everything) if f.name != name)


@pytest.mark.parametrize(("key", "raw", "message"), BAD, ids=[f"{k}={r!r}" for k, r, _ in BAD])
def test_each_annotation_refuses_a_bad_value_naming_key_value_and_what_is_allowed(key: str, raw: Any,
                                                                                  message: str) -> None:
    with pytest.raises(OptionError) as err:
        read_options(Everything, {key: raw}, W)
    assert str(err.value) == message
    assert isinstance(err.value, ModelError) and isinstance(err.value, ValueError)


def test_missing_keys_keep_the_defaults_and_none_means_all_defaults() -> None:
    assert read_options(Everything, {}, W) == Everything() == read_options(Everything, None, W)
    assert read_options(Everything, {"from": "here"}, W).start == "here"


def test_unknown_keys_are_refused_with_the_known_ones() -> None:
    with pytest.raises(OptionError) as err:
        read_options(Everything, {"colur": "red"}, W)
    assert str(err.value) == ("unknown option ruleset.options.t.colur (known: colour, count, even, flag, from, inner, "
                              "label, level, maybe, mode, names, pair, percent, positive, ratio, share, tags, text, "
                              "weights)")


def test_a_mapping_is_needed() -> None:
    with pytest.raises(OptionError, match=r"^ruleset\.options\.t must be an object of option names and values, "
                                          r"got \[1\]$"):
        read_options(Everything, [1], W)  # type: ignore[arg-type]


def test_required_fields_key_style_and_error_class() -> None:
    @dataclass(frozen=True)
    class Order:
        unit: str
        count: Annotated[int, AtLeast(1)] = 1

    class MyError(ModelError):
        pass

    with pytest.raises(OptionError, match=r"^my order\.unit is missing \(a text\)$"):
        read_options(Order, {}, "my order")
    with pytest.raises(MyError, match=r"^unknown my option 'size' \(known: count, unit\)$"):
        read_options(Order, {"unit": "u", "size": 2}, "x", key_style="my option '{key}'", error=MyError)
    with pytest.raises(MyError, match=r"^my option 'count' must be a whole number of 1 or more, got 0$"):
        read_options(Order, {"unit": "u", "count": 0}, "x", key_style="my option '{key}'", error=MyError)
    with pytest.raises(TypeError, match="needs a dataclass"):
        read_options(dict, {}, "x")  # type: ignore[type-var]


def test_option_help_uses_the_words_of_the_messages() -> None:
    h = option_help(Everything)
    assert h["positive"] == "a whole number of 1 or more"
    assert h["mode"] == "'a' or 'b'"
    assert h["names"] == "a list of texts"
    assert h["maybe"] == "a whole number or null"
    assert h["even"] == "an even number"
    assert "from" in h and "start" not in h


def test_the_existing_systems_keep_their_messages() -> None:
    """Messages tests and users rely on, now from the generic reader."""
    from engine.rules.acw import options_from_dict
    from engine.rules.cwol_rail import RailOptions
    from engine.rules.gitm import GitmOptions

    with pytest.raises(OptionError, match=r"^unknown acw option 'bogus' \(known: "):
        options_from_dict({"bogus": 1})
    with pytest.raises(OptionError, match=r"^acw option 'rounding' must be 'half_up' or 'half_even', got 'up'$"):
        options_from_dict({"rounding": "up"})
    with pytest.raises(OptionError, match=r"^acw option 'woods_multiplier' may not be negative, got -1$"):
        options_from_dict({"woods_multiplier": -1})
    with pytest.raises(OptionError, match=r"^acw options: retreat_min \(3\) exceeds retreat_max \(2\)$"):
        options_from_dict({"retreat_min": 3})
    assert options_from_dict({"result_places": "text", "fort_multiplier": "5/4"}).fort_multiplier == Fraction(5, 4)
    assert read_options(RailOptions, {"max_move": 10}, "w").max_move == 10
    assert GitmOptions().max_climb == 1


# ---------------------------------------------------------------------------
# the registry

@dataclass(frozen=True)
class NoOptions:
    pass


@dataclass(frozen=True)
class NoOrder:
    unit: str


class Dummy(RulesSystem[Any, NoOptions]):
    name = "test_dummy"
    title = "Dummy"
    map_kinds = frozenset({"hex"})
    Options = NoOptions
    Order = NoOrder

    def check(self, scenario: Any, order: Any) -> Verdict:
        return PlainVerdict(False, ("Dummies never move.",))

    def effect(self, scenario: Any, order: Any, verdict: Verdict) -> Any:
        raise AssertionError("never reached: every order is refused")


def test_register_get_for_map_kind_unregister() -> None:
    register(Dummy)
    try:
        d = registry.get("test_dummy")
        assert isinstance(d, Dummy) and d in registry.for_map_kind("hex") and d not in registry.for_map_kind("square")
        assert registry.names() == sorted(registry.names())
        assert register(Dummy) is Dummy  # the same class again: harmless
        v = d.check(None, {"unit": "u"})
        assert (v.ok, v.reasons, v.to_data()) == (False, ("Dummies never move.",),
                                                  {"ok": False, "reasons": ["Dummies never move."]})
        with pytest.raises(ModelError, match=r"^test_dummy refuses the order: Dummies never move\.$"):
            d.apply(None, {"unit": "u"})
    finally:
        unregister("test_dummy")
    with pytest.raises(ModelError, match=r"^no rules system 'test_dummy' \(known: acw, cwol_rail, .*railroads\)$"):
        registry.get("test_dummy")


def test_register_refuses_what_is_not_a_system() -> None:
    with pytest.raises(ValueError, match="'acw' is taken by Acw"):
        register(type("Acw2", (Dummy,), {"name": "acw"}))
    with pytest.raises(TypeError, match="map_kinds must be some of hex, square, territory"):
        register(type("Flat", (Dummy,), {"map_kinds": frozenset({"flat"})}))
    with pytest.raises(TypeError, match="Options must be a dataclass"):
        register(type("NoDc", (Dummy,), {"Options": dict}))


def test_every_built_in_system_is_found_and_each_map_kind_has_its_own() -> None:
    assert {"acw", "cwol_rail", "gitm", "rail_options", "railroads"} <= set(registry.names())
    assert [s.name for s in registry.for_map_kind("territory") if registry.is_builtin(s)] == ["rail_options",
                                                                                             "railroads"]
    assert {s.name for s in registry.for_map_kind("square") if registry.is_builtin(s)} == {"cwol_rail", "gitm", "movement"}
    for s in registry.systems():
        data = s.to_data()
        assert data["name"] == s.name and data["order_keys"] and set(data["map_kinds"]) <= registry.MAP_KINDS


def test_importing_the_interface_loads_no_system() -> None:
    """The registry imports the built-in systems only when first asked."""
    code = ("import sys, engine.rules.base, engine.rules.registry as r; "
            "print(sorted(m for m in sys.modules if m.startswith('engine.rules.') and m.count('.') == 2)); "
            "r.names(); print('engine.rules.railroads' in sys.modules)")
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=root).stdout.split("\n")
    assert out[0] == "['engine.rules.base', 'engine.rules.registry']" and out[1] == "True"


@dataclass(frozen=True)
class CountOptions:
    flag: bool = False
    n: int = 1


class Counting(RulesSystem[Any, CountOptions]):
    """Counts how often its options are read."""

    name = "test_counting"
    title = "Counting"
    map_kinds = frozenset({"square"})
    Options = CountOptions
    Order = CountOptions
    reads = 0

    def read_options(self, raw: Any) -> CountOptions:
        type(self).reads += 1
        return super().read_options(raw)

    def check(self, scenario: Any, order: Any) -> Verdict:
        return PlainVerdict(True)

    def effect(self, scenario: Any, order: Any, verdict: Verdict) -> Any:
        raise AssertionError("not used")


def test_options_are_read_once_per_value_in_the_base() -> None:
    class Ruleset:
        def __init__(self, options: dict[str, Any]) -> None:
            self.options = options

    class Scen:
        def __init__(self, options: dict[str, Any]) -> None:
            self.ruleset = Ruleset(options)

    s = Scen({"test_counting": {"n": 2}})
    a, b = Counting().options(s), Counting().options(Scen({"test_counting": {"n": 2}}))
    assert a is b and a.n == 2 and Counting.reads == 1
    s.ruleset.options["test_counting"]["n"] = 3  # edited in place: read again
    assert Counting().options(s).n == 3 and Counting.reads == 2
    s.ruleset.options["test_counting"] = {"n": True}  # equal to 1 in Python, refused as a number
    with pytest.raises(OptionError, match="n must be a whole number"):
        Counting().options(s)
    assert Counting().options(Scen({})) == CountOptions()


def test_the_turn_hooks_have_declared_defaults() -> None:
    c = Counting()
    assert c.phases == ("orders",) and c.once_per_turn == {"moved", "railed", "marched"}
    assert c.action_of({}) == "moved" and c.order_phases({}) is None and c.turn_use(None, {}, PlainVerdict(True)) == {}
    assert c.end_phase_refusal(None, None) is None and list(c.end_phase_effects(None, None)) == []  # type: ignore[arg-type]
    assert c.outcome(None) is None and c.uses_post_time({"time": "1"}) is False and c.setup_problems(None) == []
