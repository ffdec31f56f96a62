import FlagstaffTestSupport
import Foundation
import Testing

@testable import Flagstaff

/// The platform layer's own promises (the one place with `#if canImport(Darwin)` branches), on real files.
@Suite struct PlatformTests {
    static func file() -> String {
        TestDirectory.make("flagstaff-platform").appendingPathComponent("file").path
    }

    @Test func positionedReadsAndWritesLeaveThePositionAlone() throws {
        let path = Self.file()
        let descriptor = try Platform.openFile(path, .readWrite, [.create, .exclusive], permissions: 0o600)
        defer { Platform.closeFile(descriptor) }
        try Array("hello world".utf8).withUnsafeBytes { try Platform.writeAll(descriptor, $0) }
        try Array("W".utf8).withUnsafeBytes { try Platform.writeAll(descriptor, $0, at: 6) }
        var buffer = [UInt8](repeating: 0, count: 5)
        #expect(try Platform.readSome(descriptor, into: &buffer, at: 6) == 5)
        #expect(String(decoding: buffer, as: UTF8.self) == "World")
        // The position is still the end of the first write: a plain read finds nothing.
        #expect(try Platform.readSome(descriptor, into: &buffer) == 0)
        try Platform.truncateFile(descriptor, to: 5)
        let status = try Platform.status(ofDescriptor: descriptor)
        #expect(status.kind == .regular && status.size == 5 && status.permissions == 0o600)
        #expect(throws: SystemError(code: EEXIST)) { try Platform.openFile(path, .readOnly, [.create, .exclusive]) }
    }

    @Test func statusSaysWhatIsThereAndNothingForAMissingPath() throws {
        let path = Self.file()
        #expect(try Platform.status(atPath: path, followingLinks: true) == nil)
        let folder = (path as NSString).deletingLastPathComponent
        #expect(try Platform.status(atPath: folder, followingLinks: true)?.kind == .directory)
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "elsewhere")
        #expect(try Platform.status(atPath: path, followingLinks: false)?.kind == .symbolicLink)
        #expect(try Platform.linkDestination(path) == "elsewhere")
        #expect(try Platform.status(atPath: path, followingLinks: true) == nil, "a dangling link names nothing")
        let error = #expect(throws: SystemError.self) { try Platform.openFile(path, .readOnly, [.noFollow]) }
        #expect(error?.isSymbolicLink == true, "\(String(describing: error))")
    }

    @Test func anExclusiveLockIsRefusedToAnotherOpenFileUntilUnlocked() throws {
        let path = Self.file()
        let first = try Platform.openFile(path, .readWrite, .create)
        defer { Platform.closeFile(first) }
        let second = try Platform.openFile(path, .readWrite)
        defer { Platform.closeFile(second) }
        #expect(try Platform.tryLockExclusive(first))
        #expect(try !Platform.tryLockExclusive(second))
        Platform.unlock(first)
        #expect(try Platform.tryLockExclusive(second))
    }

    @Test func addressesParseStrictly() {
        #expect(Platform.parseIPv4("192.168.0.1") == [192, 168, 0, 1])
        #expect(Platform.parseIPv4("192.168.1") == nil && Platform.parseIPv4(" 10.0.0.1") == nil)
        #expect(Platform.parseIPv4("256.0.0.1") == nil)
        #expect(Platform.parseIPv6("::1") == [UInt8](repeating: 0, count: 15) + [1])
        #expect(Platform.parseIPv6("2001:db8::")?.prefix(4) == [0x20, 0x01, 0x0d, 0xb8])
        #expect(Platform.parseIPv6("1:2:3:4:5:6:7:8:9") == nil && Platform.parseIPv6("10.0.0.1") == nil)
    }

    @Test func errorsAreNamedByTheSystem() {
        let missing = SystemError(code: ENOENT)
        #expect(missing.isNotFound && !missing.isPermissionDenied)
        #expect(missing.description == "No such file or directory")
        #expect(SystemError(code: EAGAIN).wouldBlock && SystemError(code: EPERM).isPermissionDenied)
    }
}
