"""``dptune`` command line: ``run`` and ``validate`` a sweep spec, ``report`` the best trade-offs of a
store, ``train`` one DP run, ``calibrate`` its noise, list the ``methods``, ``audit`` a method's release.

Bad input exits with code 2 and one line on stderr naming the field and what would be valid.
With ``--json`` the last stdout line is one JSON object (a contract other tools read).
``dptune audit`` exits with code 1 when its ε lower bound refutes the claimed ε.

Help and ``dptune validate`` start in well under a second: torch, Ray, Optuna and MLflow are imported
by the commands that use them (``tests/test_torch_free.py`` keeps it so).
"""

from __future__ import annotations

import atexit
import logging
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from dptune.base.errors import InputError
from dptune.cli.arguments import EXIT_BAD_INPUT, _build_parser, cli_field
from dptune.cli.commands import (
    StepProgress,
    _audit,
    _calibrate,
    _methods,
    _report,
    _run,
    _train,
    _validate,
    train_config,
)

__all__ = ["COMMANDS", "StepProgress", "_build_parser", "cli_field", "console", "main", "train_config"]

COMMANDS = {
    "train": _train,
    "calibrate": _calibrate,
    "methods": _methods,
    "run": _run,
    "validate": _validate,
    "report": _report,
    "audit": _audit,
}


def main(argv: Sequence[str] | None = None) -> int:
    args = _build_parser().parse_args(argv)
    try:
        COMMANDS[args.command](args)
    except InputError as exc:
        print(f"dptune: error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    return 0


def console() -> NoReturn:
    """The ``dptune`` command (and ``python -m dptune.cli``): ``main``, then the process ends without
    Python's teardown of its modules' objects, which after a sweep took about 3 s of wall time on a
    2-core machine (torch, Ray, MLflow and Optuna loaded), after everything was written.

    What Python's exit does first still happens, in its order: non-daemon threads are joined, then every
    exit handler runs (Ray's shutdown, temporary folders' clean-up, MLflow's); this one is registered
    before any library's, so it runs last, flushes the output and logging, and ends the process with
    ``main``'s code (2 for bad input, 1 for an uncaught exception, whose traceback is printed before,
    130 after Ctrl+C, 141 when the reader of the output went away).
    """
    code = 1

    def end() -> None:
        try:
            logging.shutdown()
            sys.stdout.flush()
            sys.stderr.flush()
        finally:  # a reader that went away (``dptune report | head``) leaves nothing to flush to
            os._exit(code)

    atexit.register(end)
    try:
        code = main()
    except SystemExit as stop:  # argparse's usage errors and --help, a refuted audit
        code = stop.code if isinstance(stop.code, int) else int(stop.code is not None)
        raise
    except KeyboardInterrupt:
        code = 128 + 2  # what a shell reports for SIGINT
        raise
    except BrokenPipeError:  # the reader of the output went away (``dptune methods | head``)
        code = 128 + 13  # what a shell reports for SIGPIPE; quietly, as other commands end there
    sys.exit(code)
