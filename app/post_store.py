"""The game master's secrets for play by post, kept in the user's config
folder and never in a game file: dice seeds until their reveal, and the
Ed25519 signing keys.

The folder is ``platformdirs.user_config_dir("adjutant")/post`` (or
``$ADJUTANT_CONFIG_DIR/post``): ``seeds/<commitment>.txt`` holds the seed a
journal commits to by that hash, ``keys/<key id>.pem`` a private key (the
id: the first 16 hex digits of the SHA-256 of its public key).  Files are
written readable by their owner only.  Losing the folder loses nothing
recorded: a seed lost before its reveal leaves that commitment's rolls
unverifiable (the journal says so), a key lost is replaced by a new key
signing a hand-over entry (``docs/play-by-post.md``).
"""

from __future__ import annotations

import os
from pathlib import Path


def folder() -> Path:
    """The folder of the game master's secrets."""
    env = os.environ.get("ADJUTANT_CONFIG_DIR")
    if env:
        return Path(env) / "post"
    import platformdirs

    return Path(platformdirs.user_config_dir("adjutant", appauthor=False)) / "post"


def _write_private(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)


def save_seed(commit: str, seed: str) -> Path:
    """Keep ``seed`` under its commitment's hash; returns the file."""
    path = folder() / "seeds" / f"{commit}.txt"
    _write_private(path, seed.encode("ascii"))
    return path


def load_seed(commit: str) -> str | None:
    """The seed committed by ``commit``, if this user holds it."""
    if not commit.isalnum():
        return None
    path = folder() / "seeds" / f"{commit}.txt"
    try:
        return path.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None


def key_path(key_id: str) -> Path:
    """Where the private key of ``key_id`` is kept."""
    return folder() / "keys" / f"{key_id}.pem"


def save_key(key_id: str, pem: bytes) -> Path:
    path = key_path(key_id)
    _write_private(path, pem)
    return path


def load_key(key_id: str) -> bytes | None:
    """The private key (PEM) of ``key_id``, if this user holds it."""
    if not key_id.isalnum():
        return None
    try:
        return key_path(key_id).read_bytes()
    except OSError:
        return None
