"""The History dock: the undo stack as a list, whose cost per edit does not
grow with the history.

Qt's :class:`QUndoView` shows the same list, but its model resets itself on
every change of the stack (``beginResetModel``/``endResetModel`` on each
``indexChanged``), and the list view then lays out and measures every row
again, so each edit costs time proportional to the history length
(``docs/reliability.md`` has the figures).  :class:`HistoryModel`
instead follows the stack incrementally: a push inserts one row, a push
after undos removes the rows it dropped, an undo or redo only repaints the
rows around the current one.  :class:`HistoryView` is a headerless
one-column table with fixed row heights (so a new row is placed without
laying out the others) that shows the same things as :class:`QUndoView` — an "empty" first row
(the document before any edit), one row per command with its text, the
current state selected — and, as there, clicking a row undoes or redoes to
it.  ``bench/history.py`` measures the edit cost against history length.
"""

from __future__ import annotations

import weakref

from PySide6.QtCore import QItemSelectionModel, QModelIndex, QObject, QPersistentModelIndex, QStringListModel, Qt
from PySide6.QtGui import QShowEvent, QUndoStack
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView, QWidget
from shiboken6 import isValid

_Index = QModelIndex | QPersistentModelIndex


class HistoryModel(QStringListModel):
    """Row 0: :attr:`empty_label` (before any command); row ``i``: the text
    of the stack's command ``i - 1``.  Kept in step with ``stack`` through
    its ``indexChanged`` signal, which Qt emits after every push, merge,
    undo, redo, clear and macro end.

    The texts are held in Qt's own string list model rather than read from
    the stack by a Python ``rowCount``/``data``: the list view's layout asks
    for every row's index on each insertion, and that must stay a C++ call
    for the edit cost not to grow with the history."""

    def __init__(self, stack: QUndoStack, parent: QObject | None = None) -> None:
        super().__init__(parent)
        # a weak reference: holding the stack here would let this model's own
        # destruction delete it, whose destructor then signals this model
        self._stack = weakref.ref(stack)
        self.empty_label = "<empty>"
        self._count = stack.count()
        self._index = stack.index()
        self.setStringList([self.empty_label] + [stack.text(i) for i in range(self._count)])
        stack.indexChanged.connect(self._sync)

    def flags(self, index: _Index) -> Qt.ItemFlag:
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable if index.isValid() else Qt.ItemFlag.NoItemFlags

    def set_empty_label(self, label: str) -> None:
        self.empty_label = label
        self.setData(self.index(0), label)

    @property
    def stack(self) -> QUndoStack | None:
        """The undo stack shown, ``None`` once it is gone."""
        stack = self._stack()
        return stack if stack is not None and isValid(stack) else None

    def alive(self) -> bool:
        """Whether the stack still exists (its destructor emits
        ``indexChanged`` once more)."""
        return self.stack is not None

    # -- following the stack -----------------------------------------------
    def _sync(self, *_: object) -> None:
        """Bring the rows in step with the stack after a change.  Commands
        before ``min(old index, new index) - 1`` cannot have changed (a push
        only drops commands after the current one, a merge changes only the
        command before it), so only the rows from there on are touched."""
        stack = self.stack
        if stack is None:
            return
        count, index = stack.count(), stack.index()
        old_count, old_index = self._count, self._index
        self._count, self._index = count, index
        if stack.undoLimit() > 0:
            # an undo limit drops commands at the front, moving every row; the
            # limit bounds the rows, so rebuilding them stays cheap
            self.setStringList([self.empty_label] + [stack.text(i) for i in range(count)])
            return
        if count > old_count:
            self.insertRows(old_count + 1, count - old_count)
            for i in range(old_count, count):
                self.setData(self.index(i + 1), stack.text(i))
        elif count < old_count:
            self.removeRows(count + 1, old_count - count)
        for i in range(max(0, min(old_index, index) - 1), min(old_count, count)):
            self.setData(self.index(i + 1), stack.text(i))  # emits dataChanged only if the text changed


class HistoryView(QTableView):
    """The undo history list (see the module docstring): the current state
    is the selected row; choosing another row moves the stack there.

    A one-column table without headers or grid rather than a
    :class:`QListView`: a list view lays out every row again (asking the
    model for each row's index) whenever one is inserted, still O(history)
    per edit even in C++; a table's rows are header sections of one fixed
    height, so a new row costs the same at any history length."""

    def __init__(self, stack: QUndoStack, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.history_model = HistoryModel(stack, self)
        self.setModel(self.history_model)
        self.horizontalHeader().hide()
        self.horizontalHeader().setStretchLastSection(True)
        rows = self.verticalHeader()
        rows.hide()
        rows.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)  # rows placed without measuring each one
        rows.setMinimumSectionSize(1)
        rows.setDefaultSectionSize(self.fontMetrics().height())  # QUndoView's row height
        self.setShowGrid(False)
        self.setWordWrap(False)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self._following = False
        self.selectionModel().currentRowChanged.connect(self._row_chosen)
        stack.indexChanged.connect(self._show_current)
        self._show_current()

    def setEmptyLabel(self, label: str) -> None:
        """The text of the first row (the document before any command)."""
        self.history_model.set_empty_label(label)

    def emptyLabel(self) -> str:
        return self.history_model.empty_label

    def _show_current(self, *_: object) -> None:
        """Select the row of the stack's current index and keep it in view
        (scrolling waits until the view is shown: see :meth:`showEvent`)."""
        stack = self.history_model.stack
        if stack is None:
            return
        current = self.history_model.index(stack.index())
        self._following = True
        try:
            self.selectionModel().setCurrentIndex(current, QItemSelectionModel.SelectionFlag.ClearAndSelect)
        finally:
            self._following = False
        if self.isVisible():
            self.scrollTo(current)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self.scrollTo(self.currentIndex())

    def _row_chosen(self, current: QModelIndex, _previous: QModelIndex) -> None:
        stack = self.history_model.stack
        if self._following or stack is None or not current.isValid() or current.row() == stack.index():
            return
        stack.setIndex(current.row())


__all__ = ["HistoryModel", "HistoryView"]
