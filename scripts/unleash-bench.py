#!/usr/bin/env python3
"""Time the reference Unleash engine (yggdrasil-engine from PyPI) on the cases flagstaff-bench sends.

`flagstaff-bench unleash` runs this script so the Swift engine and the reference are measured in one run, on
the same state and the same contexts. Reads one JSON document on stdin:

    {"state": <a /api/client/features body>, "iterations": 200000,
     "cases": [{"label": "simple flag", "flag": "name", "kind": "enabled" | "variant", "context": {...}}, ...]}

and writes one JSON document on stdout:

    {"engine": "yggdrasil-engine 2.0.0",
     "results": [{"label": "...", "native_ns": 1012.3, "python_ns": 13021.5, "answer": ...}, ...]}

`native_ns` calls the native library directly, as an SDK built on it does: `lib.check_enabled(state, name,
context_json, b"{}")` (or `lib.check_variant`) then `lib.free_response(ptr)`, with the context already
serialised and the name already encoded. `python_ns` goes through the Python wrapper (`check_enabled` /
`check_variant`), which also serialises the context on every call. Best of three rounds each, in CPU time of
the measuring thread (`time.thread_time_ns`) as the Swift side measures, so a busy machine skews neither side.

Install: pip install yggdrasil-engine==2.0.0
"""
import ctypes
import json
import sys
import time

try:
    from importlib.metadata import version as _package_version
    from yggdrasil_engine.engine import UnleashEngine
except ImportError as error:
    print(f"yggdrasil-engine is not installed ({error}); pip install yggdrasil-engine==2.0.0", file=sys.stderr)
    sys.exit(3)


def best_of(rounds, iterations, body):
    best = None
    for _ in range(rounds):
        start = time.thread_time_ns()
        body(iterations)
        elapsed = (time.thread_time_ns() - start) / iterations
        best = elapsed if best is None else min(best, elapsed)
    return best


def main() -> int:
    try:
        request = json.load(sys.stdin)
        state, cases = request["state"], request["cases"]
        iterations = int(request.get("iterations", 200_000))
    except (ValueError, KeyError, TypeError) as error:
        print(f"bad request on stdin: {error}", file=sys.stderr)
        return 2

    engine = UnleashEngine()
    engine.take_state(json.dumps(state))
    lib, handle = engine.lib, engine.state
    results = []
    for case in cases:
        name = case["flag"].encode("utf-8")
        context = case.get("context") or {}
        context_json = json.dumps(context).encode("utf-8")
        native = lib.check_variant if case.get("kind") == "variant" else lib.check_enabled

        def native_loop(count, native=native, name=name, context_json=context_json):
            for _ in range(count):
                pointer = native(handle, name, context_json, b"{}")
                lib.free_response(pointer)

        if case.get("kind") == "variant":
            def python_loop(count, flag=case["flag"], context=context):
                for _ in range(count):
                    engine.check_variant(flag, context)
            answer = engine.check_variant(case["flag"], context).variant.name
        else:
            def python_loop(count, flag=case["flag"], context=context):
                for _ in range(count):
                    engine.check_enabled(flag, context)
            answer = engine.check_enabled(case["flag"], context).is_enabled

        pointer = native(handle, name, context_json, b"{}")
        raw = json.loads(ctypes.cast(pointer, ctypes.c_char_p).value.decode("utf-8"))
        lib.free_response(pointer)
        if raw.get("status_code") != "Ok":
            print(f"reference engine failed on {case['label']}: {raw}", file=sys.stderr)
            return 1

        case_iterations = max(1, int(case.get("iterations", iterations)))
        results.append({
            "label": case["label"],
            "native_ns": best_of(3, case_iterations, native_loop),
            "python_ns": best_of(3, max(1, case_iterations // 10), python_loop),
            "answer": answer,
        })

    json.dump({"engine": f"yggdrasil-engine {_package_version('yggdrasil-engine')}", "results": results}, sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
