"""What both map canvases share: a scrollable, zoomable view of a map.

:class:`MapView` holds the zoom, the scroll bars, the mapping between map
and viewport coordinates, panning (middle drag, space + drag), the wheel
(zoom at the cursor), fit and refit on resize, and turns mouse events into
the subclass's map events.  :class:`~app.gui.canvas.MapCanvas` (square and
hex grids) and :class:`~app.gui.territory.canvas.TerritoryCanvas`
(territory maps) subclass it, paint, and fill small hooks:

* :meth:`MapView._map_size` — the map's width and height in map units
  (``None`` while there is no map);
* :meth:`MapView._wraps` — whether the map repeats east and west (the scene
  then holds three copies side by side and map x = 0 starts the middle one);
* :meth:`MapView._fit_space` — the viewport size :meth:`MapView.fit` fits into;
* :meth:`MapView._zoom_changed` — called when the zoom changed, before
  ``zoomChanged`` is emitted (drop caches of the old zoom);
* :meth:`MapView._mouse_event`, :meth:`MapView._hover_of` and
  :meth:`MapView._hover_changed` — the map event for a viewport point, what
  hovering tracks in it (a cell, a territory) and telling that it changed.

Coordinates: *map* coordinates are zoom independent; ``zoom`` is screen
pixels per map unit; the *scene* is the map at the zoom with ``MARGIN``
pixels of background around it, scrolled by the scroll bars.
"""

from __future__ import annotations

import math
from typing import Literal

import shiboken6
from PySide6.QtCore import QEvent, QObject, QPoint, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QKeyEvent, QMouseEvent, QResizeEvent, QWheelEvent
from PySide6.QtWidgets import (
    QAbstractScrollArea,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QLineEdit,
    QPlainTextEdit,
    QTextEdit,
    QWidget,
)

Button = Literal["left", "right", "middle"]

BUTTONS: dict[Qt.MouseButton, Button] = {
    Qt.MouseButton.LeftButton: "left",
    Qt.MouseButton.RightButton: "right",
    Qt.MouseButton.MiddleButton: "middle",
}


def modifier_flags(mods: Qt.KeyboardModifier) -> tuple[bool, bool, bool]:
    """(shift, ctrl, alt) of keyboard modifiers."""
    return (bool(mods & Qt.KeyboardModifier.ShiftModifier), bool(mods & Qt.KeyboardModifier.ControlModifier),
            bool(mods & Qt.KeyboardModifier.AltModifier))


class MapView(QAbstractScrollArea):
    """Scrollable, zoomable view of a map; subclasses paint it."""

    mousePressed = Signal(object)  # the subclass's map event (left/right only)
    mouseMoved = Signal(object)
    mouseReleased = Signal(object)
    zoomChanged = Signal(float)

    MARGIN = 48
    """Screen pixels of background around the map when it is larger than the view."""
    ZOOM_STEP = 1.25
    MAX_ZOOM = 8.0
    CENTRE_WITH_MARGIN = False
    """False: a map as large as the view or smaller is centred (its margin
    shrinks); True: only one that fits with its margins is, a larger one
    scrolls."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._zoom = 1.0
        self._hover: object = None
        self._space = False
        self._pan: tuple[QPointF, int, int] | None = None
        """A pan under way: where it started and the scroll bars' values then."""
        self._drag_button: Button | None = None
        self._fit_pending = False
        """Fit again on a resize (set by fit and a new map, cleared by zooming
        or panning)."""
        vp = self.viewport()
        vp.setMouseTracking(True)
        vp.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent, True)
        vp.setAutoFillBackground(False)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.horizontalScrollBar().setSingleStep(32)
        self.verticalScrollBar().setSingleStep(32)
        self._watching_keys = False
        """Whether Space is watched (:meth:`eventFilter`): from the first
        mouse move over the map until the mouse leaves it (and Space is up)."""
        self._key_target: QObject | None = None
        """The widget :meth:`eventFilter` is installed on while watching:
        the focus widget (the window when nothing has the focus), followed
        as the focus moves."""

    # ------------------------------------------------------------------
    # hooks

    def _map_size(self) -> tuple[float, float] | None:
        """The map's width and height in map units; None while there is no map."""
        raise NotImplementedError

    def _wraps(self) -> bool:
        """Whether the map repeats east and west (the scene is then three
        copies wide and always scrolls horizontally)."""
        return False

    def _fit_space(self) -> tuple[int, int]:
        """The viewport size :meth:`fit` fits the map and its margin into."""
        return self.viewport().width(), self.viewport().height()

    def _zoom_changed(self) -> None:
        """The zoom changed (``zoomChanged`` is emitted next)."""

    def _mouse_event(self, pos: QPointF, button: Button | None, mods: Qt.KeyboardModifier) -> object:
        """The map event for viewport point ``pos``."""
        raise NotImplementedError

    def _hover_of(self, event: object) -> object:
        """What hovering tracks in a map event (a cell, a territory)."""
        raise NotImplementedError

    def _hover_changed(self, hover: object) -> None:
        """The mouse moved onto ``hover`` (None: off it, or out of the view)."""
        raise NotImplementedError

    # ------------------------------------------------------------------
    # geometry

    def zoom(self) -> float:
        return self._zoom

    def _scene_size(self) -> tuple[int, int]:
        """The map at the zoom in screen pixels (three copies wide when it wraps)."""
        size = self._map_size()
        if size is None:
            return 0, 0
        w, h = size
        return math.ceil(w * (3 if self._wraps() else 1) * self._zoom), math.ceil(h * self._zoom)

    def _scene_x0(self) -> float:
        """Scene pixels left of map x = 0 (one world's width on a wrapping map)."""
        size = self._map_size()
        return size[0] * self._zoom if size is not None and self._wraps() else 0.0

    def _centred(self, scene: int, view: int) -> bool:
        """Whether a scene this long (across or down) is centred in a view
        this long rather than scrolled."""
        return scene + (2 * self.MARGIN if self.CENTRE_WITH_MARGIN else 0) <= view

    def origin(self) -> tuple[float, float]:
        """Viewport position of map point (0, 0)."""
        if self._map_size() is None:
            return 0, 0
        sw, sh = self._scene_size()
        vw, vh = self.viewport().width(), self.viewport().height()
        if self._centred(sw, vw) and not self._wraps():
            ox = (vw - sw) / 2
        else:
            ox = self.MARGIN - self.horizontalScrollBar().value() + self._scene_x0()
        oy = (vh - sh) / 2 if self._centred(sh, vh) else self.MARGIN - self.verticalScrollBar().value()
        return ox, oy

    def map_to_view(self, x: float, y: float) -> QPointF:
        ox, oy = self.origin()
        return QPointF(ox + x * self._zoom, oy + y * self._zoom)

    def view_to_map(self, pos: QPointF | QPoint) -> tuple[float, float]:
        ox, oy = self.origin()
        return (pos.x() - ox) / self._zoom, (pos.y() - oy) / self._zoom

    def visible_map_rect(self) -> QRectF:
        """The part of the map (map coordinates) the view shows."""
        x0, y0 = self.view_to_map(QPointF(0, 0))
        x1, y1 = self.view_to_map(QPointF(self.viewport().width(), self.viewport().height()))
        return QRectF(x0, y0, x1 - x0, y1 - y0)

    def _zoom_limits(self) -> tuple[float, float]:
        return min(self._fit_zoom() * 0.5, 0.05), self.MAX_ZOOM

    def _fit_zoom(self) -> float:
        size = self._map_size()
        if size is None:
            return 1.0
        fw, fh = self._fit_space()
        vw = max(1, fw - 2 * self.MARGIN)
        vh = max(1, fh - 2 * self.MARGIN)
        return max(1e-4, min(vw / size[0], vh / size[1], self.MAX_ZOOM))

    def _update_scrollbars(self) -> None:
        h, v = self.horizontalScrollBar(), self.verticalScrollBar()
        if self._map_size() is None:
            h.setRange(0, 0)
            v.setRange(0, 0)
            return
        sw, sh = self._scene_size()
        vw, vh = self.viewport().width(), self.viewport().height()
        h.setRange(0, 0 if self._centred(sw, vw) and not self._wraps() else max(0, sw + 2 * self.MARGIN - vw))
        v.setRange(0, 0 if self._centred(sh, vh) else sh + 2 * self.MARGIN - vh)
        h.setPageStep(max(1, vw))
        v.setPageStep(max(1, vh))

    def set_zoom(self, z: float, anchor: QPointF | None = None) -> None:
        """Zoom so that the map point under ``anchor`` (a viewport point;
        default the view's centre) stays where it is."""
        self._fit_pending = False
        self._apply_zoom(z, anchor)

    def _apply_zoom(self, z: float, anchor: QPointF | None = None) -> None:
        if self._map_size() is None:
            self._zoom = z
            return
        lo, hi = self._zoom_limits()
        z = min(max(z, lo), hi)
        if anchor is None:
            anchor = QPointF(self.viewport().width() / 2, self.viewport().height() / 2)
        mx, my = self.view_to_map(anchor)
        changed = not math.isclose(z, self._zoom, rel_tol=1e-9)
        self._zoom = z
        self._update_scrollbars()
        self.horizontalScrollBar().setValue(round(self.MARGIN + self._scene_x0() + mx * z - anchor.x()))
        self.verticalScrollBar().setValue(round(self.MARGIN + my * z - anchor.y()))
        self.viewport().update()
        if changed:
            self._zoom_changed()
            self.zoomChanged.emit(z)

    def zoom_in(self) -> None:
        self._fit_pending = False
        self.set_zoom(self._zoom * self.ZOOM_STEP)

    def zoom_out(self) -> None:
        self._fit_pending = False
        self.set_zoom(self._zoom / self.ZOOM_STEP)

    def fit(self) -> None:
        """Zoom so the whole map fits the view, centred; until the user
        zooms or pans, a resize fits again."""
        if self._map_size() is None:
            return
        self.set_zoom(self._fit_zoom())
        self._fit_pending = True  # a later resize (docks, first show) fits again
        self._update_scrollbars()
        self.horizontalScrollBar().setValue(0)
        self.verticalScrollBar().setValue(0)

    def _scroll_to(self, x: float, y: float) -> None:
        """Scroll map point (x, y) to the view's centre."""
        self._fit_pending = False
        self.horizontalScrollBar().setValue(round(self.MARGIN + self._scene_x0() + x * self._zoom
                                                  - self.viewport().width() / 2))
        self.verticalScrollBar().setValue(round(self.MARGIN + y * self._zoom - self.viewport().height() / 2))
        self.viewport().update()

    # ------------------------------------------------------------------
    # events

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if self._fit_pending:
            self.fit()
        else:
            self._update_scrollbars()

    def scrollContentsBy(self, dx: int, dy: int) -> None:
        self.viewport().update()

    def wheelEvent(self, event: QWheelEvent) -> None:
        delta = event.angleDelta().y()
        if delta == 0 or self._map_size() is None:
            event.ignore()
            return
        self._fit_pending = False
        self.set_zoom(self._zoom * self.ZOOM_STEP ** (delta / 120.0), event.position())
        event.accept()

    def _start_pan(self, pos: QPointF) -> None:
        self._pan = (pos, self.horizontalScrollBar().value(), self.verticalScrollBar().value())
        self.viewport().setCursor(Qt.CursorShape.ClosedHandCursor)

    def _set_hover(self, hover: object) -> None:
        if hover != self._hover:
            self._hover = hover
            self._hover_changed(hover)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        button = BUTTONS.get(event.button())
        if button == "middle" or (button == "left" and self._space):
            self._start_pan(event.position())
            event.accept()
            return
        if button is None or self._map_size() is None:
            return
        self._drag_button = button
        self.mousePressed.emit(self._mouse_event(event.position(), button, event.modifiers()))
        event.accept()

    def _watch_keys(self, on: bool) -> None:
        """Watch Space wherever the keyboard focus is.  The filter sits on the
        focus widget, where key events arrive, not on the application: an
        application filter written in Python is called for every event of
        every widget (some fifty a hover: the paints, the status bar, the
        verdict panel), a seventh of a hover's cost on a big map."""
        app = QApplication.instance()
        if not isinstance(app, QApplication) or on == self._watching_keys:
            return
        self._watching_keys = on
        if on:
            app.focusChanged.connect(self._focus_moved)
            self._focus_moved(None, QApplication.focusWidget())
        else:
            app.focusChanged.disconnect(self._focus_moved)
            self._filter_keys_of(None)

    def _focus_moved(self, _old: QWidget | None, new: QWidget | None) -> None:
        self._filter_keys_of(new if new is not None else self.window())

    def _filter_keys_of(self, target: QObject | None) -> None:
        old = self._key_target
        if target is old:
            return
        if old is not None and shiboken6.isValid(old):
            old.removeEventFilter(self)
        self._key_target = target
        if target is not None:
            target.installEventFilter(self)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        self._watch_keys(True)
        if self._pan is not None:
            start, h0, v0 = self._pan
            d = event.position() - start
            self.horizontalScrollBar().setValue(round(h0 - d.x()))
            self.verticalScrollBar().setValue(round(v0 - d.y()))
            event.accept()
            return
        if self._map_size() is None:
            return
        ev = self._mouse_event(event.position(), self._drag_button, event.modifiers())
        self._set_hover(self._hover_of(ev))
        self.mouseMoved.emit(ev)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        button = BUTTONS.get(event.button())
        if self._pan is not None and button in ("middle", "left"):
            self._pan = None
            self.viewport().setCursor(Qt.CursorShape.OpenHandCursor if self._space else Qt.CursorShape.ArrowCursor)
            event.accept()
            return
        if button is None or button == "middle" or self._map_size() is None:
            return
        self._drag_button = None
        self.mouseReleased.emit(self._mouse_event(event.position(), button, event.modifiers()))
        event.accept()

    def leaveEvent(self, event: QEvent) -> None:
        if not self._space:
            self._watch_keys(False)
        self._set_hover(None)
        super().leaveEvent(event)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Space + drag pans even when another widget has the keyboard focus
        (a palette button, a dock): while the mouse is over
        the map, Space goes to the map unless the focus is in a text field.
        Installed on the focus widget while the mouse is over the map
        (:meth:`_watch_keys`)."""
        t = event.type()
        if t not in (QEvent.Type.KeyPress, QEvent.Type.KeyRelease) or not isinstance(event, QKeyEvent) \
                or event.key() != Qt.Key.Key_Space:
            return False
        if t == QEvent.Type.KeyPress:
            if self.hasFocus() or not self.isVisible() or not self.viewport().underMouse() \
                    or _types_text(QApplication.focusWidget()):
                return False
            self.keyPressEvent(event)
            return True
        if not self._space or watched is self:
            return False
        self.keyReleaseEvent(event)  # wherever the focus went meanwhile, the release ends the pan mode
        if not self.viewport().underMouse():
            self._watch_keys(False)
        return True

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Space and not event.isAutoRepeat():
            self._space = True
            self.viewport().setCursor(Qt.CursorShape.OpenHandCursor)
            event.accept()
            return
        super().keyPressEvent(event)

    def keyReleaseEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Space and not event.isAutoRepeat():
            self._space = False
            if self._pan is None:
                self.viewport().setCursor(Qt.CursorShape.ArrowCursor)
            event.accept()
            return
        super().keyReleaseEvent(event)


def _types_text(widget: QWidget | None) -> bool:
    """Whether ``widget`` takes a typed space (a text field, a spin box, an
    editable combo box)."""
    if isinstance(widget, (QLineEdit, QAbstractSpinBox)):
        return True
    if isinstance(widget, (QTextEdit, QPlainTextEdit)):
        return not widget.isReadOnly()
    return isinstance(widget, QComboBox) and widget.isEditable()


MOUSE_GESTURES = (
    ("Map", "Pan the map", "Middle drag, or Space + drag"),
    ("Map", "Zoom about the mouse", "Mouse wheel"),
)
"""What the map view does with the mouse (not actions, so listed here, beside
the code doing it; Help > Keyboard Shortcuts shows them)."""

__all__ = ["BUTTONS", "MOUSE_GESTURES", "Button", "MapView", "modifier_flags"]
