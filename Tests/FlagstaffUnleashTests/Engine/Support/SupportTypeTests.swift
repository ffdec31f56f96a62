import Foundation
import Testing

@testable import FlagstaffUnleash

@Suite struct SupportTypeTests {
    @Test func murmurHashMatchesPublishedVectors() {
        func hash(_ text: String, _ seed: UInt32) -> UInt32 {
            MurmurHash3.hash(prefix: [], identifier: text, seed: seed)
        }
        #expect(hash("", 0) == 0)
        #expect(hash("hello", 0) == 0x248b_fa47)
        #expect(hash("hello", 1) == 0xbb4a_bcad)
        #expect(hash("The quick brown fox jumps over the lazy dog", 0) == 0x2e4f_f723)
        // Streaming the prefix separately gives the same hash as hashing the joined text.
        #expect(
            MurmurHash3.hash(prefix: Array("group:".utf8), identifier: "user-42", seed: 7) == hash("group:user-42", 7))
    }

    @Test func semanticVersionsOrderAsSemverOrgSays() throws {
        let ordered = [
            "1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta", "1.0.0-beta.2", "1.0.0-beta.11",
            "1.0.0-rc.1", "1.0.0", "1.0.1", "1.2.0", "2.0.0",
        ]
        let versions = try ordered.map { try #require(SemanticVersion($0), "\($0)") }
        for index in versions.indices.dropLast() {
            #expect(versions[index] < versions[index + 1], "\(ordered[index]) < \(ordered[index + 1])")
        }
        for invalid in ["v1.0.0", "1.0", "01.0.0", "1.0.0-", "1.0.0-01", "1.0.0+", "a.b.c", "1.0.0 "] {
            #expect(SemanticVersion(invalid) == nil, "\(invalid)")
        }
    }

    @Test func networksContainTheirAddresses() throws {
        let v4 = try #require(IPNetwork("192.168.1.0/24"))
        #expect(v4.contains(try #require(IPAddress("192.168.1.200"))))
        #expect(!v4.contains(try #require(IPAddress("192.168.2.1"))))
        let everything = try #require(IPNetwork("0.0.0.0/0"))
        #expect(everything.contains(try #require(IPAddress("8.8.8.8"))))
        let v6 = try #require(IPNetwork("2001:db8::/33"))
        #expect(v6.contains(try #require(IPAddress("2001:db8:7fff::1"))))
        #expect(!v6.contains(try #require(IPAddress("2001:db8:8000::1"))))
        for invalid in ["10/8", "1.2.3.4/33", "1.2.3", "::1/129", "1.2.3.4/", "1.2.3.4/-1", ""] {
            #expect(IPNetwork(invalid) == nil, "\(invalid)")
        }
    }

    @Test func rfc3339ParsesOffsetsAndFormatsUTC() throws {
        let utc = try #require(RFC3339.parse("2022-01-29T13:00:00.000Z"))
        #expect(utc.timeIntervalSince1970 == 1_643_461_200)
        #expect(RFC3339.parse("2022-01-29T15:00:00+02:00") == utc)
        #expect(RFC3339.parse("2022-01-29t15:00:00+0200") == utc)
        #expect(RFC3339.format(utc) == "2022-01-29T13:00:00.000Z")
        #expect(RFC3339.format(try #require(RFC3339.parse("1969-12-31T23:59:59.250Z"))) == "1969-12-31T23:59:59.250Z")
        // Years as the reference engine (chrono) reads them: 1-4 digits, or signed with any number.
        #expect(RFC3339.parse("023-06-01T00:00:00Z") == RFC3339.parse("0023-06-01T00:00:00Z"))
        #expect(try #require(RFC3339.parse("+12023-06-01T00:00:00Z")) > utc)
        #expect(try #require(RFC3339.parse("-0001-06-01T00:00:00Z")) < utc)
        for invalid in [
            "2022-01-29", "2022-01-29T13:00:00", "2022-02-30T00:00:00Z", "2022-01-29T13:00:00.Z", "yesterday",
            "12023-06-01T00:00:00Z", "2023-06-01T00:00:00-00:00", "2023-6-01T00:00:00Z",
        ] {
            #expect(RFC3339.parse(invalid) == nil, "\(invalid)")
        }
    }

    @Test func regexTranslationRejectsWhatRE2Lacks() {
        for pattern in ["(?=a)", "(?!a)", "(?<=a)b", "(?<!a)b", "(a)\\1", "\\k<x>", "(?>a)", "a\\Z"] {
            #expect(throws: RegexPattern.Rejection.self, "\(pattern)") {
                try RegexPattern.compile(pattern, caseInsensitive: false)
            }
        }
        #expect(throws: Never.self) { try RegexPattern.compile("(?<name>a)[(?=]", caseInsensitive: false) }
    }
}
