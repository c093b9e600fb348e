"""Edit cost stays flat as the undo history grows, with the History dock
shown (issue 22, "History"): 6,000 one-cell paints in an editor window whose
History dock is raised, each timed in CPU time (``time.process_time``, so
other programs on the machine do not count); the median of the last 500
edits is within 1.5x of the first 500's.  The ratio, not an absolute time,
is asserted.  The measurement is ``bench/history.py``'s; with Qt's plain
``QUndoView`` (a model reset per edit) the ratio grew with the history.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from app.gui.docks.history import HistoryView
from bench.history import BLOCK, TARGET_RATIO, make_window, ratio, time_edits

pytestmark = pytest.mark.gui
EDITS = 6000


def test_edit_cost_at_history_6000_is_within_1_5x_of_history_0(qtbot: Any, tmp_path: Path) -> None:
    w = make_window(tmp_path / "state", dock=True)
    qtbot.addWidget(w)
    assert isinstance(w.history, HistoryView) and w.history.isVisible()
    cpu, _wall = time_edits(w, EDITS)
    assert w.document.undo_stack.count() == EDITS
    assert w.history.model().rowCount() == EDITS + 1  # the dock followed every edit
    assert w.history.currentIndex().row() == EDITS
    r = ratio(cpu)
    print(f"\nedit cost, last {BLOCK} / first {BLOCK} (CPU median): {r:.2f}")
    assert r <= TARGET_RATIO, f"an edit at history {EDITS} costs {r:.2f}x one at history 0"
    w.ask_unsaved = lambda: "discard"  # type: ignore[method-assign]
    w.close()
