"""The Python end of the bridge: starts the TypeScript engine in a Node child process and
exchanges binary frames with it over pipes (protocol in docs/python.md). A vector's bulk
replies (observations and masks of every sub-env) come through a shared file instead
(shared.py).

Every reply has a deadline: the read blocks, and a watchdog thread stops an engine that misses
it (watchdog.py), so a hung or dead engine raises an error instead of blocking forever. Closing
the bridge closes the engine's stdin, which ends it.
"""

from __future__ import annotations

import json
import math
import os
import re
import select
import shutil
import struct
import subprocess
import tempfile
import time
import weakref
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

from .colocate import EngineOnPythonCpu
from .shared import Cutter, SharedSlots, shared_file
from .watchdog import WATCHDOG
from .options import RANDOM_SEED_HIGH, RANDOM_SEED_LOW, check_env_id

PROTOCOL_VERSION = 3
OP_OPEN, OP_RESET, OP_STEP, OP_RENDER = 1, 2, 3, 4
_OP_NAMES = {OP_OPEN: "OPEN", OP_RESET: "RESET", OP_STEP: "STEP", OP_RENDER: "RENDER"}
_STATUS_OK, _STATUS_USAGE = 0, 1
# Request header: payload length, op, the slot of the shared file the reply goes to.
_HEADER = struct.Struct("<IBB2x")
# Reply header: payload length, status, op, where the payload is (0 the pipe, 1 the shared file).
_REPLY = struct.Struct("<IBBBx")
# The engine needs what package.json's "engines" field says: ^20.19.0 || ^22.13.0 || >=24.
NODE_REQUIREMENT = "^20.19.0 || ^22.13.0 || >=24"
# A pipe large enough for any usual reply spares the two processes wake-ups mid-reply.
_PIPE_SIZE = 1 << 20


# A vector's error reply (its message) comes on the pipe; room for the usual one.
_ERROR_CAPACITY = 1 << 12

_SEED = struct.Struct("<d")
_NO_SEED = _SEED.pack(math.nan)


class BridgeError(RuntimeError):
    """The engine process could not be started, died, or stopped answering."""


class NodeNotFoundError(BridgeError):
    """No usable Node.js: missing, not runnable, or too old."""


class EngineNotFoundError(BridgeError):
    """No built penguin-gym package (dist/) or TypeScript clone (with tsx) was found."""


class EngineDiedError(BridgeError):
    """The engine process ended while the environment was using it."""


class BridgeTimeoutError(BridgeError, TimeoutError):
    """The engine did not answer in time; the process has been stopped."""


def action_int(action: Any) -> int:
    """An action id (or a seed, a count) as a Python int (numpy scalars and 0-d arrays included)."""
    if isinstance(action, np.ndarray) and action.shape in ((), (1,)):
        action = action.reshape(()).item()
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        raise TypeError(f"an action is an integer id, got {action!r}")
    return int(action)


def check_id_and_render_mode(env_id: str, render_mode: str | None) -> None:
    """Refuses an unknown id or render mode before any engine is started."""
    check_env_id(env_id)
    if render_mode not in (None, "ansi"):
        raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")


def reset_payload(seed: Any, started: bool, np_random: np.random.Generator) -> bytes:
    """A RESET request's payload: `seed` when given; else, on the env's very first reset, a seed
    drawn from `np_random` in the training range (so unseeded copies play different deals);
    else NaN, which makes the engine continue its sequence."""
    if seed is not None:
        return _SEED.pack(float(action_int(seed)))
    if not started:
        return _SEED.pack(float(np_random.integers(RANDOM_SEED_LOW, RANDOM_SEED_HIGH)))
    return _NO_SEED


def observation_box(about: dict[str, Any]) -> gym.spaces.Box:
    """One environment's observation space, as the engine's OPEN reply describes it."""
    return gym.spaces.Box(
        low=np.float32(about["low"]),
        high=np.float32(about["high"]),
        shape=(about["obsSize"],),
        dtype=np.float32,
    )


def _node_ok(version: tuple[int, int, int]) -> bool:
    major, minor, _ = version
    return (major == 20 and minor >= 19) or (major == 22 and minor >= 13) or major >= 24


_node_versions: dict[str, tuple[int, int, int]] = {}


def find_node(node: str | os.PathLike[str] | None = None) -> str:
    """The path of a Node.js that can run the engine: `node`, else $PENGUIN_NODE, else `node` on PATH."""
    given = node if node is not None else os.environ.get("PENGUIN_NODE")
    if given is not None:
        path = shutil.which(str(given)) or (str(given) if os.path.isfile(given) else None)
        if path is None:
            raise NodeNotFoundError(
                f"Node.js not found at {str(given)!r}; pass node= (or set PENGUIN_NODE) to the path "
                f"of a node executable ({NODE_REQUIREMENT})"
            )
    else:
        path = shutil.which("node")
        if path is None:
            raise NodeNotFoundError(
                "Node.js not found: there is no `node` on PATH; install Node.js "
                f"{NODE_REQUIREMENT} (https://nodejs.org) or pass node= (or set PENGUIN_NODE) "
                "to its path"
            )
    if path not in _node_versions:
        try:
            out = subprocess.run(
                [path, "--version"], capture_output=True, text=True, timeout=30, check=False
            ).stdout.strip()
        except (OSError, subprocess.SubprocessError) as e:
            raise NodeNotFoundError(f"{path} does not run as Node.js: {e}") from None
        m = re.fullmatch(r"v(\d+)\.(\d+)\.(\d+)", out)
        if not m:
            raise NodeNotFoundError(
                f"{path} is not Node.js (`--version` printed {out!r}); install Node.js {NODE_REQUIREMENT}"
            )
        _node_versions[path] = (int(m[1]), int(m[2]), int(m[3]))
    if not _node_ok(_node_versions[path]):
        raise NodeNotFoundError(
            f"Node.js {'.'.join(map(str, _node_versions[path]))} at {path} is too old: the engine "
            f"needs {NODE_REQUIREMENT}; install a newer Node.js or pass node= (or set PENGUIN_NODE)"
        )
    return path


def _is_engine_root(d: Path) -> bool:
    try:
        return json.loads((d / "package.json").read_text()).get("name") == "penguin-gym"
    except (OSError, ValueError):
        return False


def _engine_roots() -> list[Path]:
    """Where a penguin-gym package may be, in order of preference."""
    roots: list[Path] = []
    for start in (Path.cwd(), Path(__file__).resolve().parent):
        for d in (start, *start.parents):
            roots += [d, d / "node_modules" / "penguin-gym"]
    cli = shutil.which("penguin")
    if cli:
        roots.append(Path(cli).resolve().parent.parent)
    return roots


def engine_command(engine: str | os.PathLike[str] | None = None) -> tuple[list[str], Path]:
    """The arguments after `node` that start the engine, and the folder to start it in.

    `engine` (else $PENGUIN_GYM_ENGINE) is a penguin-gym folder (a clone or the npm package) or
    its bridge entry file; without one, the current folder and its parents, their node_modules,
    this package's own folders and the `penguin` command on PATH are searched. A built package
    (dist/src/bridge/main.js) is preferred; a clone without a build runs src/ through tsx.
    """
    given = engine if engine is not None else os.environ.get("PENGUIN_GYM_ENGINE")
    if given is not None:
        p = Path(given).resolve()
        if p.is_file() and p.name in ("main.js", "main.ts"):
            root = p.parents[3] if p.suffix == ".js" else p.parents[2]
            return (["--import", "tsx", str(p)] if p.suffix == ".ts" else [str(p)]), root
        candidates = [p]
    else:
        candidates = _engine_roots()
    for root in candidates:
        if not _is_engine_root(root):
            continue
        built = root / "dist" / "src" / "bridge" / "main.js"
        if built.is_file():
            return [str(built)], root
        source = root / "src" / "bridge" / "main.ts"
        if source.is_file() and (root / "node_modules" / "tsx").is_dir():
            return ["--import", "tsx", str(source)], root
        if given is not None:
            break
    where = f"in {given}" if given is not None else "near the current folder or on PATH"
    raise EngineNotFoundError(
        f"no penguin-gym engine found {where}: run `npm run build` in a clone (or `npm install "
        "penguin-gym`), then pass engine= (or set PENGUIN_GYM_ENGINE) to that folder"
    )


def _stop(proc: subprocess.Popen[bytes], wait: float, shared_fd: int) -> None:
    """Ends the engine: EOF on its stdin first (it exits by itself), a kill if it lingers; then
    closes the shared file, if any (also when the bridge is garbage-collected unclosed)."""
    if shared_fd >= 0:
        try:
            os.close(shared_fd)
        except OSError:
            pass
    try:
        if proc.stdin and not proc.stdin.closed:
            proc.stdin.close()
    except OSError:
        pass
    try:
        proc.wait(timeout=wait)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    if proc.stdout and not proc.stdout.closed:
        proc.stdout.close()


class Bridge:
    """One engine process serving one environment (or one vector of them)."""

    def __init__(
        self,
        env_id: str,
        options: dict[str, Any],
        num_envs: int,
        *,
        node: str | os.PathLike[str] | None = None,
        engine: str | os.PathLike[str] | None = None,
        timeout: float = 30.0,
        startup_timeout: float = 60.0,
        seed_stride: int = 1,
    ) -> None:
        self.timeout = float(timeout)
        node_path = find_node(node)
        args, root = engine_command(engine)
        self._stderr = tempfile.TemporaryFile()
        # A vector's replies are large: they come through a file both processes share.
        self._shared_fd = shared_file() if num_envs > 0 else -1
        self._shared = SharedSlots(self._shared_fd) if num_envs > 0 else None
        try:
            self.proc = subprocess.Popen(
                [node_path, *args],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._stderr,
                cwd=root,
                bufsize=0,
                pass_fds=(self._shared_fd,) if self._shared_fd >= 0 else (),
            )
        except OSError as e:
            if self._shared_fd >= 0:
                os.close(self._shared_fd)
            raise NodeNotFoundError(f"could not start {node_path}: {e}") from None
        self._finalizer = weakref.finalize(self, _stop, self.proc, 2.0, self._shared_fd)
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self._out = self.proc.stdin.fileno()
        self._in = self.proc.stdout.fileno()
        for fd in (self._out, self._in):
            try:
                import fcntl

                fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, _PIPE_SIZE)
            except (ImportError, AttributeError, OSError):
                pass  # not Linux, or above /proc/sys/fs/pipe-max-size: the default pipe works
        os.set_blocking(self._out, False)
        self._head = bytearray(_REPLY.size)  # a shared reply's header
        self._head_buffers = [self._head]
        # The length of the last shared reply read through the general path.
        self.length = 0
        self._poll = select.poll()  # for the rest of a reply that came in parts
        self._poll.register(self._in, select.POLLIN)
        self.closed = False
        # When the reply being waited for is due (0: none is), and the wait's limit in seconds;
        # the watchdog stops the engine once the deadline has passed (expire()).
        self.deadline = 0.0
        self._limit = self.timeout
        self._expired = False
        WATCHDOG.watch(self)
        self._placement = EngineOnPythonCpu(self.proc.pid)
        request = {
            "protocol": PROTOCOL_VERSION,
            "id": env_id,
            "options": options,
            "numEnvs": num_envs,
            "seedStride": seed_stride,
        }
        if self._shared_fd >= 0:
            request["sharedFd"] = self._shared_fd
        try:
            reply = self.call(OP_OPEN, json.dumps(request).encode(), 1 << 16, startup_timeout)
        except ValueError:
            self.close()  # a refused option: end the engine now, not at garbage collection
            raise
        self.about: dict[str, Any] = json.loads(reply.tobytes().decode())
        if self._shared is not None:
            self._shared.open(self.about["sharedSlotBytes"])

    def call(self, op: int, payload: bytes, capacity: int, timeout: float | None = None) -> np.ndarray:
        """Sends one request and returns the reply payload, read from the pipe into a fresh uint8
        array (`capacity` is the usual size of the reply; larger ones are read too). A vector's
        RESET and STEP go through `call_slot` instead.

        A usage error from the engine (bad option, illegal action) raises ValueError and leaves
        the environment as it was; a dead or silent engine raises a BridgeError.
        """
        if self.closed:
            raise BridgeError("the environment is closed; make a new one")
        limit = self.timeout if timeout is None else timeout
        deadline = time.monotonic() + limit
        self._placement.follow()
        self._send(_HEADER.pack(len(payload), op, 0) + payload, op, deadline, limit)
        # np.empty: a fresh, unzeroed buffer per reply, so the arrays handed out are never
        # reused. One readv usually brings the header and the whole payload: the common case
        # takes two system calls.
        buf = np.empty(capacity + _REPLY.size, np.uint8)
        self._limit = limit
        self.deadline = deadline
        have = os.readv(self._in, [buf])
        self.deadline = 0.0
        if have >= _REPLY.size:
            length, status, _, _ = _REPLY.unpack_from(buf)
            if status == _STATUS_OK and have == _REPLY.size + length:
                return buf[_REPLY.size : have]
        return self._read_rest(op, buf, have, deadline, limit)

    def call_slot(self, op: int, payload: bytes, make: Cutter) -> tuple[tuple[Any, ...], int]:
        """A vector's RESET or STEP, whose reply the engine writes into a free slot of the shared
        file: the arrays `make` cuts the reply into (made once per slot: hand out only these and
        views of them, see SharedSlots.cut), and the reply's length. Errors as for `call`.

        This is every batch step's path, kept short: two system calls (a write and a blocking
        read), the engine's placement and a free slot checked, and the reply's header unpacked.
        """
        if self.closed:
            raise BridgeError("the environment is closed; make a new one")
        self._placement.follow()
        shared: SharedSlots = self._shared  # type: ignore[assignment]
        slot = shared.free_slot()
        head = _HEADER.pack(len(payload), op, slot)
        try:
            sent = os.writev(self._out, (head, payload))
        except BlockingIOError:
            sent = 0
        except (BrokenPipeError, ConnectionResetError):
            self._died(op)
        limit = self._limit = self.timeout
        deadline = self.deadline = time.monotonic() + limit
        if sent < _HEADER.size + len(payload):
            self._send((head + payload)[sent:], op, deadline, limit)
        # The pipe brings the reply's header alone, read into a buffer kept for it (an error's
        # message follows the header: the general path).
        have = os.readv(self._in, self._head_buffers)
        self.deadline = 0.0
        if have == _REPLY.size:
            length, _, _, where = _REPLY.unpack_from(self._head)
            if where:  # only an ok reply is in the shared file
                return shared.cuts(slot, length, make), length
        buf = np.empty(_ERROR_CAPACITY, np.uint8)
        buf[:have] = np.frombuffer(self._head, np.uint8, have)
        self._read_rest(op, buf, have, deadline, limit)
        return shared.cuts(slot, self.length, make), self.length

    def _read_rest(self, op: int, buf: np.ndarray, have: int, deadline: float, limit: float) -> np.ndarray:
        """Reads the rest of a reply of which `have` bytes are in `buf`, and returns its payload
        (empty for a reply in the shared file, whose length goes to `self.length`); raises the
        error an error reply names."""
        if have == 0:
            self._died(op)
        view = memoryview(buf)
        want = _REPLY.size
        while True:
            if want == _REPLY.size and have >= _REPLY.size:
                length, status, _, shared = _REPLY.unpack_from(buf)
                if shared:
                    self.length = length
                    return buf[:0]
                want = _REPLY.size + length
                if want > len(buf):
                    grown = np.empty(want, np.uint8)
                    grown[:have] = buf[:have]
                    buf, view = grown, memoryview(grown)
            if have >= want:
                break
            self._wait(op, deadline, limit)
            got = os.readv(self._in, [view[have:]])
            if got == 0:
                self._died(op)
            have += got
        if status != _STATUS_OK:
            text = bytes(view[_REPLY.size : want]).decode(errors="replace")
            if status == _STATUS_USAGE:
                raise ValueError(text)
            raise BridgeError(f"the engine failed on {_OP_NAMES.get(op, op)}: {text}")
        return buf[_REPLY.size : want]

    def _send(self, data: bytes, op: int, deadline: float, limit: float) -> None:
        """Writes a request (the pipe is non-blocking: a full one is waited on, up to the deadline)."""
        view = memoryview(data)
        while view:
            try:
                view = view[os.write(self._out, view) :]
                continue
            except BlockingIOError:
                pass
            except (BrokenPipeError, ConnectionResetError):
                self._died(op)
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not select.select([], [self._out], [], remaining)[1]:
                self._timed_out(op, limit)

    def _wait(self, op: int, deadline: float, limit: float) -> None:
        remaining = deadline - time.monotonic()
        if remaining <= 0 or not self._poll.poll(math.ceil(remaining * 1000)):
            self._timed_out(op, limit)

    def _stderr_tail(self) -> str:
        try:
            self._stderr.seek(0)
            lines = self._stderr.read().decode(errors="replace").strip().splitlines()
        except (OSError, ValueError):
            return ""
        return ("; its last output: " + " | ".join(lines[-5:])) if lines else ""

    def expire(self) -> None:
        """The watchdog's call (from its thread) once the reply waited for is overdue: stops the
        engine, which ends the blocked read; the reader then raises BridgeTimeoutError."""
        self._expired = True
        try:
            self.proc.kill()
        except OSError:
            pass

    def _died(self, op: int) -> None:
        if self._expired:
            self._timed_out(op, self._limit)
        try:
            code = self.proc.wait(timeout=2.0)
        except subprocess.TimeoutExpired:
            code = None
        how = (
            "did not exit"
            if code is None
            else f"was killed by signal {-code}"
            if code < 0
            else f"exited with code {code}"
        )
        tail = self._stderr_tail()
        self.close()
        raise EngineDiedError(
            f"the engine process (node, pid {self.proc.pid}) {how} during "
            f"{_OP_NAMES.get(op, op)}{tail}; this environment is closed: make a new one"
        )

    def _timed_out(self, op: int, limit: float) -> None:
        self.proc.kill()
        tail = self._stderr_tail()
        self.close()
        raise BridgeTimeoutError(
            f"the engine (node, pid {self.proc.pid}) gave no reply to {_OP_NAMES.get(op, op)} within "
            f"{limit:g} s and was stopped{tail}; raise timeout= if the machine is very busy"
        )

    def close(self) -> None:
        """Ends the engine process (idempotent)."""
        if self.closed:
            return
        self.closed = True
        WATCHDOG.forget(self)
        if self._shared is not None:
            self._shared.close()
        self._finalizer()  # ends the engine, closes the shared file
        self._stderr.close()
