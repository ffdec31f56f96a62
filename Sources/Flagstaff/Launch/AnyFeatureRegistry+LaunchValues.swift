/// Launch values given by a tool that is not the app.
extension AnyFeatureRegistry {
    /// Makes `values` the launch values of those members ("needs a restart" compares with them).
    ///
    /// An app's registry records its launch values itself, when it is created. A tool that opens the app's
    /// registry from outside (the `flagstaff` CLI and its console) knows the app's launch from the store's launch
    /// snapshot instead, and calls this once before reading, so that ``AnyFeature/isPendingRestart``,
    /// ``AnyFeature/launchStoredValue`` and ``featuresRequiringRestart`` mean what `flagstaff pending-restart`
    /// reports. Keys no member has, and values not valid for their member, are ignored.
    /// - Parameter values: launch values by key, as stored (`"on"`/`"off"` for flags).
    package func recordLaunchValues(_ values: [String: OverrideValue]) {
        for (key, value) in values { feature(forKey: key)?.recordLaunchValue(value) }
    }
}
