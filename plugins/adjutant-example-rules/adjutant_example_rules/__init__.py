"""Leap: an example rules system for Adjutant, installed as a plugin.

Nothing is imported here: Adjutant lists the plugin from its package's
metadata and imports :mod:`.system` only when the system is used.
"""
