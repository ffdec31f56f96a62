#!/usr/bin/env python3
"""Answer Unleash evaluation queries with the reference engine, yggdrasil-engine (PyPI).

Used by the differential test in Tests/FlagstaffUnleashTests. Reads one JSON document on stdin:

    {"state": <a /api/client/features body or {"events": [...]}>,
     "updates": [<optional: further documents, usually {"events": [...]}, applied in order after state>],
     "queries": [{"flag": "name", "context": {...spec-shaped context...}}, ...]}

and writes one JSON document on stdout:

    {"engine": "yggdrasil-engine <version>",
     "results": [{"enabled": true, "variant": {"name": "...", "enabled": true, "feature_enabled": true,
                                              "payload": {"type": "string", "value": "..."}}}, ...]}

`payload` appears only when the variant has one. Uses check_enabled / check_variant, which do not record
metrics. Exit status 3 with a message on stderr when the package is missing, 2 on bad input.

Install: pip install yggdrasil-engine==2.0.0
"""
import json
import sys

try:
    from importlib.metadata import version as _package_version
    from yggdrasil_engine.engine import UnleashEngine
except ImportError as error:  # pragma: no cover - reported to the caller
    print(f"yggdrasil-engine is not installed ({error}); pip install yggdrasil-engine==2.0.0", file=sys.stderr)
    sys.exit(3)


def main() -> int:
    try:
        request = json.load(sys.stdin)
        state = request["state"]
        queries = request["queries"]
    except (ValueError, KeyError, TypeError) as error:
        print(f"bad request on stdin: {error}", file=sys.stderr)
        return 2

    engine = UnleashEngine()
    engine.take_state(json.dumps(state))
    for update in request.get("updates") or []:
        engine.take_state(json.dumps(update))
    results = []
    for query in queries:
        flag = query["flag"]
        context = query.get("context") or {}
        enabled = engine.check_enabled(flag, context).is_enabled
        variant = engine.check_variant(flag, context).variant
        answer = {"name": variant.name, "enabled": variant.enabled, "feature_enabled": variant.feature_enabled}
        if variant.payload:
            answer["payload"] = {"type": variant.payload.get("type"), "value": variant.payload.get("value")}
        results.append({"enabled": enabled, "variant": answer})

    json.dump({"engine": f"yggdrasil-engine {_package_version('yggdrasil-engine')}", "results": results}, sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
