"""Where the engine's first-launch compile time goes: each compiled function, on an empty cache.

Runs the preparation's parts (driver.WARM_TASKS, or those named) in a fresh interpreter with an
empty numba cache, and prints:
  1. each part's seconds (as `python -m gomoku.engine.prepare` would report them);
  2. each compiled function: its own seconds (a callee compiled inside it not counted), how many
     signatures it was compiled for, and how its own time splits into typing (numba's type
     inference, where inlined callees are typed again at every call site) and lowering plus
     LLVM (code generation and optimisation);
  3. the size of the LLVM IR of everything compiled: LLVM's work in a figure that, unlike the
     seconds, does not drift with the machine's speed.

    .venv/bin/python tools/compile_profile.py [PART ...] [--top 25] [--source DIR]

`--source DIR` measures another copy of the game (e.g. `git archive` of an older revision).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def inner(parts: list[str]) -> None:
    """Runs in the child: compile the parts, recording every compile event (JSON out)."""
    from numba.core import event, types

    from gomoku.engine import driver

    records: list[dict] = []
    stack: list[dict] = []
    dispatchers: dict[int, object] = {}

    class Recorder(event.Listener):
        def on_start(self, ev: event.Event) -> None:
            dispatchers[id(ev.data["dispatcher"])] = ev.data["dispatcher"]
            function = ev.data["dispatcher"].py_func
            stack.append({"name": f"{function.__module__.split('.')[-1]}.{function.__name__}",
                          "sig": ", ".join(
                              f"tuple of {len(a)}" if isinstance(a, types.BaseTuple) else str(a)
                              for a in ev.data["args"]), "began": time.perf_counter(),
                          "children": 0.0, "llvm": 0.0})

        def on_end(self, ev: event.Event) -> None:
            record = stack.pop()
            total = time.perf_counter() - record.pop("began")
            record["own"] = total - record.pop("children")
            if stack:
                stack[-1]["children"] += total
            # numba's own pass timings (inclusive of callees compiled inside a pass).
            dispatcher = ev.data["dispatcher"]
            cres = dispatcher.overloads.get(tuple(ev.data["args"]))
            passes = {}
            if cres is not None:
                for pipeline in (cres.metadata or {}).get("pipeline_times", {}).values():
                    for name, timing in pipeline.items():
                        passes[name.split("_", 1)[1]] = timing.run
            record["passes"] = passes
            records.append(record)

    class LlvmTimer(event.Listener):
        """Adds the time numba holds LLVM (optimising, emitting code) to the compiling function."""

        def on_start(self, ev: event.Event) -> None:
            self.began = time.perf_counter()

        def on_end(self, ev: event.Event) -> None:
            if stack:
                stack[-1]["llvm"] += time.perf_counter() - self.began

    event.register("numba:compile", Recorder())
    event.register("numba:llvm_lock", LlvmTimer())
    part_times = {}
    for part in parts:
        began = time.perf_counter()
        driver.warm_task(part)
        part_times[part] = time.perf_counter() - began
    # The size of each compiled library's final LLVM IR (linked and optimised; the engine's
    # and numba's own helpers): a measure of LLVM's work, whatever the machine's speed that day.
    ir_chars = sum(len(cres.library.get_llvm_str()) for dispatcher in dispatchers.values()
                   for cres in dispatcher.overloads.values())
    print(json.dumps({"parts": part_times, "records": records, "ir_chars": ir_chars}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("parts", nargs="*", help="parts to compile, in order (default: all)")
    parser.add_argument("--top", type=int, default=25, help="functions to list")
    parser.add_argument("--signatures", action="store_true",
                        help="list the argument types of functions compiled more than once")
    parser.add_argument("--source", type=Path, default=None, help="measure the game in this folder")
    parser.add_argument("--inner", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.inner:
        inner(args.parts)
        return
    with tempfile.TemporaryDirectory(prefix="gomoku-compile-") as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        if args.source is None:
            cmd = [sys.executable, __file__, "--inner", *args.parts]
        else:
            from cold_start import PRELUDE  # the one prelude that runs a tool from another copy

            cmd = [sys.executable, "-c", PRELUDE, str(args.source.resolve()), __file__, "--inner",
                   *args.parts]
        if not args.parts:
            cmd.extend(["tables", "easy", "threats", "search", "hard"])
        load = os.getloadavg()[0]
        began = time.perf_counter()
        child = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, check=True)
        wall = time.perf_counter() - began
    data = json.loads(child.stdout.strip().splitlines()[-1])
    print(f"load average {load:.2f} before, {os.getloadavg()[0]:.2f} after; "
          f"child ran {wall:.1f} s (with start-up)")
    print("parts: " + ", ".join(f"{name} {seconds:.1f} s" for name, seconds in data["parts"].items()))
    functions: dict[str, dict] = {}
    for record in data["records"]:
        row = functions.setdefault(record["name"], {"own": 0.0, "sigs": 0, "typing": 0.0,
                                                    "llvm": 0.0, "args": []})
        row["own"] += record["own"]
        row["sigs"] += 1
        row["typing"] += record["passes"].get("nopython_type_inference", 0.0)
        row["llvm"] += record["llvm"]
        row["args"].append(record["sig"])
    total = sum(row["own"] for row in functions.values())
    llvm = sum(row["llvm"] for row in functions.values())
    print(f"compiled functions: {len(functions)}, signatures: {len(data['records'])}, "
          f"compile seconds {total:.1f}, of which LLVM {llvm:.1f}")
    print(f"LLVM IR of the compiled functions: {data['ir_chars'] / 1e6:.2f} million characters "
          "(LLVM's work, independent of the machine's speed)")
    print(f"{'function':36} {'own s':>6} {'llvm s':>6} {'sigs':>4} {'typing s':>8}  "
          "(typing counts the callees compiled meanwhile)")
    for name, row in sorted(functions.items(), key=lambda item: -item[1]["own"])[: args.top]:
        print(f"{name:36} {row['own']:6.2f} {row['llvm']:6.2f} {row['sigs']:4d} {row['typing']:8.2f}")
        if args.signatures and row["sigs"] > 1 and not name.startswith(("arrayobj.", "builtins.")):
            for signature in row["args"]:
                print(f"    {signature[:160]}")


if __name__ == "__main__":
    main()
