"""The editor's dialogs: new map, unit, place, errors."""
