import Flagstaff
import FlagstaffRemote
import FlagstaffTesting
import Foundation
import Testing

@Suite("RemoteFeature and RemoteConfig as a registry's remote source")
struct RemoteFeatureTests {
    struct AppFeatures: FeatureGroup {
        let isRoundedAvatar = RemoteFeature(remoteKey: "isRoundedAvatar", default: false)
        let blueText = Feature()
    }

    private func makeConfig(_ clock: ManualClock, provider: ScriptedProvider) -> RemoteConfig {
        RemoteConfig(
            provider: provider, settings: RemoteConfigSettings(minimumFetchInterval: 3600),
            environment: .manual(clock))
    }

    @Test("resolution: static default, then the active remote value with provider and fetch time; QA overrides win")
    func resolution() async throws {
        let clock = ManualClock()
        let provider = ScriptedProvider()
        provider.answer(entries: ["isRoundedAvatar": "true"])
        let config = makeConfig(clock, provider: provider)
        let registry = AnyFeatureRegistry()
        let feature = RemoteFeature(
            key: "moments.isRoundedAvatar", remoteKey: "isRoundedAvatar", default: false,
            description: "Round avatars for Chinese users", config: config)
        try registry.register(feature, in: "moments")
        config.attach(to: registry)

        #expect(feature.kind == .remote)
        #expect(feature.enabled == false)
        #expect(feature.resolution.source == .static)
        #expect(feature.remoteValue == nil)
        let before = feature.resolveDefault()
        #expect(before.chain.map(\.value) == [nil, false])
        #expect(before.chain.first?.detail?.contains("no active value") == true)

        await config.fetch()
        #expect(feature.enabled == false, "fetched but not activated values do not count")
        config.activate()
        #expect(feature.enabled == true)
        let resolution = feature.resolution
        #expect(resolution.value == true)
        #expect(resolution.source == .remote(provider: "scripted", fetchedAt: clock.date))
        #expect(resolution.chain.contains(ResolutionStep(source: .static, value: false, detail: "static default")))
        #expect(feature.remoteValue?.stringValue == "true")

        feature.override = .disabled
        #expect(feature.enabled == false)
        #expect(feature.resolution.source == .override)
        #expect(
            feature.resolution.chain.contains {
                $0.source == .remote(provider: "scripted", fetchedAt: clock.date) && $0.value == true
            })
        feature.override = .featureDefault
        #expect(feature.enabled == true)

        provider.answer(entries: ["isRoundedAvatar": "no"])
        await config.fetch(expirationDuration: 0)
        config.activate()
        #expect(feature.enabled == false, "the cached value is revalidated after activation")
        provider.answer(entries: [:])
        await config.fetch(expirationDuration: 0)
        config.activate()
        #expect(feature.enabled == false)
        #expect(feature.resolution.source == .static, "a removed remote key falls back to the static default")
    }

    @Test("activation notifies attached registries with the flag keys that changed, origin .remote")
    func notifications() async throws {
        let clock = ManualClock()
        let provider = ScriptedProvider()
        let config = makeConfig(clock, provider: provider)
        let registry = AnyFeatureRegistry()
        try registry.register(
            RemoteFeature(key: "moments.isRoundedAvatar", remoteKey: "isRoundedAvatar", config: config))
        try registry.register(RemoteFeature(key: "moments.other", remoteKey: "other", config: config))
        config.attach(to: registry)
        config.attach(to: registry)
        var changes = registry.changes.makeAsyncIterator()

        provider.answer(entries: ["isRoundedAvatar": "true", "unrelated": "x"])
        await config.fetchAndActivate()
        let change = await changes.next()
        #expect(change == FeatureChange(keys: ["moments.isRoundedAvatar"], origin: .remote))
        #expect(registry.flag(forKey: "moments.isRoundedAvatar")?.enabled == true)
        #expect(registry.remoteSources.count == 1)
        #expect(registry.remoteSources.first === config)
    }

    @Test("status and refresh for the console: never fetched, ok, stale, failed, throttled; Ctrl-R fetches now")
    func remoteSourceStatus() async throws {
        let clock = ManualClock()
        let provider = ScriptedProvider()
        provider.answer(entries: ["isRoundedAvatar": "true"])
        let config = makeConfig(clock, provider: provider)
        let source: any RemoteSource = config
        #expect(source.name == "scripted")
        #expect(source.status == RemoteSourceStatus(lastFetch: nil, state: .neverFetched))

        await source.refresh()
        #expect(config["isRoundedAvatar"].boolValue, "refresh activates")
        #expect(source.status == RemoteSourceStatus(lastFetch: clock.date, state: .ok))
        let fetchedAt = clock.date
        clock.advance(by: .seconds(3601))
        #expect(source.status.state == .stale)

        provider.answer(.failure(.transport("connection refused")))
        await source.refresh()
        #expect(provider.requests.count == 2, "refresh ignores the minimum fetch interval")
        #expect(
            source.status
                == RemoteSourceStatus(
                    lastFetch: fetchedAt,
                    state: .failed("remote config fetch failed: connection failed: connection refused")))

        provider.answer(.failure(.httpStatus(503, message: nil)))
        await source.refresh()
        #expect(source.status.state == .throttled(until: clock.date.addingTimeInterval(120)))
        #expect(config.statusSummary.contains("throttled until"))
        #expect(config["isRoundedAvatar"].boolValue, "values survive failures")
    }

    @Test("a declared flag can be bound later; binding twice to another config fails with a clear error")
    func bindLater() async throws {
        let clock = ManualClock()
        let provider = ScriptedProvider()
        provider.answer(entries: ["isRoundedAvatar": "1"])
        let config = makeConfig(clock, provider: provider)
        let features = FeatureRegistry(AppFeatures())
        #expect(features.isRoundedAvatar.key == "isRoundedAvatar")
        #expect(features.isRoundedAvatar.config == nil)
        #expect(features.isRoundedAvatar.enabled == false)
        #expect(features.isRoundedAvatar.resolveDefault().chain.first?.detail == "not bound to a remote config")

        try features.isRoundedAvatar.bind(to: config)
        try features.isRoundedAvatar.bind(to: config)
        #expect(features.remoteSources.first === config, "binding a registered flag attaches the config")
        await config.fetchAndActivate()
        #expect(features.isRoundedAvatar.enabled)

        let other = makeConfig(clock, provider: ScriptedProvider())
        let error = #expect(throws: RemoteFeatureError.self) { try features.isRoundedAvatar.bind(to: other) }
        #expect(error?.description.contains("isRoundedAvatar") == true)
        #expect(features.manifest().flags.first { $0.key == "isRoundedAvatar" }?.kind == .remote)
    }

    @Test("enabled stays consistent while another task activates new configs")
    func concurrentReads() async throws {
        let provider = ScriptedProvider()
        let config = RemoteConfig(provider: provider, settings: RemoteConfigSettings(minimumFetchInterval: 0))
        let feature = RemoteFeature(key: "flag", remoteKey: "flag", default: false, config: config)
        let readers = (0..<4).map { _ in
            Task.detached {
                var trueCount = 0
                for _ in 0..<20_000 where feature.enabled { trueCount += 1 }
                return trueCount
            }
        }
        for generation in 0..<200 {
            provider.answer(entries: ["flag": generation.isMultiple(of: 2) ? "true" : "false"])
            await config.fetchAndActivate()
        }
        for reader in readers { _ = await reader.value }
        #expect(feature.enabled == false, "the last activated value (generation 199 → false) wins")
        provider.answer(entries: ["flag": "true"])
        await config.fetchAndActivate()
        #expect(feature.enabled == true)
    }
}

@Suite("Manifest remote flags")
struct RemoteManifestTests {
    @Test("makeFeature(for:) turns manifest remote flags into bound RemoteFeatures; other kinds stay the core's")
    func manifestRemoteFlags() async throws {
        let provider = ScriptedProvider()
        provider.answer(entries: ["isRoundedAvatar": "true", "moments.compact": "1"])
        let config = RemoteConfig(provider: provider, settings: RemoteConfigSettings(minimumFetchInterval: 0))
        let manifest = RegistryManifest(
            name: "Moments",
            groups: [
                RegistryManifest.Group(
                    key: "moments", label: "Moments",
                    flags: [
                        RegistryManifest.Flag(
                            key: "moments.isRoundedAvatar", label: "Rounded Avatar", default: false,
                            kind: .remote, remoteKey: "isRoundedAvatar"),
                        RegistryManifest.Flag(key: "moments.compact", default: false, kind: .remote),
                        RegistryManifest.Flag(key: "moments.blue", default: true),
                    ])
            ])
        let registry = try AnyFeatureRegistry(manifest: manifest, makeFeature: config.makeFeature(for:))
        config.attach(to: registry)
        let avatar = try #require(registry.feature(forKey: "moments.isRoundedAvatar") as? RemoteFeature)
        #expect(avatar.remoteKey == "isRoundedAvatar")
        #expect(avatar.label == "Rounded Avatar")
        #expect(avatar.groupPath == ["Moments"])
        #expect(registry.feature(forKey: "moments.blue") is RemoteFeature == false)
        #expect(avatar.enabled == false)
        await config.fetchAndActivate()
        #expect(avatar.enabled)
        #expect(registry.flag(forKey: "moments.compact")?.enabled == true, "remote key defaults to the full key")
        #expect(
            registry.flag(forKey: "moments.compact")?.resolution.source
                == .remote(provider: "scripted", fetchedAt: config.lastFetchTime))
        #expect(registry.remoteSources.count == 1)
        // Exported again, the manifest keeps the remote bindings (a remote key equal to the key is left out).
        let exported = registry.manifest().groups[0].flags
        #expect(exported.map(\.kind) == [.remote, .remote, .static])
        #expect(exported.map(\.remoteKey) == ["isRoundedAvatar", nil, nil])
    }

    @Test("manifest() exports the remote key of RemoteFeatures declared in code")
    func declaredRemoteFlagsExportTheirRemoteKey() throws {
        let exported = FeatureRegistry(RemoteFeatureTests.AppFeatures()).manifest().flags
        let avatar = try #require(exported.first { $0.key == "isRoundedAvatar" })
        #expect(avatar.kind == .remote && avatar.remoteKey == nil, "same as its key: left out")
        struct Renamed: FeatureGroup {
            let avatar = RemoteFeature(remoteKey: "ios_rounded_avatar_v2", default: true)
        }
        let renamed = try #require(FeatureRegistry(Renamed()).manifest().flags.first)
        #expect(renamed.key == "avatar" && renamed.remoteKey == "ios_rounded_avatar_v2" && renamed.default)
    }
}
