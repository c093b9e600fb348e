"""Shared pieces of the reliability suite: hostile-input strategies and the
check every loader must pass on every input.

A loader given any input either returns a value or raises *its documented
error class* (never a bare ``ValueError``, ``KeyError``, ``TypeError``,
``RecursionError``, ...) with a non-empty message that names the source, and
it spends at most :data:`MAX_CPU_SECONDS` of CPU time on one input.  CPU
time (not wall time) is measured so that other work on a shared machine does
not make the check flaky.
"""

from __future__ import annotations

import json
import os
import resource
import time
from collections.abc import Callable, Sequence
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

MAX_CPU_SECONDS = 1.0
"""Most CPU time one input may take (the issue: "no input that takes longer than a second")."""

SHORT_EXAMPLES = int(os.environ.get("ADJUTANT_FUZZ_SHORT", "200"))
LONG_EXAMPLES = int(os.environ.get("ADJUTANT_FUZZ_LONG", "10000"))


def fuzz_settings(n: int) -> settings:
    """Hypothesis settings for ``n`` inputs: no wall-clock deadline (we time
    CPU ourselves), no shrinking budget surprises, no database writes in CI."""
    return settings(max_examples=n, deadline=None, derandomize=False, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much, HealthCheck.large_base_example])


def max_rss_mb() -> float:
    """Peak resident memory of this process so far (MiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def check_loader(fn: Callable[[], Any], errors: type[BaseException] | tuple[type[BaseException], ...],
                 source: str | None, what: str) -> Any:
    """Run ``fn`` (a loader on one input).  Returns its value, or ``None``
    when it refused the input with one of ``errors``.  Fails the test on any
    other exception, an empty message, a message without ``source``, or more
    than a second of CPU time."""
    t0 = time.process_time()
    try:
        value = fn()
    except errors as e:
        value = None
        msg = str(e)
        assert msg.strip(), f"{what}: {type(e).__name__} with an empty message"
        assert "Traceback" not in msg
        if source is not None:
            assert source in msg, f"{what}: the message does not name the input {source!r}: {msg[:300]}"
    except BaseException as e:  # anything else is a bug in the loader
        raise AssertionError(f"{what}: uncaught {type(e).__name__}: {e}") from e
    dt = time.process_time() - t0
    assert dt <= MAX_CPU_SECONDS, f"{what}: took {dt:.2f} s of CPU time on one input"
    return value


# ---------------------------------------------------------------------------
# strategies

INTERESTING_TOKENS = (
    "0", "-1", "1e308", "-1e308", "NaN", "Infinity", "4097", "4096", "65536", "2147483648", "18446744073709551616",
    "999999999999", "null", "true", "false", "\"\"", "[]", "{}", "[[[[[[[[", "]]]]", "\"\\u0000\"", "\"\\ud800\"",
    "<", ">", "&", "&amp;", "<!--", "-->", "<![CDATA[", "]]>", "<!DOCTYPE x [<!ENTITY e \"e\">]>", "&e;",
    "(", ")", ",", "(1,1)", "(-5,7)", "(1e9,1e9)", "\n", "\t", " ", "\u00e9", "\u2603", "\U0001f600", "\x00",
    "zlib", "gzip", "zstd", "base64", "csv", "hexagonal", "isometric", "orthogonal", "staggered", "territory",
)


@st.composite
def mutated_text(draw: st.DrawFn, seeds: Sequence[str], max_ops: int = 4) -> str:
    """A seed text after a few random byte-level edits: flips, deletions,
    insertions of hostile tokens or random text, truncation, duplication."""
    text = draw(st.sampled_from(seeds))
    for _ in range(draw(st.integers(1, max_ops))):
        n = len(text)
        op = draw(st.sampled_from(("flip", "delete", "insert", "token", "truncate", "duplicate", "swap_digit")))
        i = draw(st.integers(0, max(n - 1, 0)))
        if op == "flip" and n:
            text = text[:i] + chr(draw(st.integers(0, 0x2FF))) + text[i + 1:]
        elif op == "delete" and n:
            j = min(n, i + draw(st.integers(1, 64)))
            text = text[:i] + text[j:]
        elif op == "insert":
            text = text[:i] + draw(st.text(max_size=16)) + text[i:]
        elif op == "token":
            text = text[:i] + draw(st.sampled_from(INTERESTING_TOKENS)) + text[i:]
        elif op == "truncate":
            text = text[:i]
        elif op == "duplicate" and n:
            j = min(n, i + draw(st.integers(1, 200)))
            text = text[:j] + text[i:j] + text[j:]
        elif op == "swap_digit":
            digits = [k for k, ch in enumerate(text) if ch.isdigit()]
            if digits:
                k = draw(st.sampled_from(digits))
                text = text[:k] + draw(st.sampled_from("0123456789-")) + draw(
                    st.sampled_from(("", "0", "00000", "999999"))) + text[k + 1:]
    return text


HOSTILE_SCALARS = st.one_of(
    st.sampled_from([0, -1, 1, 2, 3, 4095, 4096, 4097, 65536, 2**31, 2**63, 10**30, -(2**31), 1e308, -1e308,
                     float("nan"), float("inf"), 0.5, True, False, None, "", " ", "x" * 10000, "\u0000",
                     "\U0001f600", "A1", "0101", "9999", "-", "territory", "hex", "square", "flat", "pointy",
                     "odd", "even", "#zzzzzz", "#000000", "rail", "road"]),
    st.integers(), st.floats(), st.text(max_size=20), st.booleans(),
)

JSON_VALUES = st.recursive(HOSTILE_SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=5), st.dictionaries(st.text(max_size=8), inner, max_size=5)), max_leaves=12)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out.extend(_paths(v, prefix + (k,)))
    elif isinstance(value, list):
        for i, v in enumerate(value[:12]):
            out.extend(_paths(v, prefix + (i,)))
    return out


@st.composite
def mutated_json(draw: st.DrawFn, seeds: Sequence[Any], max_ops: int = 3) -> Any:
    """A decoded JSON seed after a few structural edits: a value replaced by
    a hostile one, a key deleted, an unknown key added, a list emptied or
    one of its items repeated many times."""
    data = json.loads(json.dumps(draw(st.sampled_from(seeds))))
    for _ in range(draw(st.integers(1, max_ops))):
        paths = _paths(data)
        path = draw(st.sampled_from(paths))
        if not path:
            if draw(st.booleans()):
                data = draw(JSON_VALUES)
            continue
        parent = data
        for k in path[:-1]:
            parent = parent[k]
        key = path[-1]
        op = draw(st.sampled_from(("replace", "replace", "replace", "delete", "add", "repeat", "empty")))
        if op == "replace":
            parent[key] = draw(JSON_VALUES)
        elif op == "delete":
            del parent[key]
        elif op == "add" and isinstance(parent, dict):
            parent[draw(st.text(max_size=8))] = draw(JSON_VALUES)
        elif op == "repeat" and isinstance(parent, list):
            parent.extend([parent[key]] * draw(st.integers(1, 50)))
        elif op == "empty" and isinstance(parent[key], (list, dict, str)):
            parent[key] = type(parent[key])()
    return data


def to_text(data: Any) -> str:
    """JSON text of ``data`` (NaN and Infinity allowed: Python's json reads them)."""
    return json.dumps(data, ensure_ascii=False)


def to_bytes(text: str) -> bytes:
    """UTF-8 bytes of ``text``; lone surrogates become invalid UTF-8 (itself hostile input)."""
    return text.encode("utf-8", errors="surrogatepass")


def kill_when_ready(args: Sequence[str], after: float, cwd: Any, env: dict[str, str] | None = None) -> None:
    """Start ``args``, wait for its first line ``ready``, let it run
    ``after`` seconds and kill it with SIGKILL; asserts that it died of it."""
    import signal
    import subprocess

    child = subprocess.Popen(list(args), stdout=subprocess.PIPE, cwd=cwd, env=env)
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == b"ready"
        time.sleep(after)
        child.send_signal(signal.SIGKILL)
    finally:
        child.wait(timeout=60)
        if child.stdout is not None:
            child.stdout.close()
    assert child.returncode == -signal.SIGKILL
