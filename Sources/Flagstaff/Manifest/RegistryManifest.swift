import Foundation

/// A registry described as data (JSON), so the standalone console and the CLI can open any app's flags and
/// settings.
///
/// Any registry exports one with `registry.manifest()`; `AnyFeatureRegistry(manifest:store:)` builds a registry
/// from one. Shape:
/// ```json
/// {"name": "Moments demo",
///  "flags": [{"key": "blueText", "label": "Blue Text", "default": false}],
///  "settings": [{"key": "maxItems", "type": "integer", "default": 20, "range": [1, 100]}],
///  "groups": [{"key": "list", "label": "List",
///              "flags": [{"key": "list.infiniteScroll", "description": "Load more rows", "default": true}]}]}
/// ```
/// Flag and setting keys are full store keys. Typed settings (``RegistryManifest/Setting``) are listed in `settings`, beside
/// `flags`, at the top level and in groups; a manifest without settings leaves the field out. Every field
/// except `name`, a group's `key`, a flag's `key` and a setting's `key`, `type` and `default` is optional.
/// Unknown fields are errors, so typos do not pass silently.
public struct RegistryManifest: Codable, Sendable, Hashable {
    /// The registry's display name.
    public var name: String
    /// Flags at the top level.
    package var flags: [Flag]
    /// Typed settings at the top level.
    package var settings: [Setting]
    /// Top-level groups.
    package var groups: [Group]
    /// The remote-config provider the registry's `remote` flags read from, if any (see ``Remote``).
    package var remote: Remote?
    /// What the app reported about itself, in a manifest it announced beside its store (``AppReport``); `nil` in
    /// a manifest exported by hand.
    package var app: AppReport?

    enum CodingKeys: String, CodingKey, CaseIterable { case name, flags, settings, groups, remote, app }

    /// Creates a manifest.
    package init(name: String, flags: [Flag] = [], settings: [Setting] = [], groups: [Group] = []) {
        self.init(name: name, flags: flags, settings: settings, groups: groups, remote: nil)
    }

    /// Creates a manifest with a remote-config provider.
    /// - Parameters:
    ///   - name: the registry's display name.
    ///   - flags: top-level flags.
    ///   - settings: top-level typed settings.
    ///   - groups: top-level groups.
    ///   - remote: the remote-config provider, or `nil`.
    package init(name: String, flags: [Flag], settings: [Setting] = [], groups: [Group], remote: Remote?) {
        self.name = name
        self.flags = flags
        self.settings = settings
        self.groups = groups
        self.remote = remote
    }

    /// Encodes the manifest, leaving out empty `settings` and an absent `remote`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(flags, forKey: .flags)
        if !settings.isEmpty { try container.encode(settings, forKey: .settings) }
        try container.encode(groups, forKey: .groups)
        try container.encodeIfPresent(remote, forKey: .remote)
        try container.encodeIfPresent(app, forKey: .app)
    }

    /// A group of flags.
    package struct Group: Codable, Sendable, Hashable {
        /// The group's own key component (`list`).
        package var key: String
        /// The display label (default: the key humanised).
        package var label: String?
        /// A human description.
        package var description: String?
        /// Flags directly in the group.
        package var flags: [Flag]
        /// Typed settings directly in the group.
        package var settings: [Setting]
        /// Nested groups.
        package var groups: [Group]

        enum CodingKeys: String, CodingKey, CaseIterable { case key, label, description, flags, settings, groups }

        /// Creates a group.
        package init(
            key: String, label: String? = nil, description: String? = nil, flags: [Flag] = [],
            settings: [Setting] = [], groups: [Group] = []
        ) {
            self.key = key
            self.label = label
            self.description = description
            self.flags = flags
            self.settings = settings
            self.groups = groups
        }

        /// Encodes the group, leaving out absent texts and empty `settings`.
        package func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(key, forKey: .key)
            try container.encodeIfPresent(label, forKey: .label)
            try container.encodeIfPresent(description, forKey: .description)
            try container.encode(flags, forKey: .flags)
            if !settings.isEmpty { try container.encode(settings, forKey: .settings) }
            try container.encode(groups, forKey: .groups)
        }
    }

    /// A flag.
    public struct Flag: Codable, Sendable, Hashable {
        /// The full store key.
        public var key: String
        /// The display label (default: the last key component humanised).
        public var label: String?
        /// A human description.
        public var description: String?
        /// The default value (for remote flags, the value used until a remote value arrives; for dynamic
        /// flags, the value the standalone console shows, since a closure cannot be described as data).
        public var `default`: Bool
        /// Whether a change only takes effect after a restart.
        public var requiresRestart: Bool
        /// Where the default comes from.
        public var kind: FeatureKind
        /// For `buildTarget` flags: the targets in which the flag is on.
        public var enabledIn: [BuildTarget]?
        /// For `remote` flags: the key in the remote config, when it differs from `key`.
        public var remoteKey: String?

        enum CodingKeys: String, CodingKey, CaseIterable {
            case key, label, description, `default`, requiresRestart, kind, enabledIn, remoteKey
        }

        /// Creates a flag.
        public init(
            key: String, label: String? = nil, description: String? = nil, default: Bool = false,
            requiresRestart: Bool = false, kind: FeatureKind = .static, enabledIn: [BuildTarget]? = nil,
            remoteKey: String? = nil
        ) {
            self.key = key
            self.label = label
            self.description = description
            self.default = `default`
            self.requiresRestart = requiresRestart
            self.kind = kind
            self.enabledIn = enabledIn
            self.remoteKey = remoteKey
        }
    }
}

extension RegistryManifest {
    /// The flags and settings of the top level, then of each group before its subgroups.
    package var memberLists: [(flags: [Flag], settings: [Setting])] {
        var lists = [(flags, settings)]
        func add(_ groups: [Group]) {
            for group in groups {
                lists.append((group.flags, group.settings))
                add(group.groups)
            }
        }
        add(groups)
        return lists
    }

    /// How many flags and settings the manifest has, its groups' included.
    package var memberCount: Int {
        func count(_ groups: [Group]) -> Int {
            groups.reduce(0) { $0 + $1.flags.count + $1.settings.count + count($1.groups) }
        }
        return flags.count + settings.count + count(groups)
    }
}
