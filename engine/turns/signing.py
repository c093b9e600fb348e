"""The game master's signatures on the journal (Ed25519).

A hash chain shows an accident or a casual edit, but anyone who recomputes
every hash can rewrite it.  A signed game carries, in
``state.game.signing``, the game master's public key and a signature by
the key in force over each entry's hash and over the journal's seal (its
count, head and turn state), so that a player's copy, side export or orders
file cannot forge, change or drop an entry unseen::

    "signing": {"algorithm": "ed25519", "key": "<public key, 64 hex digits>",
                "signatures": ["<128 hex digits>", ...], "seal": "<128 hex digits>"}

A key lost is replaced by a hand-over: an entry of kind ``key`` whose
``effect`` is ``{"key": NEW, "replaces": OLD}``, signed by the new key;
every entry after it is signed by the new key.  A hand-over is a visible
act of the game master's in the record, which the players accept or
dispute.  The private key never enters the game file (the command line
keeps it in the user's config folder: ``app/post_store.py``).

:class:`Signer` signs; :func:`verify` checks a journal's signatures and
names the first entry that is not the key's.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.model import ModelError

ALGORITHM = "ed25519"
KEY_KIND = "key"
"""The kind of a hand-over entry."""


class SignatureError(ModelError):
    """A signature missing or not the game master's: the message names the
    entry."""


def key_id(public_hex: str) -> str:
    """A short name of a public key: the first 16 hex digits of its SHA-256."""
    return hashlib.sha256(bytes.fromhex(public_hex)).hexdigest()[:16]


def _is_hex(v: Any, n: int) -> bool:
    return isinstance(v, str) and len(v) == n and not v.strip("0123456789abcdef")


class Signer:
    """An Ed25519 private key that signs entries' hashes."""

    def __init__(self, private: Any) -> None:
        self._key = private

    @classmethod
    def generate(cls) -> Signer:
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

        return cls(Ed25519PrivateKey.generate())

    @classmethod
    def from_pem(cls, pem: bytes) -> Signer:
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
        from cryptography.hazmat.primitives.serialization import load_pem_private_key

        key = load_pem_private_key(pem, password=None)
        if not isinstance(key, Ed25519PrivateKey):
            raise SignatureError("the key file does not hold an Ed25519 private key")
        return cls(key)

    def pem(self) -> bytes:
        from cryptography.hazmat.primitives.serialization import Encoding, NoEncryption, PrivateFormat

        return bytes(self._key.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, NoEncryption()))

    @property
    def public(self) -> str:
        from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

        return bytes(self._key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)).hex()

    @property
    def id(self) -> str:
        return key_id(self.public)

    def sign(self, text: str) -> str:
        """The signature (hex) over ``text`` (an entry's hash or a seal)."""
        return bytes(self._key.sign(text.encode("ascii"))).hex()


def check(public_hex: str, text: str, signature: str) -> bool:
    """Whether ``signature`` is the key's over ``text``."""
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    if not _is_hex(public_hex, 64) or not _is_hex(signature, 128):
        return False
    try:
        Ed25519PublicKey.from_public_bytes(bytes.fromhex(public_hex)).verify(bytes.fromhex(signature),
                                                                            text.encode("ascii"))
    except (InvalidSignature, ValueError):
        return False
    return True


@dataclass
class Signatures:
    """A signed journal's signatures (``state.game.signing``)."""

    key: str
    signatures: list[str]
    seal: str = ""

    def to_data(self) -> dict[str, Any]:
        return {"algorithm": ALGORITHM, "key": self.key, "signatures": list(self.signatures), "seal": self.seal}

    @classmethod
    def from_data(cls, data: Any, where: str) -> Signatures:
        if not isinstance(data, Mapping):
            raise SignatureError(f"{where}: expected an object, got {type(data).__name__}")
        if data.get("algorithm") != ALGORITHM:
            raise SignatureError(f"{where}.algorithm: expected {ALGORITHM!r}, got {data.get('algorithm')!r}")
        key = data.get("key")
        if not _is_hex(key, 64):
            raise SignatureError(f"{where}.key: expected an Ed25519 public key (64 hex digits), got {key!r}")
        sigs = data.get("signatures")
        if not isinstance(sigs, list) or not all(isinstance(s, str) for s in sigs):
            raise SignatureError(f"{where}.signatures: expected a list of signatures (hex)")
        seal = data.get("seal", "")
        if not isinstance(seal, str):
            raise SignatureError(f"{where}.seal: expected a signature (hex)")
        return cls(str(key), list(sigs), seal)

    def key_at(self, kinds_keys: Mapping[int, str], n: int) -> str:
        """The key in force for entry ``n`` (0-based): the last hand-over at
        or before it, else the game's first key."""
        key = self.key
        for i in sorted(kinds_keys):
            if i <= n:
                key = kinds_keys[i]
        return key


def handovers(entries: Sequence[Any]) -> dict[int, str]:
    """The hand-over entries (0-based position -> the new key)."""
    out: dict[int, str] = {}
    for i, e in enumerate(entries):
        if e.kind == KEY_KIND and _is_hex(e.effect.get("key"), 64):
            out[i] = str(e.effect["key"])
    return out


def verify(sig: Signatures, hashes: Sequence[str], labels: Any, handed: Mapping[int, str], seal: str | None,
           where: str, every: bool = False) -> None:
    """Check each entry's signature (``hashes`` in order; ``labels(i)``
    names entry ``i``) and the seal's; :class:`SignatureError` names the
    first that is missing or not the key's.

    With a seal, its signature is checked first: the seal commits to the
    count and the head, which commits to every entry, so a seal the key in
    force signed vouches for the whole record and each entry's signature
    is read only to name what is wrong when it does not (one check instead
    of one an entry: 8,000 entries verify in about 1.3 s of CPU one by one).
    ``every`` checks each entry's signature all the same (``adjutant
    validate``: a side's file relies on them)."""
    if not every and seal is not None and len(sig.signatures) == len(hashes) and all(sig.signatures):
        key = sig.key_at(handed, len(hashes) - 1) if hashes else sig.key
        if check(key, seal, sig.seal):
            return
    if len(sig.signatures) > len(hashes):
        raise SignatureError(f"{where}: {len(sig.signatures)} signatures for {len(hashes)} entries: entries were "
                             f"dropped from the journal")
    for i, h in enumerate(hashes):
        key = sig.key_at(handed, i)
        if i >= len(sig.signatures) or not sig.signatures[i]:
            raise SignatureError(f"{where}: {labels(i)} is not signed: the record was extended by someone who does "
                                 f"not hold the game master's key ({key_id(key)})")
        if not check(key, h, sig.signatures[i]):
            raise SignatureError(f"{where}: {labels(i)} is not signed by the game master's key ({key_id(key)}): "
                                 f"it was changed or written by someone else")
    if seal is not None:
        key = sig.key_at(handed, len(hashes) - 1) if hashes else sig.key
        if not check(key, seal, sig.seal):
            raise SignatureError(f"{where}.seal: the journal's end is not signed by the game master's key "
                                 f"({key_id(key)}): entries were dropped from its end, or it was extended by "
                                 f"someone else")
