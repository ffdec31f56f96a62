import Flagstaff
import FlagstaffTestSupport
import Foundation
import Testing

/// Push to SDKs no one here wrote, against the built `flagstaff serve`: the Python `UnleashClient` 6.9.1 in its
/// streaming mode, and `sseclient-py` reading the OFREP event stream named by the bulk answer. A `flagstaff set`
/// in another process reaches both with no poll. Skipped, saying why, when python3 or the packages are missing.
@Suite(.enabled(if: PythonStreaming.unavailableReason == nil, PythonStreaming.skipComment))
struct PythonStreamingTests {
    @Test("UnleashClient in streaming mode and an OFREP SSE client see a `flagstaff set` with no poll")
    func streamingClientsFollowSet() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("serve-sse-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var environment = ProcessInfo.processInfo.environment
        environment["FLAGSTAFF_STORE"] = directory.appendingPathComponent("demo.json").path
        environment["FLAGSTAFF_DEMO"] = "1"  // the demo registry on this store (no app announced one)
        environment["HOME"] = directory.path
        environment.removeValue(forKey: "FLAGSTAFF_MANIFEST")
        let serve = try await ServeProcess(environment: environment)
        var stopped = false
        defer { if !stopped { _ = serve.terminate() } }

        let script = directory.appendingPathComponent("streaming.py")
        try Data(PythonStreaming.script.utf8).write(to: script)
        let executable = try BuildProducts.executable(named: "flagstaff")
        let result = try await CommandRunner.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["python3", script.path, serve.baseURL, directory.appendingPathComponent("cache").path, executable.path],
            environment: environment, timeout: .seconds(300))
        try #require(result.status == 0, "\(result)")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any], "\(result)")
        // Before: the demo defaults, from the `unleash-connected` state.
        #expect(report["blueTextBefore"] as? Bool == false)
        #expect(report["cardColorBefore"] as? String == "#f05138")
        // After the set, with no poll (the refresh interval is an hour): the `unleash-updated` delta.
        // Any time well under that hour shows a push; the script waits up to a minute (a loaded machine is slow).
        let unleashSeconds = try #require(report["unleash"] as? Double)
        #expect(unleashSeconds >= 0 && unleashSeconds < 60, "UnleashClient took \(unleashSeconds) s")
        let ofrepSeconds = try #require(report["ofrep"] as? Double)
        #expect(ofrepSeconds >= 0 && ofrepSeconds < 60, "the OFREP event took \(ofrepSeconds) s")
        #expect(report["ofrepType"] as? String == "refetchEvaluation")
        #expect(report["refetchMatches"] as? Bool == true, "the re-fetch answered the ETag the event named")
        #expect(report["refetchBlueText"] as? Bool == true)
        // The streams were logged as they connected.
        #expect(
            serve.standardError.contains("unleash streaming: python-streaming (unleash-python-sdk:6.9.1) connected"))
        #expect(serve.standardError.contains("ofrep events:"))
        stopped = true
        #expect(serve.terminate() == 0)
    }
}

/// The Python side of ``PythonStreamingTests``.
enum PythonStreaming {
    /// `nil` when python3 can import the packages, else why not.
    static let unavailableReason = PythonPackages.unavailableReason(
        importing: "UnleashClient, sseclient, requests", install: "UnleashClient==6.9.1 sseclient-py==1.9.0")

    static var skipComment: Comment { Comment(rawValue: unavailableReason ?? "") }

    /// Connects both clients, sets two members with the flagstaff binary, and prints one JSON object: the values
    /// before, the seconds each client took to see the change, and the OFREP re-fetch after the last event.
    static let script = #"""
        import json, subprocess, sys, threading, time, logging
        logging.disable(logging.CRITICAL)
        import requests, sseclient
        from UnleashClient import UnleashClient

        base, cache_dir, flagstaff = sys.argv[1:4]
        report = {}
        unleash = UnleashClient(url=base + "/api", app_name="python-streaming", refresh_interval=3600,
                                disable_metrics=True, disable_registration=True, cache_directory=cache_dir,
                                experimental_mode={"type": "streaming"})
        unleash.initialize_client()
        start = time.monotonic()
        while not unleash.is_enabled("debugLogging") and time.monotonic() - start < 20:
            time.sleep(0.02)

        def card():
            variant = unleash.get_variant("cardColor")
            return variant["payload"]["value"] if variant.get("enabled") else None

        report["blueTextBefore"] = unleash.is_enabled("blueText")
        report["cardColorBefore"] = card()

        def bulk_tag():
            return requests.post(base + "/ofrep/v1/evaluate/flags", json={}).headers.get("ETag")

        bulk = requests.post(base + "/ofrep/v1/evaluate/flags", json={})
        url = bulk.json()["eventStreams"][0]["url"]
        # Returns once the response head has come: the server subscribed the stream to changes before sending it.
        response = requests.get(url, stream=True, headers={"Accept": "text/event-stream"}, timeout=30)
        received = []
        def read():
            for event in sseclient.SSEClient(response).events():
                received.append((time.monotonic(), event))
        reader = threading.Thread(target=read, daemon=True)
        reader.start()

        subprocess.run([flagstaff, "set", "blueText", "on"], check=True, stdout=subprocess.DEVNULL)
        subprocess.run([flagstaff, "set", "cardColor", "#000000"], check=True, stdout=subprocess.DEVNULL)
        written = time.monotonic()
        report["unleash"] = -1
        while time.monotonic() - written < 60:
            if unleash.is_enabled("blueText") and card() == "#000000":
                report["unleash"] = time.monotonic() - written
                break
            time.sleep(0.005)
        while not received and time.monotonic() - written < 60:
            time.sleep(0.005)
        if received:
            report["ofrep"] = max(0.0, received[0][0] - written)
        # Both sets may be one change or two: wait until the last event names the values served now.
        def names_now():
            tag = json.loads(received[-1][1].data).get("etag") or ""
            return bulk_tag() in (tag, tag[:-1] + '-gzip"')
        while received and not names_now() and time.monotonic() - written < 60:
            time.sleep(0.02)
        if received:
            data = json.loads(received[-1][1].data)
            report["ofrepType"] = data.get("type")
            refetch = requests.post(base + "/ofrep/v1/evaluate/flags",
                                    params={"flagConfigEtag": data.get("etag"),
                                            "flagConfigLastModified": data.get("lastModified")}, json={})
            # requests accepts gzip: the compressed body's tag is the event's with -gzip before the closing quote.
            tag = data.get("etag") or ""
            report["refetchMatches"] = refetch.headers.get("ETag") in (tag, tag[:-1] + '-gzip"')
            flags = {flag["key"]: flag["value"] for flag in refetch.json()["flags"]}
            report["refetchBlueText"] = flags.get("blueText")
        unleash.destroy()
        print(json.dumps(report), flush=True)
        """#
}
