"""The History dock's list (``app/gui/docks/history.py``) shows what Qt's
``QUndoView`` showed — the empty row, one row per command, the current state
selected — while following the stack incrementally; and choosing a row moves
the stack there.  A random run of pushes, merges, undos, redos, pushes after
undo, macros and clears is compared row by row with a ``QUndoView`` on the
same stack after every step."""

from __future__ import annotations

import random
from typing import Any

import pytest
from PySide6.QtGui import QUndoCommand, QUndoStack
from PySide6.QtWidgets import QUndoView

from app.gui.docks.history import HistoryView

pytestmark = pytest.mark.gui


class Step(QUndoCommand):
    """A command that records nothing; ``merge`` ones merge into the one
    before (as a brush stroke's dabs do), changing its text."""

    def __init__(self, text: str, merge: bool = False) -> None:
        super().__init__(text)
        self.merge = merge

    def id(self) -> int:
        return 7 if self.merge else -1

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not isinstance(other, Step) or not other.merge:
            return False
        self.setText(self.text() + "+")
        return True


def rows(view: Any) -> list[str]:
    m = view.model()
    return [str(m.data(m.index(r, 0))) for r in range(m.rowCount())]


def selected(view: Any) -> list[int]:
    return [i.row() for i in view.selectionModel().selectedIndexes()]


def test_the_history_list_matches_qundoview_through_random_edits(qtbot: Any) -> None:
    stack = QUndoStack()
    ours = HistoryView(stack)
    ours.setEmptyLabel("<original>")
    theirs = QUndoView(stack)
    theirs.setEmptyLabel("<original>")
    qtbot.addWidget(ours)
    qtbot.addWidget(theirs)
    ours.show()
    rng = random.Random(3)
    n = 0
    for _ in range(600):
        op = rng.random()
        if op < 0.35:
            n += 1
            stack.push(Step(f"Edit {n}"))
        elif op < 0.5:
            n += 1
            stack.push(Step(f"Stroke {n}", merge=True))
        elif op < 0.7:
            for _ in range(rng.randint(1, 4)):
                stack.undo()
        elif op < 0.85:
            stack.redo()
        elif op < 0.93:
            stack.beginMacro(f"Macro {n}")
            stack.push(Step("inside"))
            stack.push(Step("inside too"))
            stack.endMacro()
        elif op < 0.97:
            stack.setIndex(rng.randint(0, stack.count()))
        else:
            stack.clear()
        assert rows(ours) == rows(theirs)
        assert selected(ours) == [stack.index()]
    assert rows(ours)[0] == "<original>" and len(rows(ours)) == stack.count() + 1


def test_choosing_a_row_undoes_or_redoes_to_it(qtbot: Any) -> None:
    stack = QUndoStack()
    view = HistoryView(stack)
    qtbot.addWidget(view)
    view.show()
    for i in range(5):
        stack.push(Step(f"Edit {i}"))
    view.setCurrentIndex(view.model().index(2, 0))
    assert stack.index() == 2 and selected(view) == [2]
    view.setCurrentIndex(view.model().index(0, 0))
    assert stack.index() == 0
    view.setCurrentIndex(view.model().index(5, 0))
    assert stack.index() == 5
    assert rows(view) == ["<empty>"] + [f"Edit {i}" for i in range(5)]


def test_an_undo_limit_keeps_the_rows_in_step(qtbot: Any) -> None:
    stack = QUndoStack()
    stack.setUndoLimit(3)
    view = HistoryView(stack)
    qtbot.addWidget(view)
    for i in range(6):
        stack.push(Step(f"Edit {i}"))
    assert rows(view) == ["<empty>", "Edit 3", "Edit 4", "Edit 5"]
    assert selected(view) == [3]


def test_the_stack_going_first_is_harmless(qtbot: Any) -> None:
    stack = QUndoStack()
    view = HistoryView(stack)
    qtbot.addWidget(view)
    stack.push(Step("Edit"))
    del stack  # the stack's destructor emits indexChanged once more
    import gc

    gc.collect()
    view.repaint()
