"""Rules systems as plugins (``engine/rules/registry.py``): found through the
entry point group ``adjutant.rules``, listed without being imported, imported
when used; a plugin that raises on import is listed as broken with its
reason and stops nothing.  The conformance kit (``engine/conformance.py``)
passes every built-in grid system on its sample and rejects a system that
breaks the contract."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

from app.cli import main
from engine.conformance import check_system
from engine.io import load_any
from engine.model import ModelError
from engine.rules import registry

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def fake_plugins(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    eps = [EntryPoint("fake_step", "fake_rules_plugin:Step", registry.PLUGIN_GROUP),
           EntryPoint("fake_broken", "broken_rules_plugin:System", registry.PLUGIN_GROUP),
           EntryPoint("fake_empty", "json", registry.PLUGIN_GROUP),
           EntryPoint("gitm", "fake_rules_plugin:Step", registry.PLUGIN_GROUP)]
    monkeypatch.setattr(registry, "_entry_points", lambda: eps)
    sys.modules.pop("fake_rules_plugin", None)
    yield
    for name in ("fake_step", "fake_broken", "fake_empty", "fake_sloppy"):
        registry.unregister(name)
    registry._PLUGIN_STATE.pop("gitm", None)


def test_listed_without_importing_then_imported_when_used(fake_plugins: None) -> None:
    listed = {p.name: p for p in registry.plugins()}
    assert listed["fake_step"].state == "not loaded" and "fake_rules_plugin" not in sys.modules
    assert registry.systems(load_plugins=False) and "fake_rules_plugin" not in sys.modules
    step = registry.get("fake_step")
    assert step.name == "fake_step" and "fake_rules_plugin" in sys.modules
    assert {p.name: p.state for p in registry.plugins()}["fake_step"] == "loaded"
    assert not registry.is_builtin(step)


def test_a_broken_plugin_is_listed_with_its_reason_and_stops_nothing(fake_plugins: None,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    names = [s.name for s in registry.systems()]  # loads every plugin: the broken ones are left out
    assert "fake_step" in names and "fake_broken" not in names and "acw" in names
    states = {p.name: (p.state, p.reason) for p in registry.plugins()}
    assert states["fake_broken"] == ("broken", "RuntimeError: this plugin is broken on purpose")
    assert states["fake_empty"] == ("broken", "json registers no rules system named 'fake_empty'")
    assert states["gitm"] == ("broken", "the name 'gitm' is a built-in system's")
    assert registry.get("gitm").title.startswith("GITM")  # the built-in stands
    with pytest.raises(ModelError, match="the rules system 'fake_broken' \\(a plugin\\) is broken: RuntimeError"):
        registry.get("fake_broken")
    assert main(["rules"]) == 0
    out = capsys.readouterr().out
    assert "fake_broken: plugin unknown package unknown version, BROKEN: RuntimeError: this plugin is broken" in out
    assert main(["rules", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {p["name"]: p["state"] for p in data["plugins"]}["fake_broken"] == "broken"
    assert main(["validate", str(ROOT / "maps" / "movement_acw.json")]) == 0


@pytest.mark.parametrize(("system", "sample", "golden"), [
    ("movement", "maps/movement_features.json", "tests/golden/movement.json"),
    ("movement", "maps/movement_moscow.json", None),
    ("acw", "maps/acw_short_campaign.json", None),
    ("gitm", "maps/gitm_examples.json", None),
    ("cwol_rail", "maps/cwol_mobile_columbus.json", None),
])
def test_the_conformance_kit_passes_the_built_in_systems(system: str, sample: str, golden: str | None,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    data = json.loads((ROOT / golden).read_text(encoding="utf-8")) if golden else None
    problems = check_system(system, scenario=load_any(ROOT / sample), golden=data, load=load_any,
                            random_orders=25, game_steps=20)
    assert not problems, "\n".join(problems)


def test_the_conformance_kit_rejects_a_system_that_breaks_the_contract(fake_plugins: None) -> None:
    import fake_rules_plugin

    registry.register(fake_rules_plugin.Sloppy)
    problems = check_system("fake_sloppy", scenario=load_any(ROOT / "maps" / "movement_features.json"),
                            random_orders=10, game_steps=5)
    assert any("check changed the scenario" in p for p in problems)
    assert not check_system("fake_step", scenario=load_any(ROOT / "maps" / "movement_features.json"),
                            random_orders=20, game_steps=10)
