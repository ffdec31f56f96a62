import Foundation
import Testing

@testable import Flagstaff

/// What a store keeps: canonical JSON text, equal when the texts are, and the flag states among them.
@Suite struct OverrideValueTests {
    @Test func overrideValuesAreCanonical() throws {
        #expect(
            try OverrideValue(json: #" { "b" : 1 , "a" : [ 2.0 , true , null ] } "#).json
                == #"{"a":[2,true,null],"b":1}"#)
        #expect(try OverrideValue(json: "20.0") == OverrideValue(json: "20"))
        #expect(try OverrideValue(json: #""on""#) == .on)
        #expect(throws: SettingValueError.self) { try OverrideValue(json: #"{"a":1,"a":2}"#) }
        #expect(OverrideValue(string: "line\nbreak").json == #""line\nbreak""#)
        #expect(try OverrideValue(json: "9007199254740993").json == "9007199254740993", "64-bit integers stay exact")
    }

    @Test func textThatIsNotJSONIsRefusedSayingWhy() {
        #expect(throws: SettingValueError(#"not valid JSON: the name "a" appears more than once"#)) {
            try OverrideValue(json: #"{"b":{"a":1,"a":2}}"#)
        }
        let error = #expect(throws: SettingValueError.self) { try OverrideValue(json: "{nope") }
        #expect(error?.reason.hasPrefix("not valid JSON (") == true, "\(String(describing: error))")
    }

    @Test func foundationObjectsGetTheSameCanonicalText() throws {
        let object = try JSONSerialization.jsonObject(with: Data(#"{"z":[1.5,20.0,false],"a":"x"}"#.utf8))
        #expect(OverrideValue(jsonObject: object) == (try OverrideValue(json: #"{"a":"x","z":[1.5,20,false]}"#)))
        #expect(OverrideValue(jsonObject: "on") == .on && OverrideValue(jsonObject: "off") == .off)
        #expect(OverrideValue(jsonObject: NSNull()).json == "null")
        #expect(OverrideValue.numberText(.infinity) == "null" && OverrideValue.numberText(-3.0) == "-3")
    }

    @Test func onlyOnAndOffAreFlagStates() throws {
        #expect(OverrideValue.on.overrideState == .enabled && OverrideValue.off.overrideState == .disabled)
        #expect(OverrideValue(string: "maybe").overrideState == nil)
        #expect(try OverrideValue(json: "true").overrideState == nil, "a JSON boolean is a setting's value")
        #expect(OverrideValue(.enabled) == .on && OverrideValue(.disabled) == .off)
        #expect(OverrideValue(.featureDefault) == nil)
        #expect(OverrideValue(string: "dark").stringValue == "dark" && OverrideValue.on.stringValue == "on")
        #expect(try OverrideValue(json: "1").stringValue == nil)
    }
}
