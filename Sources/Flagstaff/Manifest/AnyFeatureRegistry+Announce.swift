import Foundation

/// The app announces itself: its manifest, with what only it can evaluate, beside its file store.
extension AnyFeatureRegistry {
    /// This registry's manifest (``manifest()``) with the app's report (``RegistryManifest/AppReport``): the build
    /// target it runs as, and the value it reads, below any QA override, of each member only it can evaluate (a
    /// build-target rule, a dynamic closure, a remote value; a remote member without a value yet reports its
    /// default, with source `default`).
    /// - Parameter time: when the report is made.
    public func announcedManifest(at time: Date = Date()) -> RegistryManifest {
        var values: [String: RegistryManifest.ReportedValue] = [:]
        for member in allFeatures {
            let remoteBound = (member as? any RemoteBindableSetting)?.remoteBinding != nil
            guard member.kind != .static || remoteBound else { continue }
            let own = member.explanation.chain.first { step in
                switch step.source {
                case .testOverride, .launch, .link, .override: false
                default: step.value != nil
                }
            }
            let source: RegistryManifest.ReportedSource =
                switch own?.source {
                case .buildTarget?: .buildTarget
                case .dynamic?: .dynamic
                case .remote?: .remote
                default: .default
                }
            let value = member.valueWithoutOverride
            values[member.key] = RegistryManifest.ReportedValue(
                value: member is AnyFlag ? .bool(value == .on) : JSONSettingValue(value), source: source)
        }
        var manifest = manifest()
        manifest.app = RegistryManifest.AppReport(buildTarget: .current, reportedAt: time, values: values)
        return manifest
    }

    /// Writes ``announcedManifest(at:)`` beside a file store (``FileOverrideStore/announcedManifestURL()``) when
    /// it differs from what is there but for the time, atomically and never through a link (docs/files.md). Called
    /// when the registry is made and after members are registered at run time; the work runs on one background
    /// queue, in the order asked, so that making a registry never waits for it (100,000 members: 0.15–0.5 s, see
    /// `flagstaff-bench manifest`). A failure is said once on standard error: the app works on, and tools given the
    /// store say that no manifest was announced.
    func announceBesideStore() {
        guard options.announcesManifest, store is FileOverrideStore else { return }
        Self.announcements.async { [weak self] in self?.writeAnnouncement() }
    }

    /// Waits until the announcements asked for so far are written (tests, and tools that read them at once).
    package func waitForAnnouncement() {
        Self.announcements.sync {}
    }

    /// Where announcements run: one at a time, off the thread that made or grew a registry.
    private static let announcements = DispatchQueue(label: "flagstaff.announce", qos: .utility)

    private func writeAnnouncement() {
        guard let store = fileStore else { return }
        do {
            let url = try store.announcedManifestURL()
            var manifest = announcedManifest(at: options.wallClock.date)
            // One of Flagstaff's own files: read never through a link, and a FIFO or device is refused, not waited
            // on (docs/files.md). Anything unreadable counts as absent; the write then says what is wrong.
            if let data = try? BoundedFileReader.read(url.path, limit: 256 << 20, followingLinks: false),
                let previous = try? RegistryManifest.decode(data, source: url.path),
                let time = previous.app?.reportedAt
            {
                manifest.app?.reportedAt = time
                if previous == manifest { return }
                manifest.app?.reportedAt = options.wallClock.date
            }
            let data = try manifest.announcementJSON()
            do throws(OwnFile.Failure) {
                try OwnFile.writeAtomically(data, to: url.path, ownerOf: store.url.path)
            } catch {
                throw error
            }
        } catch {
            ProcessNotes.sayOnce(["cannot announce the registry's manifest beside its store: \(error)"])
        }
    }
}

extension RegistryManifest {
    /// An announced manifest as JSON: beside the store, and as a linked app sends it to `flagstaff serve`.
    package func announcementJSON() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}
