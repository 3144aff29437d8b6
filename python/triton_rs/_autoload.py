"""Turns the hook on at interpreter start-up when ``TRITON_RS`` asks for it.

Imported by ``triton_rs_autoload.pth`` only when ``TRITON_RS`` is set:
``1``, ``strict``, ``on``, ``true`` or ``yes`` mean strict mode,
``fallback`` fallback mode.
"""

import os
import sys

_STRICT = ("1", "strict", "on", "true", "yes")


def _mode_from_environment():
    value = os.environ.get("TRITON_RS", "").strip().lower()
    if value in _STRICT:
        return "strict"
    if value == "fallback":
        return "fallback"
    raise ValueError(f"TRITON_RS={value!r}: expected 1, strict or fallback")


try:
    from ._hook import enable

    enable(_mode_from_environment())
except Exception as error:  # a .pth import must not stop the interpreter
    print(f"triton_rs: TRITON_RS is set, but the hook is off: {error}", file=sys.stderr)
