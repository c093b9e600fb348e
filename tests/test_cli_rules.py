"""``adjutant rules``: the systems as the registry lists them."""

from __future__ import annotations

import json

import pytest

from app.cli import main


def test_rules_lists_every_built_in_system(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "--json"]) == 0
    names = [s["name"] for s in json.loads(capsys.readouterr().out)["systems"]]
    assert {"acw", "cwol_rail", "gitm", "rail_options", "railroads"} <= set(names) and names == sorted(names)


def test_rules_names_one_system_with_its_options_and_order_keys(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "gitm", "--json"]) == 0
    (gitm,) = json.loads(capsys.readouterr().out)["systems"]
    assert gitm["map_kinds"] == ["square"] and gitm["order_keys"] == ["unit", "to", "via"]
    assert gitm["options"]["diagonal_units"] == "'flanks' or 'adjacent'"
    assert main(["rules", "gitm"]) == 0
    assert capsys.readouterr().out.splitlines()[:2] == [
        "gitm: GITM straight-line tactical movement (square maps; docs/rules/gitm.md)", "  order keys: unit, to, via"]


def test_an_unknown_system_is_an_error_naming_the_known_ones(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "chess"]) == 1
    err = capsys.readouterr().err
    assert "no rules system 'chess' (known: acw, cwol_rail, " in err and "Traceback" not in err
