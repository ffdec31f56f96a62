import Foundation
import Synchronization
import Testing

@testable import Flagstaff

/// Readers, writers, external store changes, searches and runtime registrations at once. Meant to be run
/// under `swift test --sanitize=thread --filter ConcurrencyTests` as well as normally.
@Suite struct ConcurrencyTests {
    @Test func concurrentReadsWritesSearchesAndRegistrations() async throws {
        let file = temporaryDirectory().appendingPathComponent("overrides.json")
        let features = FeatureRegistry(
            AppFeatures(), store: try FileOverrideStore(url: file),
            options: RegistryOptions(storeWatchInterval: .milliseconds(5)))
        let other = try FileOverrideStore(url: file)
        let notifications = Atomic<Int>(0)
        let subscription = features.onChange { _ in notifications.add(1, ordering: .relaxed) }
        await withTaskGroup(of: Void.self) { group in
            for reader in 0..<4 {
                group.addTask {
                    var on = 0
                    for _ in 0..<20_000 {
                        if features.blueText.enabled { on += 1 }
                        if features.list.infiniteScroll.enabled { on += 1 }
                        _ = features.flag(forKey: "debugLogging")?.enabled
                    }
                    _ = on + reader
                }
            }
            group.addTask {
                for index in 0..<100 {
                    features.blueText.override = index.isMultiple(of: 2) ? .enabled : .disabled
                }
            }
            group.addTask {
                for index in 0..<100 {
                    _ = try? other.write(["list.infiniteScroll": index.isMultiple(of: 3) ? .set(.on) : .remove])
                }
            }
            group.addTask {
                for index in 0..<50 {
                    _ = features.search("scroll")
                    _ = features.featuresRequiringRestart
                    _ = features.allFeatures.map(\.explanation)
                    try? features.register(Feature(key: "runtime.\(index)"), in: "runtime")
                }
            }
        }
        subscription.cancel()
        features.refreshFromStore()
        let stored = try other.load()
        #expect(features.blueText.overrideValue == stored["blueText"])
        #expect(features.list.infiniteScroll.overrideValue == stored["list.infiniteScroll"])
        #expect(features.allFeatures.count == FeatureRegistry(AppFeatures()).allFeatures.count + 50)
        #expect(notifications.load(ordering: .relaxed) > 0)
    }

    /// One store object written from several threads at once (each write reads the file under the lock and may
    /// take the store's last image): nothing is lost, and each writer's revisioned answer lists what it changed
    /// only when the file was the one it knew.
    @Test func oneFileStoreWrittenFromManyThreadsLosesNothing() async throws {
        let store = try FileOverrideStore(url: temporaryDirectory().appendingPathComponent("overrides.json"))
        let reader = try FileOverrideStore(url: store.url)
        await withTaskGroup(of: Void.self) { group in
            for writer in 0..<4 {
                group.addTask {
                    var known: UInt64?
                    for index in 0..<40 {
                        guard
                            let write = try? store.write(
                                OverrideChange(["w\(writer).k\(index)": .set(.on)]), known: known)
                        else { continue }
                        if let changes = write.changes {
                            // Only this writer's key can differ from the file it knew.
                            #expect(changes.map(\.key) == ["w\(writer).k\(index)"])
                        }
                        known = write.revision
                    }
                }
            }
            group.addTask {
                for _ in 0..<40 { _ = try? reader.loadSnapshot() }
            }
        }
        let stored = try reader.load()
        #expect(stored.count == 160)
        #expect(try store.load() == stored)
    }

    @Test func identitiesAndMemberListsReadWhileFlagsAreRegistered() async throws {
        let features = FeatureRegistry(AppFeatures(), options: RegistryOptions(storeWatchInterval: nil))
        let declared = features.allFeatures.count
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for index in 0..<200 {
                    let flag = Feature(key: "late.flag\(index)")
                    try? features.register(flag, in: index.isMultiple(of: 2) ? "late" : "late.deeper")
                }
            }
            for _ in 0..<3 {
                group.addTask {
                    for _ in 0..<300 {
                        for flag in features.allFeatures.suffix(4) {
                            // Registration publishes each flag's identity while these read it.
                            #expect(!flag.key.isEmpty && !flag.label.isEmpty)
                            _ = (flag.groupPath, flag.groupKeyPath, flag.declarationPath, flag.registry === features)
                            _ = features.feature(forKey: flag.key)
                        }
                        _ = features.groups.map { ($0.label, $0.keyPath, $0.subgroups.count) }
                    }
                }
            }
        }
        #expect(features.allFeatures.count == declared + 200)
        let last = try #require(features.feature(forKey: "late.flag199"))
        #expect(last.groupKeyPath == ["late", "deeper"] && last.label == "Flag 199" && last.registry === features)
        #expect(features.groups.last?.label == "Late")
    }

    @Test func concurrentFirstSearchesBuildTheIndexOnce() throws {
        let flags = (0..<4_000).map {
            RegistryManifest.Flag(key: "g.flag\($0)", description: "Flag number \($0) of the bench")
        }
        let registry = try AnyFeatureRegistry(
            manifest: RegistryManifest(name: "Index", groups: [RegistryManifest.Group(key: "g", flags: flags)]),
            options: RegistryOptions(storeWatchInterval: nil))
        let counts = AnnotatedMutex<[Int]>([])
        // Off the cooperative pool: four threads ask for the first search at the same moment.
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            let count = registry.search(worker.isMultiple(of: 2) ? "flag1" : "number").count
            counts.withLock { $0.append(count) }
        }
        #expect(registry.core.search.builds.withLock { $0 } == 1)
        let expected = [registry.search("flag1").count, registry.search("number").count]
        #expect(expected[1] == 4_000)
        #expect(counts.withLock { $0.sorted() } == (expected + expected).sorted())
    }
}
