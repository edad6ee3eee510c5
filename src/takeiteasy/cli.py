"""The ``takeiteasy`` command line: one subcommand per module in :mod:`takeiteasy.commands`.

Each command module has ``register(subparsers)``, which adds its parser and
sets ``run=function(args) -> int``.  Input the engine refuses
(:class:`~takeiteasy.core.errors.InputError`) becomes one line on standard
error and exit status 2, never a traceback.  Ctrl-C ends a command with exit
status 130, and SIGTERM, which every command takes as Ctrl-C (:func:`sigterm_stops`),
with 143: its worker processes stopped, no file cut short, and one line saying what
was stopped and where (``args.stopped_at``, which a command may set: :func:`stopped`).
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import functools
import importlib
import os
import re
import signal
import sys
import threading

from . import __version__

# Nothing heavy is imported above (the package imports its engine on first use): the commands, numpy and numba
# load inside main(), where Ctrl-C while they load ends quietly like Ctrl-C later on.

#: Command modules, in the order ``--help`` lists them.
COMMANDS = ("play", "call", "score", "tiles", "deal", "variants", "solve", "analyse", "hint", "bench", "train", "serve")

EXIT_USAGE = 2


def one_line(message: object) -> str:
    """``message`` with its control characters written as escapes: an error quotes what the user typed, and a
    line break or carriage return in that would break the error's one line (or overwrite it on a terminal)."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in str(message))


class ArgumentParser(argparse.ArgumentParser):
    """argparse with one-line errors (argparse's default prints the whole usage)."""

    commands: dict[str, "ArgumentParser"]  # the top-level parser's: name -> subparser (build_parser)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # What argparse takes for a negative number rather than an option: its own pattern misses an exponent,
        # so '--init -1e3' said "expected one argument".  No option here starts with a dash and a digit.
        self._negative_number_matcher = re.compile(
            r"^-(?:[0-9][0-9_]*(?:\.[0-9_]*)?|\.[0-9][0-9_]*)(?:[eE][+-]?[0-9]+)?$")

    def error(self, message: str):  # noqa: D401 - argparse API
        self.exit(EXIT_USAGE, f"{self.prog}: error: {one_line(message)} (see {self.prog} --help)\n")

    def _print_message(self, message, file=None):
        """As argparse's, but a failed write of --help or --version to standard output is raised (argparse drops
        it, and the command said nothing and exited 0 with the text lost); :func:`_main` reports it."""
        if message and (file is None or file is sys.stdout):
            sys.stdout.write(message)
            sys.stdout.flush()
            return
        super()._print_message(message, file)


def build_parser() -> ArgumentParser:
    parser = ArgumentParser(prog="takeiteasy", description="Take It Easy! -- play, score, solve and study the game.")
    parser.add_argument("--version", action="version", version=f"takeiteasy {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=ArgumentParser)
    for name in COMMANDS:
        try:
            module = importlib.import_module(f".commands.{name}", __package__)
        except ModuleNotFoundError as exc:
            if exc.name == f"{__package__}.commands.{name}":
                continue  # a command not built yet
            raise
        module.register(sub)
    from .commands._options import store_each_once

    for command in sub.choices.values():
        store_each_once(command)
    parser.commands = sub.choices  # name -> subparser, for errors found after parsing
    return parser


def main(argv: list[str] | None = None) -> int:
    # Only the main thread gets Ctrl-C (Python runs signal handlers there), and sys.unraisablehook is the whole
    # process's: main() called from other threads at once would each put back what another had put there, and the
    # last would leave a hook of this call in place for good.
    keeps_ctrl_c = threading.current_thread() is threading.main_thread()
    unraisable = sys.unraisablehook
    if keeps_ctrl_c:
        sys.unraisablehook = functools.partial(_ctrl_c_kept, unraisable)
    try:
        with sigterm_stops():  # a `kill`, a scheduler or a service manager stops every command as Ctrl-C does
            return _main(argv)
    except KeyboardInterrupt as stop:  # Ctrl-C or SIGTERM while the commands load (_main says which one it stopped)
        return _interrupted(interruption(stop) or stop)
    except Exception as exc:
        # Ctrl-C that lands while numba calls back into Python (a compiled kernel's dispatch) comes out as a
        # SystemError "returned a result with an exception set", the KeyboardInterrupt as its cause
        behind = interruption(exc)
        if behind is None:
            raise
        return _interrupted(behind)
    finally:
        if keeps_ctrl_c:
            sys.unraisablehook = unraisable
        if sys.getprofile() is _interrupt_now:  # a swallowed Ctrl-C with no Python return after it
            sys.setprofile(None)


def _ctrl_c_kept(unraisable_hook, unraisable) -> None:
    """``sys.unraisablehook`` while a command runs.  Ctrl-C during the first compile of the kernels often landed in
    a ctypes callback of llvmlite's (``_raw_object_cache_notify``), and ctypes does not pass an exception on: it
    printed "Exception ignored on calling ctypes callback function ... KeyboardInterrupt" and the compile went on,
    and the command with it, to exit status 0.  The same holds for ``__del__`` methods and weakref callbacks.
    Such an interrupt is raised again when the next Python function of this thread returns (a profile function
    sees it; the callback has returned by then)."""
    if not issubclass(unraisable.exc_type, KeyboardInterrupt) or threading.current_thread() is not \
            threading.main_thread():  # another thread's: no Ctrl-C (nor this call of main) is behind it
        unraisable_hook(unraisable)
        return
    _swallowed[0] = unraisable.exc_type  # SIGTERM's Terminated stays one: its line and exit status are its own
    sys.setprofile(_interrupt_now)


#: the kind of interrupt a callback swallowed last (KeyboardInterrupt or Terminated), for _interrupt_now to raise
_swallowed: list[type[KeyboardInterrupt]] = [KeyboardInterrupt]


def _interrupt_now(frame, event: str, arg) -> None:
    """Profile function: raise the KeyboardInterrupt a callback swallowed as the first Python function outside the
    unraisable hook returns.  At a return, not a call: raised at the call of a lock's ``__exit__`` (llvmlite's, the
    first call after the callback) it kept the lock from being released."""
    if event != "return" or frame.f_code is _ctrl_c_kept.__code__:
        return
    sys.setprofile(None)
    raise _swallowed[0]


def _say(line: str) -> None:
    """``line`` on standard error; with none to write to (closed: ``2>&-``) the exit status alone tells."""
    if sys.stderr is None:  # print() would write to standard output instead
        return
    try:
        print(line, file=sys.stderr)
    except (OSError, ValueError):  # a closed descriptor, or a closed file object
        pass


def _interrupted(stop: KeyboardInterrupt, command: str | None = None) -> int:
    """The line of a stop outside a command's run: ``command`` (named on the command line) did not start."""
    who, where = (f"takeiteasy {command}", "before it started") if command else ("takeiteasy", "")
    _say(stop_line(who, stop, where))
    return exit_status(stop)


def stopped(args, stop: KeyboardInterrupt) -> int:
    """A command that Ctrl-C or SIGTERM stopped: one line on standard error saying which command and, if it set
    ``args.stopped_at`` (a function giving words such as "after 37 of 1000 games"), where; the signal's exit
    status.  Called once the stop has passed through the command, its workers stopped and its files closed."""
    where = getattr(args, "stopped_at", None)
    _say(stop_line(f"takeiteasy {args.command}", stop, where() if where else ""))
    return exit_status(stop)


def stop_line(who: str, stop: KeyboardInterrupt, where: str = "") -> str:
    """'takeiteasy bench: stopped by SIGTERM after 37 of 1000 games'.  Ctrl-C's on a line of its own, after the
    ^C the terminal shows."""
    newline, signal_name = ("", "SIGTERM") if isinstance(stop, Terminated) else ("\n", "Ctrl-C")
    return f"{newline}{who}: stopped by {signal_name}" + (f" {where}" if where else "")


def exit_status(stop: KeyboardInterrupt) -> int:
    """The shell's convention for a command a signal stopped: 128 + the signal's number (SIGINT 2, SIGTERM 15)."""
    return 143 if isinstance(stop, Terminated) else 130


def interruption(exc: BaseException) -> KeyboardInterrupt | None:
    """The KeyboardInterrupt among the causes (or the exceptions being handled) behind ``exc``, or None; a
    :class:`Terminated` if SIGTERM came meanwhile (:func:`sigterm_stops`), whatever became of its exception."""
    seen: set[int] = set()
    cause: BaseException | None = exc
    while cause is not None and id(cause) not in seen:
        if isinstance(cause, KeyboardInterrupt):
            if _sigterm_came[0] and not isinstance(cause, Terminated):
                # Ray's ray.get turns an exception raised by a signal handler during its wait into a plain
                # KeyboardInterrupt: the stop is still SIGTERM's, with its line and exit status
                return Terminated()
            return cause
        seen.add(id(cause))
        cause = cause.__cause__ or cause.__context__
    return None


class Terminated(KeyboardInterrupt):
    """SIGTERM (``kill``, a scheduler or service manager stopping the command) where :func:`sigterm_stops` (in
    :func:`main`: every command): a KeyboardInterrupt, so that it stops whatever Ctrl-C stops cleanly (worker
    processes, files written whole or not at all) the same way."""


#: whether SIGTERM came while :func:`sigterm_stops` held it (for :func:`interruption`)
_sigterm_came = [False]


@contextlib.contextmanager
def sigterm_stops():
    """SIGTERM raises :class:`Terminated` meanwhile, once (a second one while stopping is dropped, as a second
    Ctrl-C is while the workers stop, and after the stop too where SIGTERM had its default action: the process is
    exiting); by default it ends the process at once and without a word, mid-write.
    Only on the main thread, which alone runs signal handlers."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def terminate(signum, frame):
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        _sigterm_came[0] = True
        raise Terminated

    _sigterm_came[0] = False
    previous = signal.signal(signal.SIGTERM, terminate)
    try:
        yield
    finally:
        # A process stopped by SIGTERM is on its way out.  A second one (GNU timeout signals the command, then its
        # whole process group) killed it by the default action as it exited: status -15 instead of 143, and no
        # clean-up at exit (Python's resource tracker then warned of leaked semaphores after the stop line).
        if not (_sigterm_came[0] and previous == signal.SIG_DFL):
            signal.signal(signal.SIGTERM, previous)


def _command_named(argv: list[str] | None) -> str | None:
    """The command the words begin with, if they do (read before the parser can)."""
    words = sys.argv[1:] if argv is None else argv
    return words[0] if words and words[0] in (*COMMANDS, "analyze") else None


def _main(argv: list[str] | None) -> int:
    try:
        parser = build_parser()  # the commands load (numpy, rich...): a second or two
    except BaseException as exc:
        stop = interruption(exc)
        if stop is None:
            raise
        return _interrupted(stop, _command_named(argv))
    if sys.stdout is None:  # started with standard output closed (`>&-`): print() would drop every line unsaid
        command = _command_named(argv)
        _say(f"takeiteasy{f' {command}' if command else ''}: error: cannot write the output (standard output is "
             "closed)")
        return 1
    try:
        args, extra = parser.parse_known_args(argv)
    except BrokenPipeError:  # --help piped to a reader that went away: what it wanted it has
        _discard_stdout()
        return 0
    except OSError as exc:  # --help or --version to a full disk (ArgumentParser._print_message)
        if exc.errno not in OUTPUT_FULL:
            raise
        _discard_stdout()
        _say(f"takeiteasy: error: cannot write the output ({exc.strerror})")
        return 1
    if extra:
        # argparse would blame the top-level parser ("takeiteasy: error:"); name the subcommand instead.
        parser.commands.get(args.command, parser).error(f"unrecognized arguments: {' '.join(extra)}")
    if not getattr(args, "run", None):  # no command: a usage error like any other, on stderr
        parser.error(f"a command is required ({', '.join(c for c in COMMANDS if c in parser.commands)})")
    try:
        return _run(args)
    except BaseException as exc:
        stop = interruption(exc)  # Ctrl-C or SIGTERM, also as the cause of an error from a compiled kernel
        if stop is None:
            raise
        return stopped(args, stop)


def _run(args) -> int:
    from .cluster import WorkerError
    from .core.errors import InputError

    try:
        with first_compile_notice():
            return args.run(args) or 0
    except InputError as exc:
        _say(f"takeiteasy {args.command}: error: {one_line(exc)}")
        return EXIT_USAGE
    except WorkerError as exc:  # not the user's input: exit status 1, still one line
        _say(f"takeiteasy {args.command}: error: {one_line(exc)}")
        return 1
    except BrokenPipeError:  # the reader went away (`| head`): what it wanted it has
        _discard_stdout()
        return 0
    except OSError as exc:
        if exc.errno not in OUTPUT_FULL:
            raise
        _discard_stdout()
        _say(f"takeiteasy {args.command}: error: cannot write the output ({exc.strerror})")
        return 1


@contextlib.contextmanager
def first_compile_notice(stream=None):
    """Meanwhile, the first time numba compiles a kernel (it found none in its cache), say so once on ``stream``
    (standard error) if that is a terminal.  The first use of a command compiles what it needs: a few seconds for
    ``score``, up to about a minute for the best agent's search on a busy 2-core machine, with nothing on the
    screen to tell a new user that the command is not stuck.  Pipes and files get nothing."""
    from . import _jit

    stream = stream or sys.stderr
    if stream is None or not (_jit.COMPILED and stream.isatty()):  # None: started with standard error closed
        yield
        return
    from numba.core import event

    pid = os.getpid()  # worker processes forked meanwhile inherit the listener: the parent alone speaks

    class Notice(event.Listener):
        said = False

        def on_start(self, ev) -> None:
            # without a cache (_jit.kernel's fallback) a line at import already said that kernels compile each run
            if self.said or os.getpid() != pid or not _jit.CACHED:
                return
            self.said = True
            print("takeiteasy: compiling the game engine for its first use; this happens once, later runs load it "
                  "from the cache ...", file=stream, flush=True)

        def on_end(self, ev) -> None:
            pass

    with event.install_listener("numba:compile", Notice()):
        yield


#: errors of a write that cannot go on (the disk, quota or file size is full; the device failed)
OUTPUT_FULL = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO}


def _discard_stdout() -> None:
    """Point standard output at /dev/null, so that the exit's flush of what is left does not fail again."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # no real file behind stdout (a test's capture)
        pass


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
