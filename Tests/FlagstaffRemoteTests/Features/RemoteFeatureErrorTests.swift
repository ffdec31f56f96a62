import FlagstaffRemote
import Testing

/// `RemoteFeatureError` is a struct wrapping a private code: callers ask its properties instead of matching cases.
@Suite struct RemoteFeatureErrorTests {
    @Test func theErrorNamesTheFlagAndTheProvider() {
        let error = RemoteFeatureError.alreadyBound(key: "avatar.rounded", provider: "firebase")
        #expect(error.isAlreadyBound && error.key == "avatar.rounded" && error.provider == "firebase")
        #expect(
            error.description
                == #"remote flag "avatar.rounded" is already bound to a firebase remote config; a flag can be bound once"#
        )
        #expect(error == .alreadyBound(key: "avatar.rounded", provider: "firebase"))
    }
}
