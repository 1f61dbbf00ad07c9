"""Benchmark: a newcomer's first run, from a fresh clone to the first page.

Clones the repository's committed HEAD into a temporary directory and, there, does what
``make run`` does, timing each step:

1. **install**: ``make install-play`` with a virtual environment of its own (``VENV=``): what
   playing needs, none of the test, research or docs extras;
2. **warm-up**: ``gamehall warm-up`` (compiles every game's kernels into the clone's numba cache;
   ``--no-warm-up`` leaves it to the server, which warms in the background);
3. **first page**: starts ``gamehall serve`` on a free port and asks for ``/`` until it answers;
   the seconds from starting the process to the first answer.

Then reports the environment's size (``du -sh``), its package count (``pip list``) and the
seconds of each step, and the Markdown row for docs/performance.md.

    python bench/first_run.py [--python python3.11] [--no-warm-up] [--keep]
    .venv/bin/python bench/first_run.py --here    # step 3 alone, this checkout and this Python
"""

from __future__ import annotations

import argparse
import datetime
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGE_TIMEOUT = 600.0
"""How long the first page may take before the run is called failed."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def timed(command: list[str], cwd: Path, env: dict[str, str] | None = None) -> float:
    """Run ``command`` (its output shown as it comes); its wall-clock seconds."""
    started = time.perf_counter()
    subprocess.run(command, cwd=cwd, env=env, check=True)
    return time.perf_counter() - started


def first_page(gamehall: list[str], clone: Path, data: Path) -> float:
    """Start ``gamehall serve`` (a store of its own in ``data``) and poll ``/``; the seconds
    from starting it to its first answer."""
    port = free_port()
    env = {**os.environ, "XDG_DATA_HOME": str(data)}
    started = time.perf_counter()
    server = subprocess.Popen(
        [*gamehall, "serve", "--port", str(port)],
        cwd=clone,
        env=env,
        start_new_session=True,
    )
    try:
        while True:
            if server.poll() is not None:
                raise SystemExit(f"gamehall serve exited with status {server.returncode}")
            if time.perf_counter() - started > PAGE_TIMEOUT:
                raise SystemExit(f"no page within {PAGE_TIMEOUT:g} s")
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as answer:
                    if answer.status == 200:
                        return time.perf_counter() - started
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            time.sleep(0.05)
    finally:
        server.send_signal(signal.SIGINT)  # as Ctrl+C: the server stops its workers itself
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", default="python3.11", help="the Python that makes the venv")
    parser.add_argument("--no-warm-up", action="store_true", help="leave the warm-up to serve")
    parser.add_argument("--keep", action="store_true", help="keep the clone (print its path)")
    parser.add_argument(
        "--here",
        action="store_true",
        help="only time gamehall serve to its first page, with this Python and this checkout",
    )
    args = parser.parse_args()
    if args.here:
        here()
        return
    base = Path(tempfile.mkdtemp(prefix="gamehall-first-run-"))
    clone, venv = base / "gamehall", base / "venv"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
    print(f"a fresh clone of {ROOT} in {clone}", flush=True)
    try:
        install = timed(
            [
                "make",
                "--no-print-directory",
                "install-play",
                f"VENV={venv}",
                f"PYTHON={args.python}",
            ],
            clone,
        )
        gamehall = [str(venv / "bin" / "gamehall")]
        warm = 0.0 if args.no_warm_up else timed([*gamehall, "warm-up"], clone)
        page = first_page(gamehall, clone, base / "data")
        size = subprocess.run(
            ["du", "-sh", str(venv)], capture_output=True, text=True, check=True
        ).stdout.split()[0]
        listed = subprocess.run(
            [str(venv / "bin" / "python"), "-m", "pip", "list", "--format=freeze"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split()
        packages = len(listed)
    finally:
        if not args.keep:
            shutil.rmtree(base, ignore_errors=True)
    total = install + warm + page
    print(f"\ninstall (make install-play): {install:.0f} s")
    print(f"gamehall warm-up:            {warm:.0f} s" + (" (left to serve)" if not warm else ""))
    print(f"serve to the first page:     {page:.1f} s")
    print(f"environment: {size}, {packages} packages; to the first page in all: {total:.0f} s")
    print(f"load average: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    today = datetime.date.today().isoformat()
    print(
        "\n| command | date | environment | packages | install | warm-up | serve → first page |"
        f"\n| `python bench/first_run.py` | {today} | {size} | {packages} | {install:.0f} s | "
        f"{warm:.0f} s | {page:.1f} s |"
    )
    if args.keep:
        print(f"kept: {base}")


def here() -> None:
    """``gamehall serve`` of this checkout (its sources first on the path) to its first page."""
    env_path = os.pathsep.join(p for p in (str(ROOT / "src"), os.environ.get("PYTHONPATH")) if p)
    os.environ["PYTHONPATH"] = env_path
    command = [sys.executable, "-c", "from gamehall.cli.app import main; main()"]
    with tempfile.TemporaryDirectory(prefix="gamehall-first-page-") as data:
        page = first_page(command, ROOT, Path(data))
    print(f"serve to the first page: {page:.2f} s")
    print(f"load average: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
