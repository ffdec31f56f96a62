#!/usr/bin/env python3
"""Evaluate flagd flags with the reference evaluator, openfeature-flagd-core (PyPI), one batch per process.

Used by the differential tests in Tests/FlagstaffFlagdTests and by `flagstaff-bench flagd-differential`. Reads JSON
lines on stdin; each line is one of

    {"definitions": {...a flagd definitions document...}}
    {"flag": "key", "type": "boolean|string|integer|float|object|any", "default": <value>,
     "context": {...evaluation context; a string "targetingKey" is the targeting key...}}
    {"bench": "key", "context": {...}, "count": N}

and writes one JSON line per line read, in order:

    {"ok": true}                                          (definitions loaded)
    {"error": "..."}                                      (definitions refused)
    {"value": ..., "variant": "..."|null, "reason": "STATIC|TARGETING_MATCH|DEFAULT|DISABLED|ERROR",
     "errorCode": null|"FLAG_NOT_FOUND"|"TYPE_MISMATCH"|"PARSE_ERROR"|"GENERAL"}
    {"seconds": S}                                        (bench: N evaluations of "any" type took S s of CPU)

An exception that is not an OpenFeature error (the reference lets Python's own errors escape, e.g. a division by
zero in a rule) is reported as errorCode GENERAL, with "exception" naming it. The package version is the first line
written: {"engine": "openfeature-flagd-core X"}.

Install (`.ci/run` does, in its own virtual environment per version):
    python3 -m venv .build-python/flagd-core-1 && .build-python/flagd-core-1/bin/pip install openfeature-flagd-core==1.0.0
    python3 -m venv .build-python/flagd-core-2 && .build-python/flagd-core-2/bin/pip install openfeature-flagd-core==2.0.0
"""
import json
import logging
import sys
import time

try:
    from importlib.metadata import version as _package_version
    from openfeature.contrib.tools.flagd.core import FlagdCore
    from openfeature.evaluation_context import EvaluationContext
    from openfeature.exception import OpenFeatureError
except ImportError as error:  # pragma: no cover - reported to the caller
    print(f"openfeature-flagd-core is not installed ({error})", file=sys.stderr)
    sys.exit(3)

TYPES = {"boolean": "boolean", "string": "string", "integer": "integer", "float": "float", "object": "object",
         "any": None}


def context_of(written):
    written = dict(written or {})
    key = written.pop("targetingKey", None)
    return EvaluationContext(targeting_key=key if isinstance(key, str) else None, attributes=written)


def evaluate(core, request):
    kind = TYPES[request.get("type", "any")]
    default = request.get("default")
    try:
        details = core._resolve(request["flag"], default, context_of(request.get("context")), kind)
        value = details.value
        if kind == "float" and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        reason = details.reason
        return {"value": value, "variant": details.variant, "reason": str(getattr(reason, "value", reason)),
                "errorCode": None}
    except OpenFeatureError as error:
        code = getattr(error.error_code, "value", error.error_code)
        return {"value": default, "variant": None, "reason": "ERROR", "errorCode": str(code)}
    except Exception as error:  # noqa: BLE001 - the reference's own bugs are reported, not fatal
        return {"value": default, "variant": None, "reason": "ERROR", "errorCode": "GENERAL",
                "exception": f"{type(error).__name__}: {error}"}


def main() -> int:
    logging.disable(logging.CRITICAL)
    out = sys.stdout
    out.write(json.dumps({"engine": f"openfeature-flagd-core {_package_version('openfeature-flagd-core')}"}) + "\n")
    core = FlagdCore()
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        if "definitions" in request:
            try:
                core.set_flags(request["definitions"])
                answer = {"ok": True}
            except Exception as error:  # noqa: BLE001
                answer = {"error": f"{type(error).__name__}: {error}"}
        elif "bench" in request:
            context = context_of(request.get("context"))
            count = int(request.get("count", 1000))
            key = request["bench"]
            start = time.thread_time()
            for _ in range(count):
                core._resolve(key, None, context, None)
            answer = {"seconds": time.thread_time() - start}
        else:
            answer = evaluate(core, request)
        out.write(json.dumps(answer, ensure_ascii=True, allow_nan=True) + "\n")
    out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
