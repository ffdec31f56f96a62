import Flagstaff

// The store tests predate typed settings and speak of flag states; these spellings let them compare store
// contents (`[String: OverrideValue]`) with `.enabled`/`.disabled` as before.
extension OverrideValue {
    static var enabled: OverrideValue { .on }
    static var disabled: OverrideValue { .off }
}
