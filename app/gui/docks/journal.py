"""The Journal dock: the game's turns and entries, replay and branches
(``docs/editor.md``, "Turns and the journal").

A tree lists each turn of the game (``Turn 2``) with its journal entries
beneath (``5. US-14 to 0410: carried out``, the verdict's reasons as the
tooltip).  Selecting an entry shows the map as it was just after it
(:meth:`engine.turns.game.Game.at`), read-only: the window swaps the canvas
to that copy and refuses edits until *Latest* (or the last entry) brings the
live map back.  Back/forward (buttons, Alt+Left / Alt+Right) step through
the entries.  *Branch from here* opens the position at the selected entry as
a new untitled scenario whose journal is marked as a branch of this one
(:meth:`Game.branch`), for what-ifs.

The dock only reads the game through :class:`app.gui.turns.TurnController`;
showing a replay and opening a branch are the window's (``show`` and
``branch`` callbacks), so both editor windows use the same dock.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QModelIndex, QObject, QPersistentModelIndex, QRect, QSize, Qt, QTimer
from PySide6.QtWidgets import (
    QHBoxLayout,
    QPushButton,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

if TYPE_CHECKING:
    from ..turns import TurnController

ROLE = Qt.ItemDataRole.UserRole
"""An item's journal position (1 = the first entry; 0 = before any)."""


def entry_text(e: Any, position: int) -> str:
    """One entry as the list shows it (the CLI's ``adjutant journal`` words)."""
    if e.kind == "order":
        return f"{position}. {e.summary}: carried out"
    if e.kind == "refused":
        return f"{position}. {e.summary}: REFUSED"
    return f"{position}. {e.summary}"


class WrappedRows(QStyledItemDelegate):
    """Each row of ``tree`` as tall as its text wrapped to the room the
    row has (the viewport's width less the row's indentation), so a long
    entry reads whole in a narrow dock; the tree lays its rows out again
    when its width changes."""

    def __init__(self, tree: QTreeWidget) -> None:
        super().__init__(tree)
        self.tree = tree
        self._relayout = QTimer(self)
        self._relayout.setSingleShot(True)
        self._relayout.timeout.connect(tree.doItemsLayout)
        self._width = -1
        tree.viewport().installEventFilter(self)

    def room(self, index: QModelIndex | QPersistentModelIndex) -> int:
        depth, parent = 0, index.parent()
        while parent.isValid():
            depth, parent = depth + 1, parent.parent()
        if self.tree.rootIsDecorated():
            depth += 1
        return max(40, self.tree.viewport().width() - depth * self.tree.indentation() - 8)

    def sizeHint(self, option: QStyleOptionViewItem,  # noqa: N802 - Qt's name
                 index: QModelIndex | QPersistentModelIndex) -> QSize:
        base = super().sizeHint(option, index)
        width = self.room(index)
        text = str(index.data(Qt.ItemDataRole.DisplayRole) or "")
        high = option.fontMetrics.boundingRect(QRect(0, 0, width, 100_000), int(Qt.TextFlag.TextWordWrap), text)
        return QSize(width, max(base.height(), high.height() + 4))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if event.type() == QEvent.Type.Resize and self.tree.viewport().width() != self._width:
            self._width = self.tree.viewport().width()
            self._relayout.start(0)
        return False


class JournalPanel(QWidget):
    """The dock's widget (see the module docstring).  ``show(scenario)``
    displays a replayed copy (``None``: the live map again); ``branch(scenario)``
    opens a new untitled window on a branch."""

    def __init__(self, turns: TurnController, show: Callable[[Any, int | None], None],
                 branch: Callable[[Any], None], source: Callable[[], str]) -> None:
        super().__init__()
        self.turns = turns
        self._show = show
        self._branch = branch
        self._source = source
        self.replaying: int | None = None
        """The entry whose position is shown read-only, or ``None`` (live)."""
        self.tree = QTreeWidget()
        self.tree.setObjectName("journalTree")
        self.tree.setHeaderHidden(True)
        self.tree.setColumnCount(1)
        # an entry wraps to the dock's width, so a long order reads whole in a side column
        self.tree.setWordWrap(True)
        self.tree.setTextElideMode(Qt.TextElideMode.ElideNone)
        self.tree.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.tree.header().setStretchLastSection(True)
        self.tree.setItemDelegate(WrappedRows(self.tree))
        self.back = QPushButton("\u25c0 Back")
        self.forward = QPushButton("Forward \u25b6")
        self.latest = QPushButton("Latest")
        self.branch_button = QPushButton("Branch from here")
        self.back.setToolTip("The map before the selected entry (Alt+Left)")
        self.forward.setToolTip("The map after the next entry (Alt+Right)")
        self.latest.setToolTip("Back to the live map, after the last entry (editable)")
        self.branch_button.setToolTip("Open the map at the selected entry as a new untitled scenario for a "
                                      "what-if; its journal is marked as a branch of this one")
        row = QHBoxLayout()
        for b in (self.back, self.forward, self.latest):
            row.addWidget(b)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        lay.addWidget(self.tree)
        lay.addLayout(row)
        lay.addWidget(self.branch_button)
        self.back.clicked.connect(lambda: self.step(-1))
        self.forward.clicked.connect(lambda: self.step(1))
        self.latest.clicked.connect(lambda: self.go(None))
        self.branch_button.clicked.connect(self.branch_here)
        self.tree.currentItemChanged.connect(self._current_changed)
        turns.document.scenarioReplaced.connect(self._replaced)
        turns.changed.connect(self.rebuild)
        self._filling = False
        self._game: Any = None
        self._entries: list[tuple[QTreeWidgetItem, str]] = []  # each listed entry's item and hash
        self._turn_items: dict[int, QTreeWidgetItem] = {}
        self.rebuild()

    def _replaced(self, _scenario: Any) -> None:
        """Another scenario (new, open, recover): the window shows it live."""
        self.replaying = None

    # -- the list ------------------------------------------------------------
    def rebuild(self) -> None:
        """Bring the tree up to the game's journal (after every step): the
        entries added since are appended and those taken back removed, so a
        step costs its own entries, not the journal's; another game (or a
        journal that is not the one shown plus or minus its end) is listed
        anew."""
        self._filling = True
        game = self.turns.game()
        if game is None:
            self.tree.clear()
            self._entries, self._turn_items, self._game = [], {}, None
        else:
            kept = self._kept(game)
            if kept is None:
                self.tree.clear()
                self._entries, self._turn_items, self._game = [], {}, game
                origin = game.branch_of
                if origin is not None:
                    top = QTreeWidgetItem([f"Branch of {origin.source} at entry {origin.entries}"])
                    top.setData(0, ROLE, 0)
                    self.tree.addTopLevelItem(top)
                kept = 0
            while len(self._entries) > kept:
                item, _ = self._entries.pop()
                parent = item.parent()
                if parent is not None:
                    parent.removeChild(item)
                    if parent.childCount() == 0:
                        self.tree.takeTopLevelItem(self.tree.indexOfTopLevelItem(parent))
                        self._turn_items = {t: p for t, p in self._turn_items.items() if p is not parent}
                        if self._turn_items:  # the turn now last is listed open again
                            self._turn_items[next(reversed(self._turn_items))].setExpanded(True)
            for i in range(kept, len(game.journal)):
                e = game.journal[i]
                parent = self._turn_items.get(e.turn)
                if parent is None:
                    if self._turn_items:  # the turns before are listed collapsed
                        self._turn_items[next(reversed(self._turn_items))].setExpanded(False)
                    parent = QTreeWidgetItem([f"Turn {e.turn}"])
                    parent.setData(0, ROLE, i + 1)
                    self.tree.addTopLevelItem(parent)
                    parent.setExpanded(True)
                    self._turn_items[e.turn] = parent
                child = QTreeWidgetItem([entry_text(e, i + 1)])
                child.setData(0, ROLE, i + 1)
                result = game.result_text(e)
                child.setToolTip(0, "\n".join([child.text(0), *e.reasons, *([result] if result else [])]))
                parent.addChild(child)
                self._entries.append((child, e.hash))
        self._filling = False
        if self.replaying is not None and (game is None or self.replaying > len(game.journal)):
            self.go(None)
        self._update_buttons()

    def _kept(self, game: Any) -> int | None:
        """How many listed entries are still the game's first ones (``None``:
        list it anew)."""
        if game is not self._game:
            return None
        n = min(len(self._entries), len(game.journal))
        while n and self._entries[n - 1][1] != game.journal.hash_at(n - 1):
            n -= 1
        return n

    def count(self) -> int:
        game = self.turns.game()
        return len(game.journal) if game is not None else 0

    def entry_item(self, position: int) -> QTreeWidgetItem | None:
        """The tree item of journal entry ``position`` (1-based)."""
        if 1 <= position <= len(self._entries):
            return self._entries[position - 1][0]
        return None

    def _current_changed(self, item: QTreeWidgetItem | None, _prev: Any) -> None:
        if self._filling or item is None:
            return
        self.go(int(item.data(0, ROLE)))

    # -- replay --------------------------------------------------------------------
    def go(self, position: int | None) -> None:
        """Show the map after entry ``position`` (0: before the first),
        read-only; ``None`` or the last entry: the live map."""
        game = self.turns.game()
        n = self.count()
        if position is not None and (game is None or position >= n):
            position = None
        if position is not None:
            position = max(0, position)
        if position == self.replaying:
            self._update_buttons()
            return
        self.replaying = position
        if position is None:
            self._show(None, None)
        else:
            assert game is not None
            self._show(game.at(position), position)
        self._select(position)
        self._update_buttons()

    def step(self, by: int) -> None:
        """Back (``-1``) or forward (``1``) one entry."""
        n = self.count()
        here = n if self.replaying is None else self.replaying
        self.go(min(n, max(0, here + by)))

    def _select(self, position: int | None) -> None:
        item = self.entry_item(self.count() if position is None else position)
        self._filling = True
        if item is not None:
            self.tree.setCurrentItem(item)
        else:
            self.tree.clearSelection()
        self._filling = False

    def branch_here(self) -> None:
        """Open the position at the shown entry (the live end when not
        replaying) as a new untitled scenario, marked as a branch."""
        game = self.turns.game()
        if game is None:
            return
        n = len(game.journal) if self.replaying is None else self.replaying
        self._branch(game.branch(n, self._source()))

    def _update_buttons(self) -> None:
        n = self.count()
        here = n if self.replaying is None else self.replaying
        game = self.turns.game() is not None
        self.back.setEnabled(game and here > 0)
        self.forward.setEnabled(game and here < n)
        self.latest.setEnabled(self.replaying is not None)
        self.branch_button.setEnabled(game)


__all__ = ["JournalPanel", "entry_text"]
